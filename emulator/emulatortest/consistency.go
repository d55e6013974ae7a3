package emulatortest

import (
	"encoding/json"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// ConsistencyEnv names the environment variable that puts every
// emulator made here in consistency fuzzing when its Options leave
// Consistency "": DYNAMOEMU_CONSISTENCY=fuzz:42 go test ./... runs a
// suite with GSI reads, eventually consistent reads and stream records
// lagging by amounts drawn from seed 42 (docs/consistency.md).
const ConsistencyEnv = "DYNAMOEMU_CONSISTENCY"

// fromEnv is opts with Consistency from ConsistencyEnv when opts leaves
// it "".
func fromEnv(opts emulator.Options) emulator.Options {
	if opts.Consistency == "" {
		opts.Consistency = os.Getenv(ConsistencyEnv)
	}
	return opts
}

// StaleReads has the stale reads e's consistency fuzzing sees from now
// to the end of t written to t's log if t fails, one line each: the
// read (table, index or stream, key) and the writes it missed. So a test
// that fails only with lag says which read saw stale data. A test on
// branches (Fork, called before StaleReads or after) gets the reads made
// in its branches only, whatever the tests running beside it
// (t.Parallel) read; a test without one gets every read made while it
// ran. It collects apart from e's report (Reports.CollectStaleReads),
// which it neither reads nor resets. Without fuzzing it does nothing.
func StaleReads(t testing.TB, e *emulator.Emulator) {
	t.Helper()
	rep := e.Reports().Consistency()
	if rep.Mode != "fuzz" {
		return
	}
	own := ownedBy(t)
	stop := e.Reports().CollectStaleReads()
	t.Cleanup(func() {
		stale, dropped := stop()
		if !t.Failed() {
			return
		}
		namespaces := own.list()
		for _, r := range stale {
			if len(namespaces) > 0 && !slices.Contains(namespaces, r.Namespace) {
				continue // another test's
			}
			b, _ := json.Marshal(r)
			t.Logf("stale read (consistency fuzzing, seed %d): %s", rep.Seed, b)
		}
		if dropped > 0 {
			t.Logf("stale reads (consistency fuzzing, seed %d): %d more seen while the test ran, not kept", rep.Seed, dropped)
		}
	})
}

// owned are the namespaces of a test's branches (Fork), by which
// StaleReads tells its stale reads from those of tests running beside
// it.
type owned struct {
	mu         sync.Mutex
	namespaces []string
}

func (o *owned) add(ns string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.namespaces = append(o.namespaces, ns)
}

func (o *owned) list() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.namespaces)
}

// owners holds each running test's owned namespaces, forgotten when the
// test ends (the StaleReads of the test keeps its own).
var owners sync.Map // testing.TB -> *owned

// ownedBy returns t's owned namespaces, made at the first call.
func ownedBy(t testing.TB) *owned {
	if o, ok := owners.Load(t); ok {
		return o.(*owned)
	}
	o, loaded := owners.LoadOrStore(t, &owned{})
	if !loaded {
		t.Cleanup(func() { owners.Delete(t) })
	}
	return o.(*owned)
}
