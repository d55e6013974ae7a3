package emulator

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// connContext is the context of a request the connection loop serves: its
// parent's (the loop's, cancelled by Close), and also cancelled when the
// client goes away while the request is served, as net/http's request
// context is. net/http learns of it from a background read it keeps on
// every request; the loop starts its watch only when something waits on
// Done, which only an injected delay does (service/fx.go), so a request
// that waits on nothing pays for no watch: a reset and an atomic load.
//
// The watch is one goroutine peeking at the connection's read buffer while
// the request's own goroutine is inside the service (the body is read by
// then, so nothing else reads the connection): an error other than the
// watch's own abort (a past deadline, set by finish) means the client
// closed the connection or reset it, and cancels the context. A byte
// arriving (a pipelined next request) ends the watch without cancelling,
// as net/http's does; the byte stays in the buffer for the next request.
//
// One connContext lives in each loopConn and serves its requests one after
// another: reset before a request, finish after the answer is computed and
// before it is written.
//
// Locks: mu is a leaf. Nothing else is locked while it is held (context's
// AfterFunc runs its function on a goroutine of its own), and finish waits
// for the watch without it, so the watch's cancel can take it.
type connContext struct {
	parent  context.Context
	lc      *loopConn
	started atomic.Bool // Done was called during this request

	mu       sync.Mutex    // guards done, err, stopped and stopParent
	done     chan struct{} // made by the first Done; closed by cancel
	err      error         // set by cancel
	stopped  bool          // finish has run: a late cancel is ignored
	watchEnd chan struct{} // closed when the watch goroutine returns
	// stopParent stops the cancellation that follows the parent's.
	stopParent func() bool
}

// abortRead is the read deadline that stops the watch: before
// abortDeadline, so trackedConn does not log it as a cut-off.
var abortRead = time.Unix(1, 0)

// reset readies c for the connection's next request.
func (c *connContext) reset(parent context.Context, lc *loopConn) {
	c.parent, c.lc = parent, lc
	c.started.Store(false)
	c.done, c.err, c.stopped, c.watchEnd, c.stopParent = nil, nil, false, nil, nil
}

func (c *connContext) Deadline() (time.Time, bool) { return c.parent.Deadline() }

func (c *connContext) Value(key any) any { return c.parent.Value(key) }

func (c *connContext) Err() error {
	if !c.started.Load() {
		return c.parent.Err()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return c.err
	}
	return c.parent.Err()
}

// Done returns a channel closed when the parent is done or the client
// goes away; the first call starts the watch.
func (c *connContext) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done != nil {
		return c.done
	}
	c.done = make(chan struct{})
	c.started.Store(true)
	if c.stopped {
		return c.done
	}
	if err := c.parent.Err(); err != nil {
		c.cancelLocked(err)
		return c.done
	}
	c.stopParent = context.AfterFunc(c.parent, func() { c.cancel(c.parent.Err()) })
	// The body's read deadline (ReadTimeout from the head) does not bound
	// the wait for the client to go away.
	c.lc.c.setReadDeadline(noDeadline, phaseUnknown)
	c.watchEnd = make(chan struct{})
	go c.watch(c.watchEnd)
	return c.done
}

// watch peeks at the connection until a byte arrives, the connection
// ends, or finish aborts the read.
func (c *connContext) watch(end chan struct{}) {
	defer close(end)
	if _, err := c.lc.br.Peek(1); err != nil && !isTimeout(err) {
		c.cancel(context.Canceled)
	}
}

func (c *connContext) cancel(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.stopped {
		c.cancelLocked(err)
	}
}

func (c *connContext) cancelLocked(err error) {
	if c.err == nil {
		c.err = err
		close(c.done)
	}
}

// finish ends the request's watch, if Done started one, and waits for it:
// the loop reads the connection again after it.
func (c *connContext) finish() {
	if !c.started.Load() {
		return
	}
	c.mu.Lock()
	c.stopped = true
	end, stopParent := c.watchEnd, c.stopParent
	c.mu.Unlock()
	if stopParent != nil {
		stopParent()
	}
	if end == nil {
		return
	}
	c.lc.c.setReadDeadline(abortRead, phaseUnknown)
	<-end
	// The loop sets the deadline of its next read itself (readHead).
	c.lc.c.setReadDeadline(noDeadline, phaseUnknown)
}
