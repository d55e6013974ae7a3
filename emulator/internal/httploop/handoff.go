package httploop

import (
	"bufio"
	"time"
)

// The hand-off of a connection from the loop (loop.go) to net/http: at
// the first request that is not eligible, the connection and its read
// buffer go to the net/http Server through an in-memory listener
// (Listener), which the Server serves from the first hand-off on (not
// before: start-up pays nothing). The connection is a HandoffConn, whose
// reads drain the bytes the loop had buffered (that request's head,
// perhaps more) before they read the network again.

// HandoffConn is a connection handed to net/http: br's buffered bytes
// first, then the network. net/http never reads a connection from two
// goroutines at once, so br needs no lock.
type HandoffConn struct {
	*Conn
	br *bufio.Reader // nil once drained (and back in its pool)
}

func (c *HandoffConn) Read(p []byte) (int, error) {
	if c.br != nil {
		if c.br.Buffered() > 0 {
			return c.br.Read(p)
		}
		readers.Put(c.br)
		c.br = nil
	}
	return c.Conn.Read(p)
}

// handOff gives lc to the net/http Server and reports whether it took it
// (not when the loop is stopping: the loop closes the connection).
func (l *Loop) handOff(lc *LoopConn) bool {
	l.stdOnce.Do(func() {
		go func() { _ = l.srv.Serve(l.handoff) }()
	})
	lc.state.Store(loopClosed)
	// net/http sets its own deadlines as it reads; clear the loop's.
	lc.Conn.SetReadDeadlineFor(time.Time{}, PhaseUnknown)
	return l.handoff.Give(&HandoffConn{Conn: lc.Conn, br: lc.BR}, l.done)
}

// StdServing reports whether the net/http Server is serving handed-off
// connections (for tests).
func (l *Loop) StdServing() bool {
	started := true
	l.stdOnce.Do(func() { started = false })
	return started
}
