package emulator

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// The emulator's clock, which tests control. Every time the emulator uses
// (request timestamps, TTL expiry, stream record times and retention,
// iterator expiry, transient table states) is read from one function:
// Options.Clock (time.Now by default) plus an offset that Advance and
// SetNow move, from Go (Clock) or over HTTP (the admin
// endpoint, admin.go). So a test proves TTL or stream trimming logic by
// moving the clock, not by sleeping.

// clockSkew is the offset added to the base clock.
type clockSkew struct {
	base   func() time.Time
	offset atomic.Int64 // nanoseconds added to base
	saveMu sync.Mutex   // serializes saving offset (clock_persist.go)
}

// now is the emulator's current time.
func (k *clockSkew) now() time.Time {
	t := k.base()
	if d := k.offset.Load(); d != 0 {
		t = t.Add(time.Duration(d))
	}
	return t
}

// Clock is the emulator's clock, which a test moves instead of
// sleeping: Now reads it, Advance and SetNow move it, and SweepTTL and
// RunTTLSweeper delete the items that have expired on it. The zero Clock
// is not usable: Emulator.Clock returns one.
type Clock struct{ e *Emulator }

// Clock returns the emulator's clock.
func (e *Emulator) Clock() Clock { return Clock{e} }

// Now returns the emulator's current time: Options.Clock (or time.Now)
// moved by every Advance and SetNow so far.
func (c Clock) Now() time.Time { return c.e.clock() }

// ErrClockRange: Advance or SetNow would put the emulator's clock further
// from the base clock than its offset, a time.Duration, can hold (about
// 292 years either way). The clock is left as it was.
var ErrClockRange = errors.New("emulator: clock out of range")

// Advance moves the emulator's clock forward by d (backward if d is
// negative) and returns the new time. Moving it more than about 292 years
// from the base clock in all is ErrClockRange, and the clock stays put.
func (c Clock) Advance(d time.Duration) (time.Time, error) {
	e := c.e
	for {
		old := e.skew.offset.Load()
		next := old + int64(d)
		if d > 0 && next < old || d < 0 && next > old {
			return e.clock(), fmt.Errorf("%w: advancing it by %v would put it more than about 292 years (%v) from the base clock (Options.Clock, or the real time), the most its offset (a time.Duration) holds",
				ErrClockRange, d, maxClockOffset)
		}
		if e.skew.offset.CompareAndSwap(old, next) {
			return e.clockMoved(), nil
		}
	}
}

// SetNow makes the emulator's current time t and returns it; the clock
// goes on from there at the base clock's pace. A t more than about 292
// years from the base clock's time is ErrClockRange, and the clock stays
// put.
func (c Clock) SetNow(t time.Time) (time.Time, error) {
	e := c.e
	base := e.skew.base()
	d := t.Sub(base) // saturates at the limits of time.Duration
	if !base.Add(d).Equal(t) {
		return e.clock(), fmt.Errorf("%w: %s is more than about 292 years (%v) from the base clock (Options.Clock, or the real time), the most its offset (a time.Duration) holds",
			ErrClockRange, t.UTC().Format(time.RFC3339Nano), maxClockOffset)
	}
	e.skew.offset.Store(int64(d))
	return e.clockMoved(), nil
}

// clockMoved returns the new time after Advance or SetNow, having done
// what the move makes due: ClientRequestTokens whose window it ends are
// forgotten now, not at the next request (the service's idempotency.go).
func (e *Emulator) clockMoved() time.Time {
	e.saveClock() // with a data directory (clock_persist.go)
	now := e.clock()
	e.svc.ClockMoved(now)
	return now
}

// maxClockOffset is the largest offset, for messages: 2562047h47m16.854775807s.
const maxClockOffset = time.Duration(math.MaxInt64)
