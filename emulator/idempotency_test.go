package emulator

import (
	"fmt"
	"testing"
	"time"
)

// fakeReplay is an answer for the token cache's tests.
type fakeReplay struct{ n int }

func (f fakeReplay) replay(string) fakeReplay { return f }

func TestIdempotencyBounded(t *testing.T) {
	var m idempotency
	now := time.Unix(1_800_000_000, 0)
	runs := 0
	run := func() (fakeReplay, error) { runs++; return fakeReplay{runs}, nil }
	for i := range 10 {
		if _, err := idempotent(&m, now, fmt.Sprint("tok", i), "req", "", run); err != nil {
			t.Fatal(err)
		}
	}
	m.mu.Lock()
	m.trimLocked(4)
	kept, queued := len(m.entries), len(m.expiry)
	m.mu.Unlock()
	if kept != 4 || queued != 4 {
		t.Fatalf("after trimming to 4: %d entries, %d queued; want 4, 4", kept, queued)
	}
	// A kept token replays without running; a forgotten one runs again.
	if out, _ := idempotent(&m, now, "tok9", "req", "", run); out.n != 10 || runs != 10 {
		t.Errorf("replay of a kept token: answer %d after %d runs, want 10 after 10", out.n, runs)
	}
	if out, _ := idempotent(&m, now, "tok0", "req", "", run); out.n != 11 || runs != 11 {
		t.Errorf("a forgotten token: answer %d after %d runs, want a new run (11)", out.n, runs)
	}
}
