package emulator

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/httpedge"
	"github.com/dynamoemu/dynamoemu/emulator/internal/httploop"
)

// The data-plane connection loop: Server.Serve accepts the
// connections itself and serves each with one goroutine that reads request
// heads into an httploop.Head (emulator/internal/httploop), serves the eligible ones
// with the same answerAPI as net/http's path (server.go) and writes the
// answer with one flush (fastloop_write.go). The first request that is not
// eligible hands the connection, its unread bytes included, to the
// net/http Server (fastloop_handoff.go), which serves it from then on: the
// admin API, the console, CORS, GET /, chunked bodies and Expect keep
// net/http's behaviour. What net/http costs per request and the loop does
// not: a background read goroutine aborted by a past deadline, an
// http.Request, a header map, a context, a response writer. The request's
// context still ends when its client goes away, watched only while
// something waits on it (httploop.ConnContext).
//
// The loop keeps net/http's limits: the read deadline of an idle
// connection is IdleTimeout, of a head ReadHeaderTimeout, of a body
// ReadTimeout from the head's first byte; the write deadline is
// WriteTimeout from the answer being ready (net/http counts from the end
// of the head, which cut off requests slow to serve under load); each
// cut-off is logged by httploop.Conn as before, and a cut answer at WARN
// with its request id. A head larger than MaxHeaderBytes, or one that
// does not fit the read buffer, goes to net/http (431 for the former).

// HTTPLoop chooses how a Server reads its connections.
type HTTPLoop string

const (
	// LoopOwn serves API calls with the emulator's own connection loop,
	// handing any other request's connection to net/http (the default).
	LoopOwn HTTPLoop = "own"
	// LoopStd serves every request with net/http.
	LoopStd HTTPLoop = "std"
)

// readBufferSize is the loop's read buffer: a head must fit in it (an SDK
// call's head is under 2 KB; a larger one goes to net/http).
const readBufferSize = 8 << 10

// writeBufferSize is the most of an answer (head and body) the loop copies
// into its answer buffer to send in one write; a larger one goes out as a
// writev of the head and the body (fastloop_write.go).
const writeBufferSize = 4 << 10

// maxDiscardBytes is the most of an unread request body the loop reads
// away to keep a connection (net/http's limit is the same, 256 KB).
const maxDiscardBytes = 256 << 10

// connLoop is a Server's loop state.
type connLoop struct {
	e        *Emulator
	opts     ServerOptions
	ctx      context.Context // the service's request context; cancelled by Close
	cancel   context.CancelFunc
	handoff  *httploop.Listener
	stdOnce  sync.Once     // starts the net/http Server on the hand-off listener
	stopping atomic.Bool   // set (under mu) by stop
	done     chan struct{} // closed when stopping is set
	once     sync.Once     // runs stop's first part once

	mu    sync.Mutex                // guards conns and lns
	conns map[*loopConn]struct{}    // connections the loop serves now
	lns   map[net.Listener]struct{} // listeners being served
}

func newConnLoop(e *Emulator, opts ServerOptions) *connLoop {
	ctx, cancel := context.WithCancel(context.Background())
	l := &connLoop{e: e, opts: opts, ctx: ctx, cancel: cancel,
		conns: map[*loopConn]struct{}{}, lns: map[net.Listener]struct{}{}, done: make(chan struct{})}
	l.handoff = httploop.NewListener()
	return l
}

// Connection states of the loop, for Shutdown.
const (
	loopNew    int32 = iota // accepted, no request read yet
	loopIdle                // between requests
	loopActive              // serving a request
	loopClosed              // closed by Shutdown, or handed off
)

// loopConn is one connection the loop serves.
type loopConn struct {
	c      *httploop.Conn
	br     *bufio.Reader
	out    *[]byte // the answer being written: its head, and a small body (fastloop_write.go)
	state  atomic.Int32
	since  int64 // Unix seconds of the accept, for Shutdown's treatment of new connections
	public bool  // the connection arrived at a non-loopback address (internal/httpedge/hosts.go)
	head   httploop.Head
	body   httploop.Body
	ctx    httploop.ConnContext // the request's context
}

// serveLoop is Serve with the loop: accept until the server stops.
func (s *Server) serveLoop(ln net.Listener) error {
	l := s.loop
	if !l.track(ln) {
		return http.ErrServerClosed
	}
	defer l.untrack(ln)
	var delay time.Duration
	for {
		c, err := ln.Accept()
		if err != nil {
			if l.stopping.Load() {
				return http.ErrServerClosed
			}
			if retryableAccept(err) {
				delay = min(max(2*delay, 5*time.Millisecond), time.Second)
				s.log.Warn("accept failed; retrying", "err", err, "delay", delay)
				time.Sleep(delay)
				continue
			}
			return err
		}
		delay = 0
		lc := &loopConn{c: s.conns.Track(c), since: time.Now().Unix(), public: httpedge.ArrivedAtPublic(c.LocalAddr())}
		if !l.add(lc) {
			_ = lc.c.Close()
			return http.ErrServerClosed
		}
		go s.serveConn(lc)
	}
}

// retryableAccept reports whether err is one of the accept errors net/http
// retries (too many open files and the like).
func retryableAccept(err error) bool {
	var te interface{ Temporary() bool }
	return errors.As(err, &te) && te.Temporary()
}

func (l *connLoop) track(ln net.Listener) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stopping.Load() {
		return false
	}
	l.lns[ln] = struct{}{}
	return true
}

func (l *connLoop) untrack(ln net.Listener) {
	l.mu.Lock()
	delete(l.lns, ln)
	l.mu.Unlock()
}

func (l *connLoop) add(lc *loopConn) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stopping.Load() {
		return false
	}
	l.conns[lc] = struct{}{}
	return true
}

func (l *connLoop) remove(lc *loopConn) {
	l.mu.Lock()
	delete(l.conns, lc)
	l.mu.Unlock()
}

// serveConn serves one connection until it closes or is handed off.
func (s *Server) serveConn(lc *loopConn) {
	l := s.loop
	lc.br = readers.Get() // pools.go
	lc.br.Reset(lc.c)
	lc.out = answerBufs.Get()
	handedOff := false
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic serving a connection", "remote", lc.c.RemoteAddr().String(), "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
		l.remove(lc)
		answerBufs.Put(lc.out)
		if !handedOff {
			readers.Put(lc.br)
			_ = lc.c.Close()
		}
	}()
	first := true
	for {
		eligible, err := s.readHead(lc, first)
		first = false
		if err != nil {
			return
		}
		if !eligible {
			handedOff = l.handOff(s, lc)
			return
		}
		if !lc.state.CompareAndSwap(loopIdle, loopActive) && !lc.state.CompareAndSwap(loopNew, loopActive) {
			return // Shutdown closed it
		}
		keep := s.serveRequest(lc)
		if !keep || !lc.state.CompareAndSwap(loopActive, loopIdle) || l.stopping.Load() {
			return
		}
	}
}

// readHead waits for the next request's head and parses it, with the
// deadlines net/http would set: IdleTimeout until its first byte (but for
// the connection's first request), then ReadHeaderTimeout from then. It
// reports whether the request is eligible; the head's bytes are consumed
// only then. err is set when the connection is done (closed, cut off).
func (s *Server) readHead(lc *loopConn, first bool) (eligible bool, err error) {
	o := &s.loop.opts
	br := lc.br
	if br.Buffered() == 0 {
		if first {
			lc.c.SetReadDeadlineFor(time.Now().Add(o.ReadHeaderTimeout), httploop.PhaseHeaders)
		} else {
			lc.c.SetReadDeadlineFor(time.Now().Add(o.IdleTimeout), httploop.PhaseIdle)
		}
		if _, err := br.Peek(1); err != nil {
			return false, err
		}
	}
	t0 := time.Now()
	headerDeadlineSet := first
	for {
		buf, _ := br.Peek(br.Buffered())
		if n := httploop.HeadEnd(buf); n >= 0 {
			if n > o.MaxHeaderBytes {
				return false, nil // net/http answers 431
			}
			lc.head = httploop.Head{}
			if !httploop.ParseHead(buf[:n], &lc.head) || lc.head.ContentLength > s.loop.e.maxBody ||
				!s.loop.e.hosts.Allows(lc.head.Host, lc.public) {
				return false, nil
			}
			_, _ = br.Discard(n)
			lc.body.Reset(br, lc.head.ContentLength)
			// The body: ReadTimeout from the head's first byte, unless it
			// is here already.
			if int64(br.Buffered()) < lc.head.ContentLength {
				lc.c.SetReadDeadlineFor(t0.Add(o.ReadTimeout), httploop.PhaseBody)
			}
			return true, nil
		}
		if len(buf) >= br.Size() || len(buf) > o.MaxHeaderBytes {
			return false, nil // a head this large is net/http's
		}
		if !headerDeadlineSet {
			lc.c.SetReadDeadlineFor(t0.Add(o.ReadHeaderTimeout), httploop.PhaseHeaders)
			headerDeadlineSet = true
		}
		if _, err := br.Peek(len(buf) + 1); err != nil {
			if len(buf) > 0 && !errors.Is(err, bufio.ErrBufferFull) {
				if httploop.IsTimeout(err) {
					return false, err
				}
				// A partial head, then EOF: net/http answers some of
				// these with 400; let it see the bytes.
				return false, nil
			}
			return false, err
		}
	}
}

// serveRequest answers the request whose head is in lc.head and reports
// whether the connection stays open for another.
func (s *Server) serveRequest(lc *loopConn) (keep bool) {
	l := s.loop
	e := l.e
	h := &lc.head
	lc.ctx.Reset(l.ctx, lc.br, lc.c)
	in := apiRequest{
		ctx:           &lc.ctx,
		target:        h.Target,
		auth:          h.Auth,
		host:          h.Host,
		tenant:        h.Tenant,
		branch:        h.Branch,
		contentLength: h.ContentLength,
		body:          &lc.body,
		conn:          lc.c,
	}
	if h.ContentEncoding != "" {
		in.contentEncoding = []string{h.ContentEncoding}
	}
	in.rl = e.newRequestLog(in.ctx)
	out := answerBodies.Get()
	ans := e.answerAPI(&in, (*out)[:0])
	lc.ctx.Finish()
	if ans.cutOff {
		return false
	}
	keep = !h.Close && !h.HTTP10 && !l.stopping.Load()
	// A body the answer did not read (an error found before it): read
	// away before the answer when small, as net/http does, else close
	// after the answer.
	if keep && lc.body.Left() > 0 {
		n, err := io.CopyN(io.Discard, &lc.body, maxDiscardBytes+1)
		keep = err == io.EOF && n <= maxDiscardBytes
	}
	coding := ""
	if len(ans.body) >= httploop.MinCompressed && h.AcceptEncoding != "" {
		coding = httploop.AcceptedCoding(h.AcceptEncoding)
	}
	e.logAPI(&in, &ans) // before the client can read the answer, as on net/http's path
	// The write deadline counts from the answer being ready, not from
	// the head: a request slow to serve is still answered.
	lc.c.SetWriteDeadlineFor(time.Now().Add(l.opts.WriteTimeout))
	err := writeAnswer(lc, h, coding, &ans, keep)
	if err != nil && httploop.IsTimeout(err) {
		e.log.Warn("answer cut off: write timeout (response not read)", "request_id", ans.reqID, "remote", in.remoteAddr(), "err", err)
	}
	e.recycleAPI(&ans, out)
	return err == nil && keep
}

// stop is the loop's part of Shutdown and Close: no more accepts, no more
// hand-offs; idle connections (and, with all, every one) closed now.
func (l *connLoop) stop(all bool) {
	l.once.Do(func() {
		l.mu.Lock()
		l.stopping.Store(true)
		close(l.done)
		for ln := range l.lns {
			_ = ln.Close()
		}
		l.mu.Unlock()
	})
	if all {
		l.cancel()
	}
	l.closeIdle(all)
}

// closeIdle closes the idle connections (and the new ones older than 5
// seconds, as net/http does), or every one with all. It reports whether
// none is left.
func (l *connLoop) closeIdle(all bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now().Unix()
	for lc := range l.conns {
		st := lc.state.Load()
		switch {
		case all,
			st == loopIdle && lc.state.CompareAndSwap(loopIdle, loopClosed),
			st == loopNew && lc.since < now-5 && lc.state.CompareAndSwap(loopNew, loopClosed):
			_ = lc.c.Close()
		}
	}
	return len(l.conns) == 0
}

// Shutdown stops the server gracefully: no more connections accepted, the
// idle ones closed at once, the active ones closed when their answer is
// written; net/http's connections likewise. It returns when all are
// closed, or ctx's error when ctx ends first.
func (s *Server) Shutdown(ctx context.Context) error {
	if s.loop == nil {
		return s.Server.Shutdown(ctx)
	}
	s.loop.stop(false)
	errc := make(chan error, 1)
	go func() { errc <- s.Server.Shutdown(ctx) }()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !s.loop.closeIdle(false) {
		select {
		case <-ctx.Done():
			<-errc
			return ctx.Err()
		case <-tick.C:
		}
	}
	return <-errc
}

// Close closes the server at once: its listeners and every connection.
func (s *Server) Close() error {
	if s.loop == nil {
		return s.Server.Close()
	}
	s.loop.stop(true)
	return s.Server.Close()
}
