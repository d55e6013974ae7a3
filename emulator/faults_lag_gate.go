package emulator

import (
	"time"

	"github.com/dynamoemu/dynamoemu/internal/faults/lag"
)

// LagGate delays what one view of a table (a GSI, its eventually
// consistent reads or its stream) sees of the table's writes. A new gate
// lags nothing; SetDelay(d) shows each write d after it on the emulator's
// clock (Advance moves it); Hold shows nothing more until Release.
// Lags.Index, Reads and Stream return gates.
type LagGate struct {
	g *lag.Gate
}

// SetDelay shows each write d after it (0: at once) and ends a Hold.
func (g LagGate) SetDelay(d time.Duration) { g.g.SetDelay(d) }

// Hold shows no more writes until Release (or SetDelay); what is
// visible when it is called stays visible.
func (g LagGate) Hold() { g.g.Hold() }

// Release shows every write made so far; a held gate stays held for
// later writes.
func (g LagGate) Release() { g.g.Release() }

// Pending returns the number of commits (a transaction is one; for a
// stream, its records) written but not visible now.
func (g LagGate) Pending() int { return g.g.Pending() }

// Settings returns the gate's mode: its delay and whether it is held
// (held wins: SetDelay ends a Hold). A gate in neither (0, false) lags
// nothing.
func (g LagGate) Settings() (delay time.Duration, held bool) { return g.g.Settings() }

// lagGate wraps a gate the service returned.
func lagGate(g *lag.Gate, err error) (LagGate, error) {
	if err != nil {
		return LagGate{}, err
	}
	return LagGate{g: g}, nil
}
