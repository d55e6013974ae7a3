package emulator

import (
	consistency "github.com/dynamoemu/dynamoemu/emulator/internal/stages/lag"
)

// Consistency fuzzing (Options.Consistency "fuzz:SEED"; docs/consistency.md):
// GSI reads, eventually consistent reads and stream records lag by
// seeded random amounts within AWS's bound of a second, and every read
// that returned data older than a committed write is reported:
//
//	GET    /dynamoemu/consistency     {"mode","seed","staleReads":[...],"dropped"}
//	DELETE /dynamoemu/consistency     forget the stale reads seen so far
//
// Reports.Consistency and ResetConsistency (reports.go) read and reset
// the report; its types are package report's.

// newFuzzer returns the fuzzer of Options.Consistency (nil: none).
func newFuzzer(mode string) (*consistency.Fuzzer, error) {
	seed, fuzz, err := consistency.ParseMode(mode)
	if err != nil || !fuzz {
		return nil, err
	}
	return consistency.NewFuzzer(seed), nil
}
