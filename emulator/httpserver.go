package emulator

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apiserve"
	"github.com/dynamoemu/dynamoemu/emulator/internal/httploop"
)

// ServerOptions bound what one connection may hold of a Server. Zero
// fields take the defaults (WithDefaults): ReadHeaderTimeout 10s,
// ReadTimeout and WriteTimeout 60s, IdleTimeout 120s, MaxHeaderBytes 64
// KiB.
type ServerOptions struct {
	// ReadHeaderTimeout bounds reading a request's headers.
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading a whole request, body included: a body
	// that stops arriving is cut off, answered 408
	// RequestTimeoutException (where the client still reads) and logged
	// at WARN with the client's address and the bytes received.
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
	// Loop chooses how connections are read (internal/httploop): LoopOwn (the
	// default, also for "") or LoopStd (net/http alone). An Emulator with
	// Options.Credentials is always served as with LoopStd.
	Loop HTTPLoop
}

// The defaults of ServerOptions: generous enough for a 16 MB request or
// response over loopback or a slow network, short enough that silent
// clients do not pile up.
const (
	defaultReadHeaderTimeout = 10 * time.Second
	defaultReadTimeout       = 60 * time.Second
	defaultWriteTimeout      = 60 * time.Second
	defaultIdleTimeout       = 120 * time.Second
	// defaultMaxHeaderBytes fits a SigV4-signed request (the headers of
	// an SDK call are under 2 KB) many times over.
	defaultMaxHeaderBytes = 64 << 10
)

// WithDefaults returns o with its zero fields set to the defaults, as
// NewServer serves it.
func (o ServerOptions) WithDefaults() ServerOptions {
	set := func(d *time.Duration, def time.Duration) {
		if *d == 0 {
			*d = def
		}
	}
	set(&o.ReadHeaderTimeout, defaultReadHeaderTimeout)
	set(&o.ReadTimeout, defaultReadTimeout)
	set(&o.WriteTimeout, defaultWriteTimeout)
	set(&o.IdleTimeout, defaultIdleTimeout)
	if o.MaxHeaderBytes == 0 {
		o.MaxHeaderBytes = defaultMaxHeaderBytes
	}
	return o
}

// HTTPLoop chooses how a Server reads its connections.
type HTTPLoop string

const (
	// LoopOwn serves API calls with the emulator's own connection loop,
	// handing any other request's connection to net/http (the default).
	LoopOwn HTTPLoop = "own"
	// LoopStd serves every request with net/http.
	LoopStd HTTPLoop = "std"
)

// Server is an http.Server for an Emulator with the limits of
// ServerOptions. Serve counts connections and logs every cut-off (a read,
// write or idle deadline passing) at debug level; with the connection loop
// (ServerOptions.Loop, internal/httploop) it accepts connections itself and hands
// to the http.Server those that send anything but API calls. Serve,
// ListenAndServe, Shutdown and Close are Server's own; the other
// http.Server methods (ServeTLS and ListenAndServeTLS) bypass the loop and
// the counts.
type Server struct {
	*http.Server
	loop  *httploop.Loop // nil with LoopStd
	log   *slog.Logger
	conns *httploop.Conns // counts the connections, logs their cut-offs
}

// NewServer returns a Server for e's handler.
func (e *Emulator) NewServer(opts ServerOptions) *Server {
	opts = opts.WithDefaults()
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
			case *httploop.Conn:
				tc.SetState(st)
			case *httploop.HandoffConn:
				tc.SetState(st)
			}
		},
	}
	s.conns = httploop.NewConns(e.log, s.Server)
	// The loop reads a few headers of a request (emulator/internal/httploop); a
	// signature covers any of them, so with Credentials net/http, which
	// keeps them all, serves every request.
	if opts.Loop != LoopStd && e.keys == nil {
		s.loop = httploop.NewLoop(&apiserve.LoopHandler{S: &e.serve, WriteTimeout: opts.WriteTimeout, Version: versionHeader()[0]}, s.Server, s.conns, e.log, httploop.Options{
			ReadHeaderTimeout: opts.ReadHeaderTimeout, ReadTimeout: opts.ReadTimeout, IdleTimeout: opts.IdleTimeout,
			MaxHeaderBytes: opts.MaxHeaderBytes, MaxBody: e.maxBody, Hosts: e.hosts,
		})
	}
	return s
}

// Serve accepts connections on ln until the server is shut down.
func (s *Server) Serve(ln net.Listener) error {
	if s.loop != nil {
		return s.loop.Serve(ln)
	}
	return s.Server.Serve(s.conns.Listener(ln))
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

// Shutdown stops the server gracefully: no more connections accepted, the
// idle ones closed at once, the active ones closed when their answer is
// written; net/http's connections likewise. It returns when all are
// closed, or ctx's error when ctx ends first.
func (s *Server) Shutdown(ctx context.Context) error {
	if s.loop == nil {
		return s.Server.Shutdown(ctx)
	}
	return s.loop.Shutdown(ctx)
}

// Close closes the server at once: its listeners and every connection.
func (s *Server) Close() error {
	if s.loop == nil {
		return s.Server.Close()
	}
	return s.loop.Close()
}

// OpenConns is the number of connections open now.
func (s *Server) OpenConns() int64 { return s.conns.Open() }
