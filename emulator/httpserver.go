package emulator

import (
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// ServerOptions bound what one connection may hold of a Server. Zero
// fields take the Default values.
type ServerOptions struct {
	// ReadHeaderTimeout bounds reading a request's headers.
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading a whole request, body included: a body
	// that stops arriving is cut off.
	ReadTimeout time.Duration
	// WriteTimeout bounds writing an API call's answer, from when it is
	// ready (not from the request's start: a request slow to serve is
	// still answered): a client that does not read its response is cut
	// off, logged at WARN with the request id. Other requests (admin,
	// console) are bounded from the end of their headers, as net/http
	// does.
	WriteTimeout time.Duration
	// IdleTimeout closes a keep-alive connection idle this long.
	IdleTimeout time.Duration
	// MaxHeaderBytes bounds a request's headers (a larger request gets
	// 431 from net/http).
	MaxHeaderBytes int
	// Loop chooses how connections are read (fastloop.go): LoopOwn (the
	// default, also for "") or LoopStd (net/http alone). An Emulator with
	// Options.Credentials is always served as with LoopStd.
	Loop HTTPLoop
}

// Defaults of ServerOptions: generous enough for a 16 MB request or
// response over loopback or a slow network, short enough that silent
// clients do not pile up.
const (
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultReadTimeout       = 60 * time.Second
	DefaultWriteTimeout      = 60 * time.Second
	DefaultIdleTimeout       = 120 * time.Second
	// DefaultMaxHeaderBytes fits a SigV4-signed request (the headers of
	// an SDK call are under 2 KB) many times over.
	DefaultMaxHeaderBytes = 64 << 10
)

func (o ServerOptions) withDefaults() ServerOptions {
	set := func(d *time.Duration, def time.Duration) {
		if *d == 0 {
			*d = def
		}
	}
	set(&o.ReadHeaderTimeout, DefaultReadHeaderTimeout)
	set(&o.ReadTimeout, DefaultReadTimeout)
	set(&o.WriteTimeout, DefaultWriteTimeout)
	set(&o.IdleTimeout, DefaultIdleTimeout)
	if o.MaxHeaderBytes == 0 {
		o.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	return o
}

// Server is an http.Server for an Emulator with the limits of
// ServerOptions. Serve counts connections and logs every cut-off (a read,
// write or idle deadline passing) at debug level; with the connection loop
// (ServerOptions.Loop, fastloop.go) it accepts connections itself and hands
// to the http.Server those that send anything but API calls. Serve,
// ListenAndServe, Shutdown and Close are Server's own; the other
// http.Server methods (ServeTLS and ListenAndServeTLS) bypass the loop and
// the counts.
type Server struct {
	*http.Server
	loop  *connLoop // nil with LoopStd (fastloop.go)
	log   *slog.Logger
	open  atomic.Int64 // connections open now
	total atomic.Int64 // connections accepted
}

// NewServer returns a Server for e's handler.
func (e *Emulator) NewServer(opts ServerOptions) *Server {
	opts = opts.withDefaults()
	e.writeTimeout.Store(int64(opts.WriteTimeout))
	s := &Server{log: e.log}
	s.Server = &http.Server{
		Handler:           e.Handler(),
		ReadHeaderTimeout: opts.ReadHeaderTimeout,
		ReadTimeout:       opts.ReadTimeout,
		WriteTimeout:      opts.WriteTimeout,
		IdleTimeout:       opts.IdleTimeout,
		MaxHeaderBytes:    opts.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(e.log.Handler(), slog.LevelWarn),
		ConnState: func(c net.Conn, st http.ConnState) {
			switch tc := c.(type) {
			case *trackedConn:
				tc.state.Store(int32(st))
			case *handoffConn:
				tc.state.Store(int32(st))
			}
		},
	}
	// The loop reads a few headers of a request (emulator/internal/httploop); a
	// signature covers any of them, so with Credentials net/http, which
	// keeps them all, serves every request.
	if opts.Loop != LoopStd && e.keys == nil {
		s.loop = newConnLoop(e, opts)
	}
	return s
}

// Serve accepts connections on ln until the server is shut down.
func (s *Server) Serve(ln net.Listener) error {
	if s.loop != nil {
		return s.serveLoop(ln)
	}
	return s.Server.Serve(&trackedListener{Listener: ln, s: s})
}

// ListenAndServe listens on s.Addr (":http" when it is empty) and serves
// the listener as Serve does, the connection loop included; it closes the
// listener when it returns.
func (s *Server) ListenAndServe() error {
	addr := s.Addr
	if addr == "" {
		addr = ":http"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	return s.Serve(ln)
}

// OpenConns is the number of connections open now.
func (s *Server) OpenConns() int64 { return s.open.Load() }

// trackedListener hands out trackedConns.
type trackedListener struct {
	net.Listener
	s *Server
}

func (l *trackedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.s.open.Add(1)
	l.s.total.Add(1)
	return &trackedConn{Conn: c, s: l.s}, nil
}

// trackedConn logs the first deadline that cuts it off and counts itself
// out when closed.
type trackedConn struct {
	net.Conn
	s         *Server
	state     atomic.Int32 // http.ConnState, kept by Server.ConnState
	readBy    atomic.Int64 // read deadline in Unix nanoseconds; 0: none
	readFor   atomic.Int32 // what the read deadline bounds: a phase*
	logged    atomic.Bool
	closeOnce sync.Once
}

func (c *trackedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	// net/http also stops its own background reads with a deadline in the
	// past (1970): that is no cut-off.
	if err != nil && isTimeout(err) && c.readBy.Load() > abortDeadline {
		what := "read timeout"
		switch c.readFor.Load() {
		case phaseIdle:
			what = "idle timeout"
		case phaseHeaders:
			what = "read timeout (request headers)"
		case phaseBody:
			what = "read timeout (request body)"
		}
		c.cutOff(what, err)
	}
	return n, err
}

// setReadDeadline sets the read deadline t ("noDeadline": none) for the
// phase it bounds (the loop's, fastloop.go: it knows the phase).
func (c *trackedConn) setReadDeadline(t time.Time, phase int32) {
	if t.IsZero() {
		c.readBy.Store(0)
	} else {
		c.readBy.Store(t.UnixNano())
	}
	c.readFor.Store(phase)
	_ = c.Conn.SetReadDeadline(t)
}

// setWriteDeadline sets the write deadline (the loop's).
func (c *trackedConn) setWriteDeadline(t time.Time) { _ = c.Conn.SetWriteDeadline(t) }

// noDeadline clears a deadline.
var noDeadline time.Time

// abortDeadline: read deadlines before it (Unix nanoseconds, 2001) are
// net/http interrupting a read, not a timeout.
const abortDeadline = int64(1e18)

func (c *trackedConn) SetDeadline(t time.Time) error {
	c.noteReadDeadline(t)
	return c.Conn.SetDeadline(t)
}

func (c *trackedConn) SetReadDeadline(t time.Time) error {
	c.noteReadDeadline(t)
	return c.Conn.SetReadDeadline(t)
}

// What a read deadline bounds. net/http sets one deadline per phase of a
// connection: IdleTimeout while it waits for a next request,
// ReadHeaderTimeout while it reads the headers, ReadTimeout (from the
// request's start) for the body.
const (
	phaseUnknown int32 = iota
	phaseIdle
	phaseHeaders
	phaseBody
)

func (c *trackedConn) noteReadDeadline(t time.Time) {
	if t.IsZero() {
		c.readBy.Store(0)
		c.readFor.Store(phaseUnknown)
		return
	}
	c.readBy.Store(t.UnixNano())
	c.readFor.Store(c.s.phaseOf(time.Until(t), http.ConnState(c.state.Load())))
}

// phaseOf tells which timeout a deadline d from now is: the nearest of the
// three, and among equal ones (timeouts configured alike) the one the
// connection's state suggests.
func (s *Server) phaseOf(d time.Duration, st http.ConnState) int32 {
	const slack = time.Second
	near := func(v time.Duration) bool { return d <= v && v-d <= slack }
	idle, headers, body := near(s.IdleTimeout), near(s.ReadHeaderTimeout), near(s.ReadTimeout)
	switch {
	case idle && (st == http.StateIdle || !headers && !body):
		return phaseIdle
	case headers && (st != http.StateActive || !body):
		return phaseHeaders
	case body:
		return phaseBody
	}
	return phaseUnknown
}

// CloseWrite half-closes a TCP connection; net/http uses it to let a client
// read an error response before the connection closes.
func (c *trackedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

func (c *trackedConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	if err != nil && isTimeout(err) {
		c.cutOff("write timeout (response not read)", err)
	}
	return n, err
}

func (c *trackedConn) cutOff(what string, err error) {
	if c.logged.CompareAndSwap(false, true) {
		c.s.log.Debug("connection cut off", "reason", what, "remote", c.RemoteAddr().String(), "err", err)
	}
}

func (c *trackedConn) Close() error {
	c.closeOnce.Do(func() { c.s.open.Add(-1) })
	return c.Conn.Close()
}
