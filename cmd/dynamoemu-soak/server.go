package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// serveEnv set in the environment makes this program the soak's server.
const serveEnv = "DYNAMOEMU_SOAK_SERVE"

// The server's cut-off timeouts: short, so that they fire during a run.
var soakServerOptions = emulator.ServerOptions{
	ReadHeaderTimeout: 3 * time.Second,
	ReadTimeout:       5 * time.Second,
	WriteTimeout:      5 * time.Second,
	IdleTimeout:       5 * time.Second,
}

// stats is what the server reports about itself.
type stats struct {
	HeapLive   uint64         `json:"heap_live_bytes"` // after a GC
	RSS        uint64         `json:"rss_bytes"`
	Goroutines int            `json:"goroutines"`
	OpenConns  int64          `json:"open_conns"`
	CutOffs    map[string]int `json:"cutoffs"` // by reason
}

func (s stats) String() string {
	var reasons []string
	for r, n := range s.CutOffs {
		reasons = append(reasons, fmt.Sprintf("%s=%d", r, n))
	}
	return fmt.Sprintf("live heap %6.1f MB  RSS %6.1f MB  goroutines %5d  open connections %4d  cut-offs {%s}",
		float64(s.HeapLive)/(1<<20), float64(s.RSS)/(1<<20), s.Goroutines, s.OpenConns, strings.Join(sortedStrings(reasons), " "))
}

// cutOffCounter is a slog handler counting the server's "connection cut
// off" debug records by reason; other records at warn and above go to
// stderr.
type cutOffCounter struct {
	mu     sync.Mutex
	counts map[string]int
	warn   slog.Handler
}

func (h *cutOffCounter) Enabled(context.Context, slog.Level) bool { return true }
func (h *cutOffCounter) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *cutOffCounter) WithGroup(string) slog.Handler            { return h }
func (h *cutOffCounter) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == "connection cut off" || r.Message == "request body cut off" {
		reason := r.Message
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "reason" {
				reason = a.Value.String()
			}
			return true
		})
		h.mu.Lock()
		h.counts[reason]++
		h.mu.Unlock()
		return nil
	}
	if r.Level >= slog.LevelWarn {
		return h.warn.Handle(ctx, r)
	}
	return nil
}

func (h *cutOffCounter) snapshot() map[string]int {
	h.mu.Lock()
	defer h.mu.Unlock()
	m := make(map[string]int, len(h.counts))
	for k, v := range h.counts {
		m[k] = v
	}
	return m
}

// serve is the child: an emulator server on 127.0.0.1 that prints its
// address, then answers each "stats" line on stdin with a JSON line, until
// stdin closes.
func serve() error {
	log := &cutOffCounter{counts: map[string]int{}, warn: slog.NewTextHandler(os.Stderr, nil)}
	emu, err := emulator.New(emulator.Options{Logger: slog.New(log), MaxInFlight: 1024}) // as cmd/dynamoemu's -maxInFlight
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := emu.NewServer(soakServerOptions)
	go func() { _ = srv.Serve(ln) }()
	fmt.Println(ln.Addr().String())
	in := bufio.NewScanner(os.Stdin)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if err := out.Encode(stats{
			HeapLive:   ms.HeapAlloc,
			RSS:        rss(),
			Goroutines: runtime.NumGoroutine(),
			OpenConns:  srv.OpenConns(),
			CutOffs:    log.snapshot(),
		}); err != nil {
			return err
		}
	}
	return srv.Close()
}

// rss is the resident set size from /proc/self/status (0 elsewhere).
func rss() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
