package emulator

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/lag"
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
// Reports.Consistency and CollectStaleReads (reports.go) read it; its
// types are package report's.

// newFuzzer returns the fuzzer of Options.Consistency (nil: none).
func newFuzzer(mode string) (*lag.Fuzzer, error) {
	seed, fuzz, err := lag.ParseMode(mode)
	if err != nil || !fuzz {
		return nil, err
	}
	return lag.NewFuzzer(seed), nil
}

// staleReads are the fuzzer's stale reads as the API gives them.
func staleReads(stale []lag.StaleRead) []report.StaleRead {
	out := make([]report.StaleRead, len(stale))
	for i, s := range stale {
		r := report.StaleRead{N: s.N, Op: s.Op, Namespace: s.Namespace, Table: s.Table, Index: s.Index, View: s.View, Key: s.Key, At: s.At,
			Missed: make([]report.MissedWrite, len(s.Missed))}
		for j, m := range s.Missed {
			r.Missed[j] = report.MissedWrite{Commit: m.Commit, Op: m.Op, Key: m.Key, Event: m.Event, At: m.At}
		}
		out[i] = r
	}
	return out
}

// resetStaleReads forgets the stale reads of the report so far (DELETE
// /dynamoemu/consistency); the lags go on.
func (e *Emulator) resetStaleReads() {
	if e.fuzzer != nil {
		e.fuzzer.Reset()
	}
}
