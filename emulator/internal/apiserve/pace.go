package apiserve

import (
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/httploop"
)

// The floor of a request body's pace: what a client must keep up while
// its body arrives, so that a client that announces a body and sends
// nothing (or a trickle) cannot keep the budget's bytes (budget.go) until
// the server's read timeout. After FloorGrace from its first byte being
// awaited, a body receives at least FloorRate bytes a second over each
// window of FloorWindow (a window starts again after each wait for the
// budget: the wait is the server's); one that falls behind is cut: the
// read waiting for it ends, its bytes go back to the budget, the client
// gets 408 RequestTimeoutException saying how much arrived (where it
// still reads: the connection then closes), and the log a WARN line with
// the client's address, the bytes received and cutBelowFloor.
//
// The floor is measured over a window, not the whole body: a client that
// sent its first megabyte fast banks no pauses for later (averaged over
// the body, such a client could then stall for a minute). 16 KiB a
// second is a 128 kbit/s link's, far below any network an SDK runs on;
// a window of 10 s lets an honest client on a loaded machine miss its
// turn for two seconds in ten at 20 KB/s and still not be cut.
// FloorGrace covers a body's start (a client's first write, a lost
// packet's retransmission). A body already in memory with its head is
// not paced; nor is any body with the budget off (Options.
// MaxRequestBytesInFlight 0): the read timeout alone bounds it then.
// What a client that keeps above the floor can hold is bounded by its
// share of the budget (budget.go), not by the floor.
const (
	FloorRate      = 16 << 10         // bytes a second, over each window
	FloorGrace     = 5 * time.Second  // before the floor counts
	FloorWindow    = 10 * time.Second // what the rate is measured over
	cutBelowFloor  = "the body arrived slower than %d bytes a second"
	cutReadTimeout = "the server's read timeout passed"
)

// Pace is a floor and its grace, as the constants above say; tests
// shorten them (Budget.SetPace). A Floor of 0 paces nothing.
type Pace struct {
	Floor  int64 // bytes a second
	Grace  time.Duration
	Window time.Duration // 0: the grace's
}

// DefaultPace is FloorRate over FloorWindow after FloorGrace.
var DefaultPace = Pace{Floor: FloorRate, Grace: FloorGrace, Window: FloorWindow}

// deadliner is what a paced body's read is ended through: the
// connection's read deadline (the loop's connection, or net/http's
// through a ResponseController).
type deadliner interface {
	SetReadDeadline(t time.Time) error
}

// pacer keeps one body's pace: a timer wakes at the end of each window
// and either starts the next (the body received the floor's bytes over
// it) or cuts it by setting its connection's read deadline in the past
// (httploop.AbortRead, which httploop.Conn does not log as a cut-off of
// its own). The zero pacer paces nothing.
//
// Its state says who ends it: the reader (end) or the timer (cut); the
// first wins, so a body that ends as it is cut is told it was.
type pacer struct {
	pace  Pace
	conn  deadliner
	timer *time.Timer
	mark  atomic.Int64 // Unix nanoseconds the window started (moved on by each pause's length)
	since atomic.Int64 // Unix nanoseconds the pause began
	at    atomic.Int64 // the body's bytes arrived when it started
	read  atomic.Int64 // the body's bytes arrived
	state atomic.Int32 // pacing, paused, ended, cut
	// onCut, when set, is closed once when the body is cut (signalled
	// says by whom): a wait for its client's share ends with it.
	onCut     atomic.Pointer[chan struct{}]
	signalled atomic.Bool
}

// The pacer's states.
const (
	pacing int32 = iota
	paused       // waiting for the budget: the body's clock stops
	ended        // read, or refused: nothing more to pace
	cut          // fell behind: its read was ended
)

// begin starts pacing a body whose read conn's deadline ends.
func (p *pacer) begin(pace Pace, conn deadliner) {
	if pace.Floor <= 0 || conn == nil { // nothing to pace, or nothing to cut
		return
	}
	if pace.Window <= 0 {
		pace.Window = pace.Grace
	}
	p.pace, p.conn = pace, conn
	// The first window starts once the grace is over, the bytes of the
	// grace counted in it. The body's clock runs only while it is read:
	// it starts paused, and each read resumes it (bodyReader.readRaw).
	now := time.Now()
	p.mark.Store(now.Add(pace.Grace).UnixNano())
	p.since.Store(now.UnixNano())
	p.state.Store(paused)
	// Set before it is armed (by resume), so that check, which resets
	// it, sees it.
	p.timer = time.AfterFunc(math.MaxInt64, p.check)
}

// arrived notes that the body has received read bytes in all.
func (p *pacer) arrived(read int64) {
	if p.timer != nil {
		p.read.Store(read)
	}
}

// check is the timer's: start the next window, or cut the body.
func (p *pacer) check() {
	if p.state.Load() != pacing {
		return // paused: resume sets the timer again
	}
	now := time.Now().UnixNano()
	elapsed := now - p.mark.Load()
	if left := int64(p.pace.Window) - elapsed; left > 0 { // a window restarted by a wait
		p.timer.Reset(time.Duration(left))
		return
	}
	read := p.read.Load()
	if (read-p.at.Load())*int64(time.Second) >= p.pace.Floor*elapsed {
		p.mark.Store(now)
		p.at.Store(read)
		p.timer.Reset(p.pace.Window)
		return
	}
	if p.state.CompareAndSwap(pacing, cut) {
		_ = p.conn.SetReadDeadline(httploop.AbortRead)
		if ch := p.onCut.Load(); ch != nil && p.signalled.CompareAndSwap(false, true) {
			close(*ch)
		}
	}
}

// cutSignal is a channel closed when the body is cut; nil (never
// closed) for a body not paced. Made only for a body that waits for its
// client's share.
func (p *pacer) cutSignal() <-chan struct{} {
	if p == nil || p.timer == nil {
		return nil
	}
	ch := make(chan struct{})
	p.onCut.Store(&ch)
	if p.state.Load() == cut && p.signalled.CompareAndSwap(false, true) {
		close(ch)
	}
	return ch
}

// pause stops the body's clock between its reads: the time the server
// spends on the body meanwhile (decoding, inflating, waiting for the
// budget, its bytes waiting in the kernel's buffers) is the server's,
// not the client's. resume starts it again, the window moved on by the
// pause's length.
func (p *pacer) pause() {
	if p.timer != nil && p.state.Load() == pacing {
		p.since.Store(time.Now().UnixNano())
		p.state.CompareAndSwap(pacing, paused)
	}
}

func (p *pacer) resume() {
	if p.timer == nil || p.state.Load() != paused {
		return
	}
	now := time.Now().UnixNano()
	end := p.mark.Add(now-p.since.Load()) + int64(p.pace.Window)
	if p.state.CompareAndSwap(paused, pacing) {
		p.timer.Reset(time.Duration(end - now))
	}
}

// end stops pacing and reports whether the body was cut.
func (p *pacer) end() (wasCut bool) {
	if p.timer == nil {
		return false
	}
	if p.state.Swap(ended) == cut {
		return true
	}
	p.timer.Stop()
	return false
}

// bodyCut is a body that did not arrive in time: the read timeout passed,
// or it fell below the floor. It is answered with 408
// RequestTimeoutException, and its connection closed (Serve).
type bodyCut struct {
	read   int64 // its bytes that arrived
	size   int64 // its announced size; -1: unknown
	reason string
	err    error // the read's
}

func (c *bodyCut) Error() string {
	if c.size < 0 {
		return fmt.Sprintf("The request body did not arrive in time: %s; %d bytes were received.", c.reason, c.read)
	}
	return fmt.Sprintf("The request body did not arrive in time: %s; %d of its %d bytes were received.", c.reason, c.read, c.size)
}

func (c *bodyCut) Unwrap() error { return c.err }
