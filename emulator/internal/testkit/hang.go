package testkit

import (
	"sync"
	"testing"
	"time"
)

// HangTimeout is how long a concurrency test's workload may take before
// it counts as hung. It only detects a hang (a deadlock takes forever);
// workloads are sized by operation counts, never by time.
const HangTimeout = 60 * time.Second

// WaitOrDump waits for wg. If it has not finished within HangTimeout, the
// test fails with every goroutine's stack, so the cycle of locks shows.
func WaitOrDump(t testing.TB, wg *sync.WaitGroup) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(HangTimeout):
		t.Fatalf("hung: not done after %v; all goroutines:\n%s", HangTimeout, Stacks())
	}
}
