//go:build race

package service

// raceEnabled: this test binary is built with the race detector, which
// makes the decoders about twenty times slower; the heaviest equivalence
// tests run fewer rounds under it.
const raceEnabled = true
