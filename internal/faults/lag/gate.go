package lag

import (
	"sync"
	"time"
)

// Gate decides which commits of one view are visible to it: it numbers
// commits (Stamp, at the commit point) and says up to which number a
// reader of the view sees them (Visible). A view is a GSI, a table's
// eventually consistent reads, or a stream: whatever may lag behind the
// table's writes. A new Gate lags nothing.
//
// Its modes, switched at any time:
//
//   - none (the default, or SetDelay(0)): every commit is visible at once;
//   - SetDelay(d): a commit is visible once the clock reaches its time
//     plus d;
//   - Hold: nothing committed from now on becomes visible until Release,
//     which makes everything committed so far visible (and holds on).
//
// Visible never goes back, whatever the clock does. A Gate is safe for
// concurrent use; Stamp is cheap enough to call under storage's lock.
type Gate struct {
	clock func() time.Time

	mu      sync.Mutex // guards the fields below
	delay   time.Duration
	held    bool
	last    uint64  // the last number stamped
	visible uint64  // the highest number visible so far
	stamps  []stamp // commits not yet visible, oldest first (a FIFO from head)
	head    int
	// onChange is called after a change of mode (settings.go).
	onChange func()
	// onSwitch makes each change of mode (switch.go).
	onSwitch func(change func())
	// fuzz is the seeded random lag of fuzz mode (fuzz.go; nil: not in
	// it), reads the reads of the view counted so far (Read).
	fuzz  *fuzzer
	reads uint64
}

// stamp is a commit's number and time (Unix nanoseconds); in fuzz mode
// at is the time it is shown by, and reads the count of reads (Read) at
// which it is shown.
type stamp struct {
	seq   uint64
	at    int64
	reads uint64
}

// NewGate returns a gate on clock (the emulator's clock; time.Now if nil)
// that lags nothing.
func NewGate(clock func() time.Time) *Gate {
	if clock == nil {
		clock = time.Now
	}
	return &Gate{clock: clock}
}

// Stamp numbers one commit (from 1) and returns its number.
func (g *Gate) Stamp() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.last++
	if g.fuzz != nil {
		g.stamps = append(g.stamps, g.fuzz.draw(g.last, g.clock().UnixNano(), g.reads))
		return g.last
	}
	if g.delay == 0 && !g.held {
		g.visible = g.last
		return g.last
	}
	g.stamps = append(g.stamps, stamp{seq: g.last, at: g.clock().UnixNano()})
	return g.last
}

// Visible returns the highest commit number the view sees now: every
// commit numbered up to it is visible, none after it.
func (g *Gate) Visible() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.advanceLocked()
	return g.visible
}

// advanceLocked shows what the current mode makes visible by now.
func (g *Gate) advanceLocked() {
	switch {
	case g.held:
	case g.fuzz != nil:
		now := g.clock().UnixNano()
		for g.head < len(g.stamps) && (g.stamps[g.head].at <= now || g.reads >= g.stamps[g.head].reads) {
			g.showLocked(g.stamps[g.head].seq)
		}
	case g.delay == 0:
		g.showLocked(g.last)
	default:
		cutoff := g.clock().Add(-g.delay).UnixNano()
		for g.head < len(g.stamps) && g.stamps[g.head].at <= cutoff {
			g.showLocked(g.stamps[g.head].seq)
		}
	}
}

// Last returns the number of the last commit stamped.
func (g *Gate) Last() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.last
}

// SetDelay makes commits visible d after their time (0: at once), and
// ends a Hold. Commits already stamped keep their times: shortening the
// delay shows them sooner.
func (g *Gate) SetDelay(d time.Duration) {
	g.switchMode(func() {
		g.delay, g.held, g.fuzz = max(d, 0), false, nil
		g.advanceLocked()
	})
	g.changed()
}

// Hold stops commits from becoming visible until Release (or SetDelay).
// What is visible when it is called stays visible.
func (g *Gate) Hold() {
	g.switchMode(func() {
		g.advanceLocked()
		g.held, g.fuzz = true, nil
	})
	g.changed()
}

// Release makes every commit stamped so far visible; the gate stays held
// for later commits.
func (g *Gate) Release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.showLocked(g.last)
}

// Pending returns the number of commits stamped but not visible now.
func (g *Gate) Pending() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.advanceLocked()
	return int(g.last - g.visible)
}

// showLocked makes commits up to seq visible and drops their stamps.
func (g *Gate) showLocked(seq uint64) {
	if seq > g.visible {
		g.visible = seq
	}
	for g.head < len(g.stamps) && g.stamps[g.head].seq <= g.visible {
		g.head++
	}
	if g.head == len(g.stamps) {
		g.stamps, g.head = g.stamps[:0], 0
	} else if g.head > 1024 && g.head*2 > len(g.stamps) {
		g.stamps = append(g.stamps[:0], g.stamps[g.head:]...)
		g.head = 0
	}
}
