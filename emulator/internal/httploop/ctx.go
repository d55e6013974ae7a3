package httploop

import (
	"bufio"
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// ConnContext is the context of a request the connection loop serves: its
// parent's (the loop's, cancelled by the Server's Close), and also
// cancelled when the client goes away while the request is served, as
// net/http's request
// context is. net/http learns of it from a background read it keeps on
// every request; the loop starts its watch only when something waits on
// Done, which only an injected delay does (service/fx.go), so a request
// that waits on nothing pays for no watch: a reset and an atomic load.
//
// The watch is one goroutine peeking at the connection's read buffer while
// the request's own goroutine is inside the service (the body is read by
// then, so nothing else reads the connection): an error other than the
// watch's own abort (a past deadline, set by Finish) means the client
// closed the connection or reset it, and cancels the context. A byte
// arriving (a pipelined next request) ends the watch without cancelling,
// as net/http's does; the byte stays in the buffer for the next request.
//
// One ConnContext lives in each of the loop's connections and serves its
// requests one after another: Reset before a request, Finish after the
// answer is computed and before it is written.
//
// Locks: mu is a leaf. Nothing else is locked while it is held (context's
// AfterFunc runs its function on a goroutine of its own), and Finish waits
// for the watch without it, so the watch's cancel can take it.
type ConnContext struct {
	parent  context.Context
	br      *bufio.Reader // the connection's read buffer, which the watch peeks at
	conn    Deadliner     // the connection, whose read deadline ends the watch
	started atomic.Bool   // Done was called during this request

	mu       sync.Mutex    // guards done, err, stopped and stopParent
	done     chan struct{} // made by the first Done; closed by cancel
	err      error         // set by cancel
	stopped  bool          // Finish has run: a late cancel is ignored
	watchEnd chan struct{} // closed when the watch goroutine returns
	// stopParent stops the cancellation that follows the parent's.
	stopParent func() bool
}

// A Deadliner is the connection a ConnContext watches. It is called only
// when a watch starts and ends, never on a request that waits on nothing.
type Deadliner interface {
	SetReadDeadline(t time.Time) error
}

// AbortRead is the read deadline that stops the watch: in 1970, before
// abortDeadline, so Conn does not log it as a cut-off.
var AbortRead = time.Unix(1, 0)

// Reset readies c for the connection's next request: parent is the loop's
// context, br the connection's read buffer and conn the connection.
func (c *ConnContext) Reset(parent context.Context, br *bufio.Reader, conn Deadliner) {
	c.parent, c.br, c.conn = parent, br, conn
	c.started.Store(false)
	c.done, c.err, c.stopped, c.watchEnd, c.stopParent = nil, nil, false, nil, nil
}

func (c *ConnContext) Deadline() (time.Time, bool) { return c.parent.Deadline() }

func (c *ConnContext) Value(key any) any { return c.parent.Value(key) }

func (c *ConnContext) Err() error {
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

// Parent is the loop's context, which Reset gave: a wait that must not
// end with the client (the body is still to be read) waits on it.
func (c *ConnContext) Parent() context.Context { return c.parent }

// Done returns a channel closed when the parent is done or the client
// goes away; the first call starts the watch.
func (c *ConnContext) Done() <-chan struct{} {
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
	_ = c.conn.SetReadDeadline(time.Time{})
	c.watchEnd = make(chan struct{})
	go c.watch(c.watchEnd)
	return c.done
}

// watch peeks at the connection until a byte arrives, the connection
// ends, or Finish aborts the read.
func (c *ConnContext) watch(end chan struct{}) {
	defer close(end)
	if _, err := c.br.Peek(1); err != nil && !IsTimeout(err) {
		c.cancel(context.Canceled)
	}
}

func (c *ConnContext) cancel(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.stopped {
		c.cancelLocked(err)
	}
}

func (c *ConnContext) cancelLocked(err error) {
	if c.err == nil {
		c.err = err
		close(c.done)
	}
}

// Finish ends the request's watch, if Done started one, and waits for it:
// the loop reads the connection again after it.
func (c *ConnContext) Finish() {
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
	_ = c.conn.SetReadDeadline(AbortRead)
	<-end
	// The loop sets the deadline of its next read itself.
	_ = c.conn.SetReadDeadline(time.Time{})
}
