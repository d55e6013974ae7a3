package emulator

import (
	consistency "github.com/dynamoemu/dynamoemu/emulator/internal/stages/lag"
	"github.com/dynamoemu/dynamoemu/emulator/report"
)

// Consistency fuzzing (Options.Consistency "fuzz:SEED"; docs/consistency.md):
// GSI reads, eventually consistent reads and stream records lag by
// seeded random amounts within AWS's bound of a second, and every read
// that returned data older than a committed write is reported:
//
//	GET    /dynamoemu/consistency     {"mode","seed","staleReads":[...],"dropped"}
//	DELETE /dynamoemu/consistency     forget the stale reads seen so far
//
// The report's types are package report's.

// newFuzzer returns the fuzzer of Options.Consistency (nil: none).
func newFuzzer(mode string) (*consistency.Fuzzer, error) {
	seed, fuzz, err := consistency.ParseMode(mode)
	if err != nil || !fuzz {
		return nil, err
	}
	return consistency.NewFuzzer(seed), nil
}

// ConsistencyReport returns the stale reads consistency fuzzing has seen
// (Mode "strong" and none without Options.Consistency).
func (e *Emulator) ConsistencyReport() report.ConsistencyReport {
	if e.fuzzer == nil {
		return report.ConsistencyReport{Mode: "strong", StaleReads: []report.StaleRead{}}
	}
	stale, dropped := e.fuzzer.Report()
	rep := report.ConsistencyReport{Mode: "fuzz", Seed: e.fuzzer.Seed(), StaleReads: make([]report.StaleRead, len(stale)), Dropped: dropped}
	for i, s := range stale {
		r := report.StaleRead{N: s.N, Op: s.Op, Table: s.Table, Index: s.Index, View: s.View, Key: s.Key, At: s.At,
			Missed: make([]report.MissedWrite, len(s.Missed))}
		for j, m := range s.Missed {
			r.Missed[j] = report.MissedWrite{Commit: m.Commit, Op: m.Op, Key: m.Key, Event: m.Event, At: m.At}
		}
		rep.StaleReads[i] = r
	}
	return rep
}

// ResetConsistencyReport forgets the stale reads seen so far; the lags
// go on.
func (e *Emulator) ResetConsistencyReport() {
	if e.fuzzer != nil {
		e.fuzzer.Reset()
	}
}
