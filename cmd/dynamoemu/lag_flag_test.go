package main

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator"
)

func TestParseLag(t *testing.T) {
	tests := []struct {
		in   string
		want []emulator.LagSetting
		err  string
	}{
		{in: "", want: nil},
		{in: "Orders/byStatus=250ms, Orders:reads=hold,Orders:stream=1s,T/*=0s", want: []emulator.LagSetting{
			{Table: "Orders", Index: "byStatus", Delay: 250 * time.Millisecond},
			{Table: "Orders", Reads: true, Hold: true},
			{Table: "Orders", Stream: true, Delay: time.Second},
			{Table: "T", Index: "*"},
		}},
		{in: "Orders", err: "want VIEW=MODE"},
		{in: "Orders=1s", err: "want TABLE/GSI"},
		{in: "Orders/=1s", err: "want TABLE/GSI"},
		{in: ":reads=1s", err: "no table"},
		{in: "Orders/g=soon", err: "want a delay"},
		{in: "Orders/g=-1s", err: "want a delay"},
	}
	for _, tc := range tests {
		got, err := parseLag(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("parseLag(%q): got %v, want an error with %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("parseLag(%q): got %v %v, want %v", tc.in, got, err, tc.want)
		}
	}
	// The flag reaches the options.
	c, err := parseFlags([]string{"-lag", "Orders/byStatus=hold"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var opts emulator.Options
	if err := c.faults.apply(&opts); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(opts.Faults.Lags); got != "[{Orders byStatus false false 0s true}]" {
		t.Errorf("-lag in the options: got %s", got)
	}
}
