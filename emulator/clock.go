package emulator

import (
	"sync/atomic"
	"time"
)

// The emulator's clock, which tests control. Every time the emulator uses
// (request timestamps, TTL expiry, stream record times and retention,
// iterator expiry, transient table states) is read from one function:
// Options.Clock (time.Now by default) plus an offset that Advance and
// SetNow move, from Go (the Emulator methods) or over HTTP (the admin
// endpoint, admin.go). So a test proves TTL or stream trimming logic by
// moving the clock, not by sleeping.

// clockSkew is the offset added to the base clock.
type clockSkew struct {
	base   func() time.Time
	offset atomic.Int64 // nanoseconds added to base
}

// now is the emulator's current time.
func (k *clockSkew) now() time.Time {
	t := k.base()
	if d := k.offset.Load(); d != 0 {
		t = t.Add(time.Duration(d))
	}
	return t
}

// Now returns the emulator's current time: Options.Clock (or time.Now)
// moved by every Advance and SetNow so far.
func (e *Emulator) Now() time.Time { return e.clock() }

// Advance moves the emulator's clock forward by d (backward if d is
// negative) and returns the new time.
func (e *Emulator) Advance(d time.Duration) time.Time {
	e.skew.offset.Add(int64(d))
	return e.clockMoved()
}

// SetNow makes the emulator's current time t; the clock goes on from
// there at the base clock's pace.
func (e *Emulator) SetNow(t time.Time) time.Time {
	e.skew.offset.Store(int64(t.Sub(e.skew.base())))
	return e.clockMoved()
}

// clockMoved returns the new time after Advance or SetNow, having done
// what the move makes due: ClientRequestTokens whose window it ends are
// forgotten now, not at the next request (idempotency.go).
func (e *Emulator) clockMoved() time.Time {
	now := e.clock()
	e.tokens.expire(now)
	return now
}
