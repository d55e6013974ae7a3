// Package emulator is a placeholder so the conformance branch compiles before the real
// emulator lands. DROP THIS FILE AT MERGE: the protocol helper's emulator/ replaces it.
package emulator

import "net/http"

// Options is a placeholder for the emulator's options.
type Options struct{}

// Emulator is a placeholder for the emulator.
type Emulator struct{}

// New returns a placeholder emulator.
func New(Options) (*Emulator, error) { return &Emulator{}, nil }

// Handler answers every request with 500: the real emulator is not merged yet.
func (*Emulator) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "emulator placeholder: not implemented", http.StatusInternalServerError)
	})
}
