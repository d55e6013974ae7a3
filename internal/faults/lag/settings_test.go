package lag

import (
	"testing"
	"time"
)

func TestSettingsAndOnChange(t *testing.T) {
	g := NewGate(nil)
	calls := 0
	var seen []struct {
		d    time.Duration
		held bool
	}
	g.OnChange(func() {
		calls++
		d, h := g.Settings() // outside the gate's lock: must not deadlock
		seen = append(seen, struct {
			d    time.Duration
			held bool
		}{d, h})
	})
	steps := []struct {
		name     string
		do       func()
		wantD    time.Duration
		wantHeld bool
		wantCall int
	}{
		{"new", func() {}, 0, false, 0},
		{"delay", func() { g.SetDelay(time.Second) }, time.Second, false, 1},
		{"hold", g.Hold, time.Second, true, 2},
		{"release keeps the mode", g.Release, time.Second, true, 2},
		{"delay ends the hold", func() { g.SetDelay(0) }, 0, false, 3},
		{"negative is none", func() { g.SetDelay(-time.Second) }, 0, false, 4},
	}
	for _, s := range steps {
		s.do()
		d, h := g.Settings()
		if d != s.wantD || h != s.wantHeld || calls != s.wantCall {
			t.Fatalf("%s: got (%v, %v) after %d calls, want (%v, %v) after %d", s.name, d, h, calls, s.wantD, s.wantHeld, s.wantCall)
		}
		if calls > 0 && (seen[calls-1].d != d || seen[calls-1].held != h) {
			t.Fatalf("%s: the callback saw %+v, want (%v, %v)", s.name, seen[calls-1], d, h)
		}
	}
	g.OnChange(nil)
	g.Hold()
	if calls != 4 {
		t.Fatalf("got %d calls after OnChange(nil), want 4", calls)
	}
}
