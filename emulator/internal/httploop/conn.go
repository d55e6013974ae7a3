package httploop

import (
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Conns counts a server's connections and logs, at debug level, the
// first deadline that cuts each off (a read, write or idle deadline
// passing). Both of the emulator's paths use it: the connection loop sets
// its read deadlines with the phase they bound (SetReadDeadlineFor), and
// for net/http, which sets them with SetReadDeadline, the phase is told
// from the deadline and the Server's timeouts.
type Conns struct {
	log   *slog.Logger
	srv   *http.Server // its timeouts tell the phase of net/http's deadlines
	open  atomic.Int64 // connections open now
	total atomic.Int64 // connections accepted
}

// NewConns returns the counts of srv's connections, logging to log.
func NewConns(log *slog.Logger, srv *http.Server) *Conns {
	return &Conns{log: log, srv: srv}
}

// Open is the number of connections open now.
func (s *Conns) Open() int64 { return s.open.Load() }

// Track counts c in and returns it as a Conn.
func (s *Conns) Track(c net.Conn) *Conn {
	s.open.Add(1)
	s.total.Add(1)
	return &Conn{Conn: c, s: s}
}

// Listener returns ln handing out Conns.
func (s *Conns) Listener(ln net.Listener) net.Listener {
	return &trackedListener{Listener: ln, s: s}
}

// trackedListener hands out Conns.
type trackedListener struct {
	net.Listener
	s *Conns
}

func (l *trackedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return l.s.Track(c), nil
}

// Conn logs the first deadline that cuts it off and counts itself out
// when closed.
type Conn struct {
	net.Conn
	s         *Conns
	state     atomic.Int32 // http.ConnState, kept by Server.ConnState
	readBy    atomic.Int64 // read deadline in Unix nanoseconds; 0: none
	readFor   atomic.Int32 // what the read deadline bounds: a phase*
	logged    atomic.Bool
	closeOnce sync.Once
}

func (c *Conn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	// net/http also stops its own background reads with a deadline in the
	// past (1970): that is no cut-off.
	if err != nil && IsTimeout(err) && c.readBy.Load() > abortDeadline {
		what := "read timeout"
		switch Phase(c.readFor.Load()) {
		case PhaseIdle:
			what = "idle timeout"
		case PhaseHeaders:
			what = "read timeout (request headers)"
		case PhaseBody:
			what = "read timeout (request body)"
		}
		c.cutOff(what, err)
	}
	return n, err
}

// SetReadDeadlineFor sets the read deadline t (zero: none) for the phase
// it bounds (the loop's: it knows the phase).
func (c *Conn) SetReadDeadlineFor(t time.Time, phase Phase) {
	if t.IsZero() {
		c.readBy.Store(0)
	} else {
		c.readBy.Store(t.UnixNano())
	}
	c.readFor.Store(int32(phase))
	_ = c.Conn.SetReadDeadline(t)
}

// SetWriteDeadlineFor sets the write deadline (the loop's).
func (c *Conn) SetWriteDeadlineFor(t time.Time) { _ = c.Conn.SetWriteDeadline(t) }

// SetState notes the connection's state, from the http.Server's ConnState.
func (c *Conn) SetState(st http.ConnState) { c.state.Store(int32(st)) }

// abortDeadline: read deadlines before it (Unix nanoseconds, 2001) are
// net/http interrupting a read, not a timeout.
const abortDeadline = int64(1e18)

func (c *Conn) SetDeadline(t time.Time) error {
	c.noteReadDeadline(t)
	return c.Conn.SetDeadline(t)
}

func (c *Conn) SetReadDeadline(t time.Time) error {
	c.noteReadDeadline(t)
	return c.Conn.SetReadDeadline(t)
}

// Phase is what a read deadline bounds. net/http sets one deadline per
// phase of a connection: IdleTimeout while it waits for a next request,
// ReadHeaderTimeout while it reads the headers, ReadTimeout (from the
// request's start) for the body.
type Phase int32

// The phases.
const (
	PhaseUnknown Phase = iota
	PhaseIdle
	PhaseHeaders
	PhaseBody
)

func (c *Conn) noteReadDeadline(t time.Time) {
	if t.IsZero() {
		c.readBy.Store(0)
		c.readFor.Store(int32(PhaseUnknown))
		return
	}
	c.readBy.Store(t.UnixNano())
	c.readFor.Store(int32(c.s.phaseOf(time.Until(t), http.ConnState(c.state.Load()))))
}

// phaseOf tells which timeout a deadline d from now is: the nearest of the
// three, and among equal ones (timeouts configured alike) the one the
// connection's state suggests.
func (s *Conns) phaseOf(d time.Duration, st http.ConnState) Phase {
	const slack = time.Second
	near := func(v time.Duration) bool { return d <= v && v-d <= slack }
	idle, headers, body := near(s.srv.IdleTimeout), near(s.srv.ReadHeaderTimeout), near(s.srv.ReadTimeout)
	switch {
	case idle && (st == http.StateIdle || !headers && !body):
		return PhaseIdle
	case headers && (st != http.StateActive || !body):
		return PhaseHeaders
	case body:
		return PhaseBody
	}
	return PhaseUnknown
}

// CloseWrite half-closes a TCP connection; net/http uses it to let a client
// read an error response before the connection closes.
func (c *Conn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// Linger half-closes the connection, then reads away what its client
// still sends, for at most d and lingerBytes, and returns when the client
// closes its side or either runs out: closing a connection with bytes
// unread resets it, and a reset can reach a client before it has read the
// answer written just before (net/http's closeWriteAndWait waits 500 ms
// for the same reason). Its reads are not logged as cut-offs.
func (c *Conn) Linger(d time.Duration) {
	if c.CloseWrite() != nil {
		return
	}
	_ = c.Conn.SetReadDeadline(time.Now().Add(d))
	_, _ = io.CopyN(io.Discard, c.Conn, lingerBytes)
}

// lingerBytes is the most Linger reads away.
const lingerBytes = 4 << 20

func (c *Conn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	if err != nil && IsTimeout(err) {
		c.cutOff("write timeout (response not read)", err)
	}
	return n, err
}

func (c *Conn) cutOff(what string, err error) {
	if c.logged.CompareAndSwap(false, true) {
		c.s.log.Debug("connection cut off", "reason", what, "remote", c.RemoteAddr().String(), "err", err)
	}
}

func (c *Conn) Close() error {
	c.closeOnce.Do(func() { c.s.open.Add(-1) })
	return c.Conn.Close()
}

// WriteBuffers writes bufs in one writev when the connection is TCP
// (net.Buffers does that only for the net package's own connections, not
// for Conn), else one Write per buffer; a write deadline that cuts it off
// is logged as Write's is.
func (c *Conn) WriteBuffers(bufs net.Buffers) error {
	var w io.Writer = c
	if tc, ok := c.Conn.(*net.TCPConn); ok {
		w = tc
	}
	_, err := bufs.WriteTo(w)
	if err != nil && IsTimeout(err) {
		c.cutOff("write timeout (response not read)", err)
	}
	return err
}

// IsTimeout reports whether err is a deadline passing on the connection.
func IsTimeout(err error) bool {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
