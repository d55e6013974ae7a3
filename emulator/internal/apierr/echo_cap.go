package apierr

import (
	"iter"
	"slices"
	"unicode/utf8"

	"github.com/dynamoemu/dynamoemu/internal/expr"
)

// MaxEcho bounds the echo of a list in a constraint violation's message
// (BatchWriteItem's RequestItems, TransactWriteItems' and
// TransactGetItems' TransactItems): AWS echoes every element, and no
// public record shows what it answers for a list of hundreds of
// thousands of them (a 15.7 MB request's echo was 57.9 MB). The emulator
// keeps the first MaxEcho bytes of the echo, marks the cut with
// EchoElided, and keeps the constraint that follows it whole. It is
// expr's, which cuts the unused placeholders' keys the same way.
const MaxEcho = expr.MaxEcho

// EchoElided marks where an echo was cut at MaxEcho bytes.
const EchoElided = expr.EchoElided

// CapEcho is echo cut after MaxEcho bytes (at a character boundary) and
// marked with EchoElided; the pieces past the cut are not asked for.
func CapEcho(echo iter.Seq[string]) iter.Seq[string] {
	return func(yield func(string) bool) {
		n := 0
		for p := range echo {
			if n+len(p) <= MaxEcho {
				n += len(p)
				if !yield(p) {
					return
				}
				continue
			}
			cut := MaxEcho - n
			for cut > 0 && !utf8.RuneStart(p[cut]) {
				cut--
			}
			if cut > 0 && !yield(p[:cut]) {
				return
			}
			yield(EchoElided)
			return
		}
	}
}

// CapEchoText is CapEcho of an echo in one piece.
func CapEchoText(echo string) string {
	return join(CapEcho(func(yield func(string) bool) { yield(echo) }))
}

// EchoPieces is a violation's message in pieces: "Value '", echo cut
// at MaxEcho (CapEcho), and tail, the rest of the violation.
func EchoPieces(echo []string, tail string) iter.Seq[string] {
	capped := CapEcho(slices.Values(echo))
	return func(yield func(string) bool) {
		if !yield("Value '") {
			return
		}
		for p := range capped {
			if !yield(p) {
				return
			}
		}
		yield(tail)
	}
}
