// Command httpexp is the HTTP-path experiment: a child server
// for emulator/internal/benchmarks' BenchmarkServerCPU (DYNAMOEMU_BENCH_CHILD_BIN
// names it) that serves the emulator, or canned answers (the floor), under
// another server loop than cmd/dynamoemu's net/http one, so that the
// server CPU per request of each loop can be compared with the same client
// and the same bytes on the wire.
//
// It is a module of its own so that fasthttp stays out of dynamoemu's
// go.mod: the experiment did not meet the bar for adoption (see docs/performance.md
// beside this file for the figures and the commands).
//
// HTTPEXP_SERVER chooses the loop:
//
//   - nethttp: the emulator's own Server (emulator.NewServer, as
//     cmd/dynamoemu serves), the reference;
//   - nethttp-plain: a bare http.Server: no timeouts (no deadline set per
//     request), no connection tracking; what those cost;
//   - fasthttp: github.com/valyala/fasthttp with the emulator's
//     http.Handler behind fasthttpadaptor, and the floor answered natively;
//   - fasthttp-lite: the same with a pooled, in-place adaptor (lite.go)
//     instead of fasthttpadaptor.
//
// The child protocol is the benchmark's: the address on stdout, the
// process's CPU time at /debug/rusage, replayed answers under /debug/noop,
// exit when stdin closes.
package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime/pprof"
	"strings"
	"sync"
	"syscall"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttpadaptor"
)

const (
	noopPath   = "/debug/noop"
	rusagePath = "/debug/rusage"
)

func main() {
	e, err := emulator.New(emulator.Options{MaxInFlight: 1024}) // as cmd/dynamoemu's -maxInFlight
	if err != nil {
		fail(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fail(err)
	}
	if path := os.Getenv("DYNAMOEMU_BENCH_CHILD_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fail(err)
		}
	}
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		pprof.StopCPUProfile()
		os.Exit(0)
	}()
	fmt.Println(ln.Addr().String())
	switch kind := os.Getenv("HTTPEXP_SERVER"); kind {
	case "", "nethttp":
		serveNetHTTP(e, ln, false)
	case "nethttp-plain":
		serveNetHTTP(e, ln, true)
	case "fasthttp":
		serveFastHTTP(e, ln, fasthttpadaptor.NewFastHTTPHandler(e.Handler()))
	case "fasthttp-lite":
		serveFastHTTP(e, ln, liteAdaptor(e.Handler()))
	default:
		fail(fmt.Errorf("HTTPEXP_SERVER=%q: want nethttp, nethttp-plain, fasthttp or fasthttp-lite", kind))
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "httpexp:", err)
	os.Exit(1)
}

// cpuNanos is the process's user and system CPU time so far.
func cpuNanos() (user, sys int64) {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano(), ru.Stime.Nano()
}

// ---- net/http: the reference ----

func serveNetHTTP(e *emulator.Emulator, ln net.Listener, plain bool) {
	api := e.Handler()
	var rp netReplay
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodGet && r.URL.Path == rusagePath:
			u, s := cpuNanos()
			_, _ = fmt.Fprintf(w, "%d %d", u, s)
		case strings.HasPrefix(r.URL.Path, noopPath):
			rp.serve(w, r, api)
		default:
			api.ServeHTTP(w, r)
		}
	})
	if plain {
		_ = (&http.Server{Handler: h}).Serve(ln)
		return
	}
	srv := e.NewServer(emulator.ServerOptions{})
	srv.Handler = h
	_ = srv.Serve(ln)
}

// netReplay answers each request with the emulator's answer to the first
// request with the same X-Amz-Target and body (the benchmark's replayer).
type netReplay struct {
	mu      sync.Mutex // guards replies and buf
	replies map[string]*reply
	buf     []byte
}

type reply struct {
	status int
	header http.Header
	body   []byte
}

func (p *netReplay) serve(w http.ResponseWriter, r *http.Request, api http.Handler) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.buf = p.buf[:0]
	for {
		if len(p.buf) == cap(p.buf) {
			p.buf = append(p.buf, 0)[:len(p.buf)]
		}
		n, err := r.Body.Read(p.buf[len(p.buf):cap(p.buf)])
		p.buf = p.buf[:len(p.buf)+n]
		if err != nil {
			break
		}
	}
	key := r.Header.Get("X-Amz-Target") + "\x00" + string(p.buf)
	rep := p.replies[key]
	if rep == nil {
		rec := &recorder{header: http.Header{}, status: http.StatusOK}
		r2 := r.Clone(r.Context())
		r2.URL.Path = "/"
		r2.Body = io.NopCloser(strings.NewReader(string(p.buf)))
		api.ServeHTTP(rec, r2)
		rep = &reply{status: rec.status, header: rec.header, body: rec.body}
		if p.replies == nil {
			p.replies = map[string]*reply{}
		}
		p.replies[key] = rep
	}
	h := w.Header()
	for k, v := range rep.header {
		h[k] = v
	}
	w.WriteHeader(rep.status)
	_, _ = w.Write(rep.body)
}

// recorder is an http.ResponseWriter keeping what is written.
type recorder struct {
	header http.Header
	status int
	body   []byte
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) WriteHeader(status int)      { r.status = status }
func (r *recorder) Write(p []byte) (int, error) { r.body = append(r.body, p...); return len(p), nil }

// ---- fasthttp ----

func serveFastHTTP(e *emulator.Emulator, ln net.Listener, api fasthttp.RequestHandler) {
	var mu sync.Mutex // guards replies
	replies := map[string]*fastReply{}
	h := func(ctx *fasthttp.RequestCtx) {
		path := ctx.Path()
		switch {
		case ctx.IsGet() && string(path) == rusagePath:
			u, s := cpuNanos()
			fmt.Fprintf(ctx, "%d %d", u, s)
		case strings.HasPrefix(string(path), noopPath):
			key := string(ctx.Request.Header.Peek("X-Amz-Target")) + "\x00" + string(ctx.PostBody())
			mu.Lock()
			rep := replies[key]
			mu.Unlock()
			if rep == nil {
				ctx.Request.SetRequestURI("/")
				api(ctx)
				rep = &fastReply{status: ctx.Response.StatusCode(), body: append([]byte(nil), ctx.Response.Body()...)}
				for k, v := range ctx.Response.Header.All() {
					rep.header = append(rep.header, [2]string{string(k), string(v)})
				}
				mu.Lock()
				replies[key] = rep
				mu.Unlock()
				return
			}
			ctx.Response.SetStatusCode(rep.status)
			for _, kv := range rep.header {
				ctx.Response.Header.Set(kv[0], kv[1])
			}
			ctx.Response.SetBodyRaw(rep.body)
		default:
			api(ctx)
		}
	}
	def := emulator.ServerOptions{}.WithDefaults()
	srv := &fasthttp.Server{
		Handler:                       h,
		ReadTimeout:                   def.ReadTimeout,
		WriteTimeout:                  def.WriteTimeout,
		IdleTimeout:                   def.IdleTimeout,
		MaxRequestBodySize:            int(emulator.Options{}.WithDefaults().MaxBodyBytes),
		ReadBufferSize:                def.MaxHeaderBytes,
		DisableHeaderNamesNormalizing: false,
		NoDefaultServerHeader:         true,
		NoDefaultDate:                 true,
	}
	_ = srv.Serve(ln)
}

type fastReply struct {
	status int
	header [][2]string
	body   []byte
}
