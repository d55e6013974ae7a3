package emulatortest

import (
	"encoding/json"
	"os"
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
// that fails only with lag says which read saw stale data. The report's
// earlier reads are forgotten. Without fuzzing it does nothing.
func StaleReads(t testing.TB, e *emulator.Emulator) {
	t.Helper()
	if e.Reports().Consistency().Mode != "fuzz" {
		return
	}
	e.Reports().ResetConsistency()
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		rep := e.Reports().Consistency()
		for _, r := range rep.StaleReads {
			b, _ := json.Marshal(r)
			t.Logf("stale read (consistency fuzzing, seed %d): %s", rep.Seed, b)
		}
	})
}
