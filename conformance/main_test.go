package conformance

import (
	"fmt"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	target, err := CurrentTarget()
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(2)
	}
	fmt.Println("conformance: running against", target.Name())
	code := m.Run()
	ReportDifferences(os.Stdout)
	ReportLacks(os.Stdout)
	ReportUnknowns(os.Stdout)
	if err := Shutdown(); err != nil {
		fmt.Fprintln(os.Stderr, "conformance: stop emulator:", err)
	}
	os.Exit(code)
}
