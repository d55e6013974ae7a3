package httploop

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/httpedge"
	"github.com/dynamoemu/dynamoemu/internal/lease"
)

// The data-plane connection loop: the emulator's Server.Serve hands its
// listener to Loop.Serve, which accepts the connections itself and serves
// each with one goroutine that reads request heads into a Head, and has
// the Handler serve the eligible ones (the emulator's ServeLoop: the same
// answerAPI as net/http's path, the answer written with one flush). The
// first request that is not eligible hands the connection, its unread
// bytes included, to the net/http Server (handoff.go), which serves it
// from then on: the admin API, the console, CORS, GET /, chunked bodies
// and Expect keep net/http's behaviour. What net/http costs per request and the loop does
// not: a background read goroutine aborted by a past deadline, an
// http.Request, a header map, a context, a response writer. The request's
// context still ends when its client goes away, watched only while
// something waits on it (ConnContext).
//
// The loop keeps net/http's limits: the read deadline of an idle
// connection is IdleTimeout, of a head ReadHeaderTimeout, of a body
// ReadTimeout from the head's first byte; the write deadline is
// WriteTimeout from the answer being ready (net/http counts from the end
// of the head, which cut off requests slow to serve under load); each
// cut-off is logged by Conn as before, and a cut answer at WARN with its
// request id (by the Handler). A head larger than MaxHeaderBytes, or one
// that does not fit the read buffer, goes to net/http (431 for the
// former).

// readBufferSize is the loop's read buffer: a head must fit in it (an SDK
// call's head is under 2 KB; a larger one goes to net/http).
const readBufferSize = 8 << 10

// readers are the loop's buffered readers, one a connection, given back
// detached from it.
//
// BenchmarkLoopConnection (a connection per request), 1000x: 10692 ->
// 18991 B/op (+78%), 74 -> 76 allocs.
var readers = lease.NewPool(lease.Config[*bufio.Reader]{
	New:   func() *bufio.Reader { return bufio.NewReaderSize(nil, readBufferSize) },
	Reset: func(br *bufio.Reader) bool { br.Reset(nil); return true },
})

// A Handler serves the requests the loop reads.
type Handler interface {
	// ServeLoop answers the request whose head is c.Head, reading its
	// body from c.Body, with c.Ctx as its context; it writes the answer
	// to c.Conn and reports whether the connection stays open. It is
	// the loop's one indirect call a request.
	ServeLoop(c *LoopConn) (keep bool)
	// LoopConnDone is called once a connection the loop served is done
	// (closed or handed off), for what ServeLoop kept in c.Out.
	LoopConnDone(c *LoopConn)
}

// Options are a Loop's limits: net/http's timeouts and header limit, as
// the Server's, and what makes a request the loop's to serve.
type Options struct {
	ReadHeaderTimeout, ReadTimeout, IdleTimeout time.Duration
	MaxHeaderBytes                              int
	MaxBody                                     int64           // a larger Content-Length goes to net/http (which answers 413)
	Hosts                                       *httpedge.Hosts // a Host it refuses goes to net/http (which answers 403)
}

// Loop is a Server's loop state.
type Loop struct {
	h        Handler
	srv      *http.Server // serves the connections handed off
	conns    *Conns
	log      *slog.Logger
	opts     Options
	ctx      context.Context // the service's request context; cancelled by Close
	cancel   context.CancelFunc
	handoff  *Listener
	stdOnce  sync.Once     // starts the net/http Server on the hand-off listener
	stopping atomic.Bool   // set (under mu) by stop
	done     chan struct{} // closed when stopping is set
	once     sync.Once     // runs stop's first part once

	mu     sync.Mutex                // guards served and lns
	served map[*LoopConn]struct{}    // connections the loop serves now
	lns    map[net.Listener]struct{} // listeners being served
}

// NewLoop returns a loop serving with h, handing to srv the connections
// it gives up; conns counts the connections, log is for its warnings.
func NewLoop(h Handler, srv *http.Server, conns *Conns, log *slog.Logger, opts Options) *Loop {
	ctx, cancel := context.WithCancel(context.Background())
	l := &Loop{h: h, srv: srv, conns: conns, log: log, opts: opts, ctx: ctx, cancel: cancel,
		served: map[*LoopConn]struct{}{}, lns: map[net.Listener]struct{}{}, done: make(chan struct{})}
	l.handoff = NewListener()
	return l
}

// Serving is the number of connections the loop serves now (for tests).
func (l *Loop) Serving() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.served)
}

// Connection states of the loop, for Shutdown.
const (
	loopNew    int32 = iota // accepted, no request read yet
	loopIdle                // between requests
	loopActive              // serving a request
	loopClosed              // closed by Shutdown, or handed off
)

// LoopConn is one connection the loop serves, and its request now.
type LoopConn struct {
	Conn   *Conn
	BR     *bufio.Reader // Conn's read buffer, from the readers' pool
	Out    *[]byte       // the Handler's: the answer being written, kept between requests
	Head   Head
	Body   Body
	Ctx    ConnContext // the request's context
	loop   *Loop
	state  atomic.Int32
	since  int64 // Unix seconds of the accept, for Shutdown's treatment of new connections
	public bool  // the connection arrived at a non-loopback address (httpedge.ArrivedAtPublic)
}

// Stopping reports whether the loop is stopping (Shutdown or Close): an
// answer then closes its connection.
func (lc *LoopConn) Stopping() bool { return lc.loop.stopping.Load() }

// Serve accepts connections on ln until the loop stops.
func (l *Loop) Serve(ln net.Listener) error {
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
				l.log.Warn("accept failed; retrying", "err", err, "delay", delay)
				time.Sleep(delay)
				continue
			}
			return err
		}
		delay = 0
		lc := &LoopConn{Conn: l.conns.Track(c), loop: l, since: time.Now().Unix(), public: httpedge.ArrivedAtPublic(c.LocalAddr())}
		if !l.add(lc) {
			_ = lc.Conn.Close()
			return http.ErrServerClosed
		}
		go l.serveConn(lc)
	}
}

// retryableAccept reports whether err is one of the accept errors net/http
// retries (too many open files and the like).
func retryableAccept(err error) bool {
	var te interface{ Temporary() bool }
	return errors.As(err, &te) && te.Temporary()
}

func (l *Loop) track(ln net.Listener) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stopping.Load() {
		return false
	}
	l.lns[ln] = struct{}{}
	return true
}

func (l *Loop) untrack(ln net.Listener) {
	l.mu.Lock()
	delete(l.lns, ln)
	l.mu.Unlock()
}

func (l *Loop) add(lc *LoopConn) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stopping.Load() {
		return false
	}
	l.served[lc] = struct{}{}
	return true
}

func (l *Loop) remove(lc *LoopConn) {
	l.mu.Lock()
	delete(l.served, lc)
	l.mu.Unlock()
}

// serveConn serves one connection until it closes or is handed off.
func (l *Loop) serveConn(lc *LoopConn) {
	lc.BR = readers.Get()
	lc.BR.Reset(lc.Conn)
	handedOff := false
	defer func() {
		if p := recover(); p != nil {
			l.log.Error("panic serving a connection", "remote", lc.Conn.RemoteAddr().String(), "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
		l.remove(lc)
		l.h.LoopConnDone(lc)
		if !handedOff {
			readers.Put(lc.BR)
			_ = lc.Conn.Close()
		}
	}()
	first := true
	for {
		eligible, err := l.readHead(lc, first)
		first = false
		if err != nil {
			return
		}
		if !eligible {
			handedOff = l.handOff(lc)
			return
		}
		if !lc.state.CompareAndSwap(loopIdle, loopActive) && !lc.state.CompareAndSwap(loopNew, loopActive) {
			return // Shutdown closed it
		}
		lc.Ctx.Reset(l.ctx, lc.BR, lc.Conn)
		keep := l.h.ServeLoop(lc)
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
func (l *Loop) readHead(lc *LoopConn, first bool) (eligible bool, err error) {
	o := &l.opts
	br := lc.BR
	if br.Buffered() == 0 {
		if first {
			lc.Conn.SetReadDeadlineFor(time.Now().Add(o.ReadHeaderTimeout), PhaseHeaders)
		} else {
			lc.Conn.SetReadDeadlineFor(time.Now().Add(o.IdleTimeout), PhaseIdle)
		}
		if _, err := br.Peek(1); err != nil {
			return false, err
		}
	}
	// t0 is the head's first byte, read from the clock only when a
	// deadline counts from it (a head or body still arriving): most
	// requests arrive whole in one read and need no third clock read.
	var t0 time.Time
	headerDeadlineSet := first
	for {
		buf, _ := br.Peek(br.Buffered())
		if n := HeadEnd(buf); n >= 0 {
			if n > o.MaxHeaderBytes {
				return false, nil // net/http answers 431
			}
			lc.Head = Head{}
			if !ParseHead(buf[:n], &lc.Head) || lc.Head.ContentLength > o.MaxBody ||
				!o.Hosts.Allows(lc.Head.Host, lc.public) {
				return false, nil
			}
			_, _ = br.Discard(n)
			lc.Body.Reset(br, lc.Head.ContentLength)
			// The body: ReadTimeout from the head's first byte, unless it
			// is here already.
			if int64(br.Buffered()) < lc.Head.ContentLength {
				if t0.IsZero() {
					t0 = time.Now()
				}
				lc.Conn.SetReadDeadlineFor(t0.Add(o.ReadTimeout), PhaseBody)
			}
			return true, nil
		}
		if len(buf) >= br.Size() || len(buf) > o.MaxHeaderBytes {
			return false, nil // a head this large is net/http's
		}
		if t0.IsZero() {
			t0 = time.Now()
		}
		if !headerDeadlineSet {
			lc.Conn.SetReadDeadlineFor(t0.Add(o.ReadHeaderTimeout), PhaseHeaders)
			headerDeadlineSet = true
		}
		if _, err := br.Peek(len(buf) + 1); err != nil {
			if len(buf) > 0 && !errors.Is(err, bufio.ErrBufferFull) {
				if IsTimeout(err) {
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

// stop is the loop's part of Shutdown and Close: no more accepts, no more
// hand-offs; idle connections (and, with all, every one) closed now.
func (l *Loop) stop(all bool) {
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
func (l *Loop) closeIdle(all bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now().Unix()
	for lc := range l.served {
		st := lc.state.Load()
		switch {
		case all,
			st == loopIdle && lc.state.CompareAndSwap(loopIdle, loopClosed),
			st == loopNew && lc.since < now-5 && lc.state.CompareAndSwap(loopNew, loopClosed):
			_ = lc.Conn.Close()
		}
	}
	return len(l.served) == 0
}

// Shutdown stops the loop gracefully: no more connections accepted, the
// idle ones closed at once, the active ones closed when their answer is
// written; the net/http Server's connections likewise. It returns when
// all are closed, or ctx's error when ctx ends first.
func (l *Loop) Shutdown(ctx context.Context) error {
	l.stop(false)
	errc := make(chan error, 1)
	go func() { errc <- l.srv.Shutdown(ctx) }()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !l.closeIdle(false) {
		select {
		case <-ctx.Done():
			<-errc
			return ctx.Err()
		case <-tick.C:
		}
	}
	return <-errc
}

// Close closes the loop at once, and the net/http Server: the listeners
// and every connection.
func (l *Loop) Close() error {
	l.stop(true)
	return l.srv.Close()
}
