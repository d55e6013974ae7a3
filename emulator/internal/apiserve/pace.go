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
// the server's read timeout. By t after its first byte was awaited, less
// the time it waited for the budget, a body has received at least
// FloorRate x (t - FloorGrace) bytes; one that falls behind is cut: the
// read waiting for it ends, its bytes go back to the budget, the client
// gets 408 RequestTimeoutException saying how much arrived (where it
// still reads: the connection then closes), and the log a WARN line with
// the client's address, the bytes received and cutBelowFloor.
//
// The floor is an average over the whole body: a client that sent its
// first megabyte fast has banked a minute of pauses; 16 KiB a second is a
// 128 kbit/s link's, far below any network an SDK runs on, and a body
// that slow misses the read timeout anyway once it is a megabyte long.
// FloorGrace covers a body's start (a client's first write, a lost
// packet's retransmission). A body already in memory with its head is
// not paced; nor is any body with the budget off (Options.
// MaxRequestBytesInFlight 0): the read timeout alone bounds it then.
const (
	FloorRate      = 16 << 10        // bytes a second, averaged over the body
	FloorGrace     = 5 * time.Second // before the floor counts
	cutBelowFloor  = "the body arrived slower than %d bytes a second"
	cutReadTimeout = "the server's read timeout passed"
)

// Pace is a floor and its grace, as the constants above say; tests
// shorten them (Budget.SetPace). A Floor of 0 paces nothing.
type Pace struct {
	Floor int64 // bytes a second
	Grace time.Duration
}

// DefaultPace is FloorRate after FloorGrace.
var DefaultPace = Pace{Floor: FloorRate, Grace: FloorGrace}

// deadliner is what a paced body's read is ended through: the
// connection's read deadline (the loop's connection, or net/http's
// through a ResponseController).
type deadliner interface {
	SetReadDeadline(t time.Time) error
}

// pacer keeps one body's pace: a timer wakes when the body would fall
// behind the floor, given the bytes arrived by then, and either waits
// again or cuts it by setting its connection's read deadline in the past
// (httploop.AbortRead, which httploop.Conn does not log as a cut-off of
// its own). The zero pacer paces nothing.
//
// Its state says who ends it: the reader (end) or the timer (cut); the
// first wins, so a body that ends as it is cut is told it was.
type pacer struct {
	pace  Pace
	conn  deadliner
	timer *time.Timer
	start atomic.Int64 // Unix nanoseconds the body's clock started, moved on by its waits for the budget
	read  atomic.Int64 // the body's bytes arrived
	state atomic.Int32 // pacing, paused, ended, cut
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
	p.pace, p.conn = pace, conn
	p.start.Store(time.Now().UnixNano())
	// Armed once set, so that check, which resets it, sees it.
	p.timer = time.AfterFunc(math.MaxInt64, p.check)
	p.timer.Reset(pace.Grace)
}

// arrived notes that the body has received read bytes in all.
func (p *pacer) arrived(read int64) {
	if p.timer != nil {
		p.read.Store(read)
	}
}

// left is how long the body has before it falls behind.
func (p *pacer) left(now int64) time.Duration {
	due := p.start.Load() + int64(p.pace.Grace) + p.read.Load()*int64(time.Second)/p.pace.Floor
	return time.Duration(due - now)
}

// check is the timer's: wait again, or cut the body.
func (p *pacer) check() {
	if p.state.Load() != pacing {
		return // paused: resume sets the timer again
	}
	if d := p.left(time.Now().UnixNano()); d > 0 {
		p.timer.Reset(d)
		return
	}
	if p.state.CompareAndSwap(pacing, cut) {
		_ = p.conn.SetReadDeadline(httploop.AbortRead)
	}
}

// pause stops the body's clock while it waits for the budget (its bytes
// wait in the kernel's buffers meanwhile: the wait is the server's, not
// the client's); resume starts it again, moved on by the wait.
func (p *pacer) pause() time.Time {
	if p.timer == nil {
		return time.Time{}
	}
	p.state.CompareAndSwap(pacing, paused)
	return time.Now()
}

func (p *pacer) resume(since time.Time) {
	if p.timer == nil {
		return
	}
	now := time.Now()
	p.start.Add(int64(now.Sub(since)))
	if p.state.CompareAndSwap(paused, pacing) {
		p.timer.Reset(max(p.left(now.UnixNano()), 0))
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
