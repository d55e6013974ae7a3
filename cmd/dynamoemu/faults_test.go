package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// TestFaultFlags: -faults, -throttle, -report and -design reach
// emulator.Options; a bad value or file is an error naming the flag.
func TestFaultFlags(t *testing.T) {
	dir := t.TempDir()
	rules := filepath.Join(dir, "rules.json")
	if err := os.WriteFile(rules, []byte(`{"seed":7,"rules":[{"table":"Orders","fault":"Throttling","count":2}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	design := filepath.Join(dir, "d.design")
	if err := os.WriteFile(design, []byte("table T\nkey pk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := parseFlags([]string{"-faults", rules, "-throttle", "provisioned,hotkeys", "-report", "-design", design}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var opts emulator.Options
	if err := c.faults.apply(&opts); err != nil {
		t.Fatal(err)
	}
	f := opts.Faults
	if f.Seed != 7 || len(f.Rules) != 1 || f.Rules[0].Fault != emulator.FaultThrottling || !f.Throttle.Provisioned || !f.Throttle.HotKeys || !f.Report || len(f.Design) == 0 {
		t.Errorf("got %+v", f)
	}
	if _, err := emulator.New(opts); err != nil {
		t.Errorf("New: %v", err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-throttle", "always"}, "-throttle"},
		{[]string{"-faults", filepath.Join(dir, "none.json")}, "-faults"},
		{[]string{"-faults", design}, "-faults"},
	} {
		c, err := parseFlags(tc.args, io.Discard)
		if err == nil {
			err = c.faults.apply(&emulator.Options{})
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want an error naming %s", tc.args, err, tc.want)
		}
	}
}
