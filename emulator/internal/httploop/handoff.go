package emulator

import (
	"bufio"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/httploop"
)

// The hand-off of a connection from the loop (fastloop.go) to net/http: at
// the first request that is not eligible, the connection and its read
// buffer go to the net/http Server through an in-memory listener
// (httploop.Listener), which the Server serves from the first hand-off on
// (not before: start-up pays nothing). The connection is a handoffConn, whose reads drain the bytes
// the loop had buffered (that request's head, perhaps more) before they
// read the network again.

// handoffConn is a connection handed to net/http: br's buffered bytes
// first, then the network. net/http never reads a connection from two
// goroutines at once, so br needs no lock.
type handoffConn struct {
	*httploop.Conn
	br *bufio.Reader // nil once drained (and back in its pool)
}

func (c *handoffConn) Read(p []byte) (int, error) {
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
// (not when the server is stopping: the loop closes the connection).
func (l *connLoop) handOff(s *Server, lc *loopConn) bool {
	l.stdOnce.Do(func() {
		go func() { _ = s.Server.Serve(l.handoff) }()
	})
	lc.state.Store(loopClosed)
	// net/http sets its own deadlines as it reads; clear the loop's.
	lc.c.SetReadDeadlineFor(time.Time{}, httploop.PhaseUnknown)
	return l.handoff.Give(&handoffConn{Conn: lc.c, br: lc.br}, l.done)
}

// stdServing reports whether the net/http Server is serving handed-off
// connections (for tests).
func (l *connLoop) stdServing() bool {
	started := true
	l.stdOnce.Do(func() { started = false })
	return started
}
