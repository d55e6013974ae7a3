package emulator

import (
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/lag"
)

// Consistency fuzzing (Options.Consistency "fuzz:SEED"; docs/consistency.md):
// GSI reads, eventually consistent reads and stream records lag by
// seeded random amounts within AWS's bound of a second, and every read
// that returned data older than a committed write is reported:
//
//	GET    /dynamoemu/consistency     {"mode","seed","staleReads":[...],"dropped"}
//	DELETE /dynamoemu/consistency     forget the stale reads seen so far
const AdminConsistencyPath = "/dynamoemu/consistency"

// StaleRead is one read that returned data older than a committed write
// (consistency fuzzing): the read and the writes it missed.
type StaleRead struct {
	// N is the read's number among the reads of its view (from 1).
	N  uint64 `json:"n"`
	Op string `json:"op"`
	// Namespace is the ID of the namespace read ("AKID/region",
	// "shared"; a branch's: its Branch.Namespace), as NamespaceID gives
	// it: which client, or which test's branch, made the read.
	Namespace string `json:"namespace"`
	// Table is the table read; Index the GSI or LSI read ("": the table).
	Table string `json:"table"`
	Index string `json:"index,omitempty"`
	// View is what lagged: "table" (eventually consistent reads of the
	// table or an LSI), "index" (a GSI) or "stream".
	View string `json:"view"`
	// Key is the key condition read in DynamoDB JSON: the item's key, a
	// Query's partition (and sort key when equal); nil for a Scan or a
	// stream.
	Key map[string]map[string]string `json:"key,omitempty"`
	At  time.Time                    `json:"at"`
	// Missed are the committed writes the read did not see, oldest first.
	Missed []MissedWrite `json:"missed"`
}

// MissedWrite is a committed write a stale read did not see.
type MissedWrite struct {
	// Commit is the write's number among its view's commits (a
	// stream's: the record's sequence number).
	Commit uint64 `json:"commit"`
	Op     string `json:"op"`
	// Key is the item's key in DynamoDB JSON.
	Key map[string]map[string]string `json:"key"`
	// Event is INSERT, MODIFY or REMOVE ("": not known, a batch item).
	Event string    `json:"event,omitempty"`
	At    time.Time `json:"at"`
}

// ConsistencyReport is the stale-read report of consistency fuzzing.
type ConsistencyReport struct {
	// Mode is "fuzz" or "strong" (no fuzzing: nothing is reported).
	Mode string `json:"mode"`
	Seed uint64 `json:"seed"`
	// StaleReads are the stale reads seen, oldest first; Dropped counts
	// those past the ten thousand kept.
	StaleReads []StaleRead `json:"staleReads"`
	Dropped    int         `json:"dropped"`
}

// newFuzzer returns the fuzzer of Options.Consistency (nil: none).
func newFuzzer(mode string) (*lag.Fuzzer, error) {
	seed, fuzz, err := lag.ParseMode(mode)
	if err != nil || !fuzz {
		return nil, err
	}
	return lag.NewFuzzer(seed), nil
}

// ConsistencyReport returns the stale reads consistency fuzzing has seen
// (Mode "strong" and none without Options.Consistency).
func (e *Emulator) ConsistencyReport() ConsistencyReport {
	if e.fuzzer == nil {
		return ConsistencyReport{Mode: "strong", StaleReads: []StaleRead{}}
	}
	stale, dropped := e.fuzzer.Report()
	return ConsistencyReport{Mode: "fuzz", Seed: e.fuzzer.Seed(), StaleReads: staleReads(stale), Dropped: dropped}
}

// staleReads are the fuzzer's stale reads as the API gives them.
func staleReads(stale []lag.StaleRead) []StaleRead {
	out := make([]StaleRead, len(stale))
	for i, s := range stale {
		r := StaleRead{N: s.N, Op: s.Op, Namespace: s.Namespace, Table: s.Table, Index: s.Index, View: s.View, Key: s.Key, At: s.At,
			Missed: make([]MissedWrite, len(s.Missed))}
		for j, m := range s.Missed {
			r.Missed[j] = MissedWrite{Commit: m.Commit, Op: m.Op, Key: m.Key, Event: m.Event, At: m.At}
		}
		out[i] = r
	}
	return out
}

// CollectStaleReads starts collecting the stale reads consistency
// fuzzing sees from now on, in every namespace, apart from the report
// (ResetConsistencyReport neither sees nor forgets them), and returns
// the function that stops collecting and returns them, oldest first,
// with how many more were seen past the ten thousand kept. So tests that
// run at once each collect their own without resetting the others'
// (emulatortest.StaleReads keeps a test's by the Namespace of its
// branches). Without fuzzing it collects none.
func (e *Emulator) CollectStaleReads() (stop func() (stale []StaleRead, dropped int)) {
	if e.fuzzer == nil {
		return func() ([]StaleRead, int) { return []StaleRead{}, 0 }
	}
	w := e.fuzzer.Watch()
	return func() ([]StaleRead, int) {
		stale, dropped := e.fuzzer.Unwatch(w)
		return staleReads(stale), dropped
	}
}

// ResetConsistencyReport forgets the stale reads seen so far; the lags
// go on.
func (e *Emulator) ResetConsistencyReport() {
	if e.fuzzer != nil {
		e.fuzzer.Reset()
	}
}
