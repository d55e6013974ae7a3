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

var differences struct {
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
