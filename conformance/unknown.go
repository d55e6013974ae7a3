package conformance

import (
	"fmt"
	"io"
	"os"
	"sort"
	"testing"
)

var unknowns struct {
	list []difference
}

// AWSUnknown marks the running test as one that pins the emulator's answer
// where AWS's is not known (no documentation or public record of AWS's
// answer was found) and DynamoDB Local answers otherwise, and says what is
// unknown. Against DynamoDB Local the test is skipped with that reason;
// against any other endpoint, AWS included, it runs, so running the suite
// against AWS settles the question. Every marked test is listed by
// ReportUnknowns at the end of the run. Call it before the first request.
func AWSUnknown(t testing.TB, what string) {
	t.Helper()
	differences.mu.Lock() // the one lock of this package's marks
	unknowns.list = append(unknowns.list, difference{t.Name(), what})
	differences.mu.Unlock()
	if os.Getenv(EnvOracle) == OracleDynamoDBLocal {
		t.Skip("AWS's answer unknown, DynamoDB Local's differs from the emulator's: " + what)
	}
}

// ReportUnknowns writes the tests marked with AWSUnknown during this run.
func ReportUnknowns(w io.Writer) {
	differences.mu.Lock()
	list := append([]difference(nil), unknowns.list...)
	differences.mu.Unlock()
	if len(list) == 0 {
		return
	}
	sort.Slice(list, func(i, j int) bool { return list[i].test < list[j].test })
	fmt.Fprintf(w, "AWS's answer unknown: %d marked tests pin the emulator's\n", len(list))
	for _, d := range list {
		fmt.Fprintf(w, "  %s: %s\n", d.test, d.why)
	}
}
