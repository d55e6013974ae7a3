package conformance

import (
	"fmt"
	"io"
	"os"
	"sort"
	"sync"
	"testing"
)

type difference struct{ test, why string }

var differences, lacks struct {
	mu   sync.Mutex
	list []difference
}

// AWSDiffers marks the running test as one whose expectation follows AWS where
// DynamoDB Local is known to answer differently, and says why. Against DynamoDB Local
// (DYNAMODB_ORACLE=dynamodb-local) the test is skipped with that reason; against any
// other endpoint it runs. Call it before the first request. Every marked test is
// listed by ReportDifferences at the end of the run.
func AWSDiffers(t testing.TB, why string) {
	t.Helper()
	differences.mu.Lock()
	differences.list = append(differences.list, difference{t.Name(), why})
	differences.mu.Unlock()
	if os.Getenv(EnvOracle) == OracleDynamoDBLocal {
		t.Skip("AWS differs from DynamoDB Local: " + why)
	}
}

// ReportDifferences writes the tests marked with AWSDiffers during this run.
func ReportDifferences(w io.Writer) {
	differences.mu.Lock()
	list := append([]difference(nil), differences.list...)
	differences.mu.Unlock()
	sort.Slice(list, func(i, j int) bool { return list[i].test < list[j].test })
	verb := "ran (AWS behaviour expected)"
	if os.Getenv(EnvOracle) == OracleDynamoDBLocal {
		verb = "skipped against DynamoDB Local"
	}
	fmt.Fprintf(w, "AWS differs from DynamoDB Local: %d marked tests, %s\n", len(list), verb)
	for _, d := range list {
		fmt.Fprintf(w, "  %s: %s\n", d.test, d.why)
	}
}

// EmulatorLacks marks the running test as one the emulator cannot pass yet
// because a feature of a later issue is missing (say, reading secondary
// indexes), and says which. Against an oracle (DynamoDB Local or AWS) the test
// runs, so its expectation stays proven; elsewhere it is skipped. Every marked
// test is listed by ReportLacks at the end of the run, so what is missing
// stays visible. Remove the mark with the feature.
func EmulatorLacks(t testing.TB, feature string) {
	t.Helper()
	lacks.mu.Lock()
	lacks.list = append(lacks.list, difference{t.Name(), feature})
	lacks.mu.Unlock()
	if os.Getenv(EnvOracle) == "" {
		t.Skip("not in the emulator yet: " + feature)
	}
}

// ReportLacks writes the tests marked with EmulatorLacks during this run.
func ReportLacks(w io.Writer) {
	lacks.mu.Lock()
	list := append([]difference(nil), lacks.list...)
	lacks.mu.Unlock()
	if len(list) == 0 {
		return
	}
	sort.Slice(list, func(i, j int) bool { return list[i].test < list[j].test })
	verb := "skipped: the emulator lacks the feature"
	if os.Getenv(EnvOracle) != "" {
		verb = "ran against the oracle"
	}
	fmt.Fprintf(w, "Not yet in the emulator: %d marked tests, %s\n", len(list), verb)
	for _, d := range list {
		fmt.Fprintf(w, "  %s: %s\n", d.test, d.why)
	}
}
