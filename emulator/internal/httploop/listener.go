package httploop

import (
	"net"
	"sync"
)

// Listener is the net/http Server's listener for the connections the loop
// hands over: at the first request that is not eligible, the loop gives
// the connection (with the bytes it had buffered) to net/http through it,
// and net/http serves that connection from then on. Its zero value is not
// usable; make one with NewListener.
type Listener struct {
	ch        chan net.Conn
	closed    chan struct{}
	closeOnce sync.Once
}

// NewListener returns a Listener with nothing handed over yet.
func NewListener() *Listener {
	return &Listener{ch: make(chan net.Conn), closed: make(chan struct{})}
}

// Give hands c to the goroutine in Accept and reports whether it took it;
// it gives up when stop is closed first (the server is stopping: the
// caller closes c).
func (l *Listener) Give(c net.Conn, stop <-chan struct{}) bool {
	select {
	case l.ch <- c:
		return true
	case <-stop:
		return false
	}
}

// Accept returns the next connection given, or net.ErrClosed once the
// listener is closed.
func (l *Listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ch:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

// Close ends Accept; it may be called more than once.
func (l *Listener) Close() error {
	l.closeOnce.Do(func() { close(l.closed) })
	return nil
}

// Addr is the listener's address, which names no network endpoint.
func (l *Listener) Addr() net.Addr { return handoffAddr{} }

// handoffAddr is the hand-off listener's address.
type handoffAddr struct{}

func (handoffAddr) Network() string { return "dynamoemu-loop" }
func (handoffAddr) String() string  { return "hand-off" }
