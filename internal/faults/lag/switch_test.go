package lag

import (
	"testing"
	"time"
)

// TestOnSwitch: each change of mode runs through the switch function,
// once, and is in effect when it returns; Release is no change of mode.
// Idle follows the mode.
func TestOnSwitch(t *testing.T) {
	g := NewGate(nil)
	if !g.Idle() {
		t.Fatal("a new gate: not idle")
	}
	var calls int
	var idleInside []bool
	g.OnSwitch(func(change func()) {
		calls++
		change()
		idleInside = append(idleInside, g.Idle())
	})
	g.Hold()
	g.Release()
	g.SetDelay(time.Second)
	g.SetDelay(0)
	if calls != 3 {
		t.Errorf("got %d switches, want 3 (Hold, SetDelay twice)", calls)
	}
	if want := []bool{false, false, true}; len(idleInside) != 3 || idleInside[0] != want[0] || idleInside[1] != want[1] || idleInside[2] != want[2] {
		t.Errorf("got idle %v after each change, want %v", idleInside, want)
	}
	g.OnSwitch(nil)
	g.Hold()
	if g.Idle() || calls != 3 {
		t.Errorf("without a switch function: got idle %v, %d calls; want held, 3", g.Idle(), calls)
	}
}
