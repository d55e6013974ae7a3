package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator"
)

func main() {
	if os.Getenv(killEnv) != "" {
		if err := serveKill(); err != nil {
			fmt.Fprintln(os.Stderr, "dynamoemu-soak server:", err)
			os.Exit(1)
		}
		return
	}
	if os.Getenv(serveEnv) != "" {
		if err := serve(); err != nil {
			fmt.Fprintln(os.Stderr, "dynamoemu-soak server:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "dynamoemu-soak:", err)
		os.Exit(1)
	}
}

// maxDuration bounds a run whatever the flags say; maxKillDuration a
// run of the kill loop.
const (
	maxDuration     = 10 * time.Minute
	maxKillDuration = 24 * time.Hour
)

type config struct {
	duration   time.Duration
	workers    int
	kill       bool   // the kill loop (kill.go)
	durability string // its server's -durability
}

func parseFlags(args []string) (config, error) {
	var c config
	fs := flag.NewFlagSet("dynamoemu-soak", flag.ContinueOnError)
	fs.DurationVar(&c.duration, "duration", 60*time.Second, "how long the load runs (at most 10m)")
	fs.IntVar(&c.workers, "workers", 8, "well-behaved SDK clients (1 to 64); with -kill, writers")
	fs.BoolVar(&c.kill, "kill", false, "run the kill loop instead: a server with a data directory under writers, killed with SIGKILL every 0.5-3 s and started again, every acknowledged write checked after each restart (-duration up to 24h)")
	fs.StringVar(&c.durability, "durability", "sync", "with -kill, the server's -durability: sync, group or none")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	limit := maxDuration
	if c.kill {
		limit = maxKillDuration
	}
	if c.duration <= 0 || c.duration > limit {
		return c, fmt.Errorf("-duration %v: want more than 0 and at most %v", c.duration, limit)
	}
	if _, err := emulator.ParseDurability(c.durability); err != nil {
		return c, fmt.Errorf("-durability: %w", err)
	}
	if c.workers < 1 || c.workers > 64 {
		return c, fmt.Errorf("-workers %d: want 1 to 64", c.workers)
	}
	return c, nil
}

// child is the server process and its stats pipe.
type child struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
	addr  string
}

func startChild() (*child, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), serveEnv+"=1")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &child{cmd: cmd, stdin: stdin, out: bufio.NewReader(stdout)}
	line, err := c.out.ReadString('\n')
	if err != nil {
		_ = cmd.Process.Kill()
		return nil, fmt.Errorf("server did not start: %w", err)
	}
	c.addr = line[:len(line)-1]
	return c, nil
}

func (c *child) stats() (stats, error) {
	var s stats
	if _, err := io.WriteString(c.stdin, "stats\n"); err != nil {
		return s, err
	}
	line, err := c.out.ReadBytes('\n')
	if err != nil {
		return s, err
	}
	return s, json.Unmarshal(line, &s)
}

func (c *child) stop() error {
	_ = c.stdin.Close()
	return c.cmd.Wait()
}

// counters are what the clients saw.
type counters struct {
	ok, throttled, refused, cutOff, serverErrors, failures atomic.Int64
	mu                                                     sync.Mutex
	firstFailure                                           error
}

func (c *counters) fail(err error) {
	c.failures.Add(1)
	c.mu.Lock()
	if c.firstFailure == nil {
		c.firstFailure = err
	}
	c.mu.Unlock()
}

func run(args []string, out io.Writer) error {
	cfg, err := parseFlags(args)
	if err != nil {
		return err
	}
	if cfg.kill {
		return runKill(cfg, out)
	}
	srv, err := startChild()
	if err != nil {
		return err
	}
	defer func() { _ = srv.stop() }()
	report := func(label string) error {
		s, err := srv.stats()
		if err != nil {
			return fmt.Errorf("stats: %w", err)
		}
		fmt.Fprintf(out, "%-6s %s\n", label, s)
		return nil
	}
	fmt.Fprintf(out, "dynamoemu-soak: server %s (child pid %d), %v of load, %d workers; server timeouts read %v, write %v, idle %v, headers %v\n",
		srv.addr, srv.cmd.Process.Pid, cfg.duration, cfg.workers,
		soakServerOptions.ReadTimeout, soakServerOptions.WriteTimeout, soakServerOptions.IdleTimeout, soakServerOptions.ReadHeaderTimeout)
	if err := report("start"); err != nil {
		return err
	}

	l := newLoad(srv.addr, cfg)
	if err := l.setup(); err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.duration)
	defer cancel()
	done := make(chan struct{})
	go func() { l.run(ctx); close(done) }()
	tick := time.NewTicker(10 * time.Second)
	defer tick.Stop()
	start := time.Now()
loop:
	for {
		select {
		case <-done:
			break loop
		case <-tick.C:
			if err := report(fmt.Sprintf("%3.0fs", time.Since(start).Seconds())); err != nil {
				return err
			}
		}
	}
	if err := report("load"); err != nil {
		return err
	}
	// The clients are gone: every connection they left is closed by the
	// server's timeouts; wait for that (bounded), then the final report.
	l.closeIdle()
	for deadline := time.Now().Add(3 * soakServerOptions.IdleTimeout); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		if s, err := srv.stats(); err == nil && s.OpenConns == 0 {
			break
		}
	}
	if err := report("end"); err != nil {
		return err
	}
	c := &l.count
	fmt.Fprintf(out, "requests: %d ok, %d throttled, %d refused as expected, %d connections cut off, %d server errors (5xx), %d failures\n",
		c.ok.Load(), c.throttled.Load(), c.refused.Load(), c.cutOff.Load(), c.serverErrors.Load(), c.failures.Load())
	if n := c.serverErrors.Load() + c.failures.Load(); n > 0 {
		return fmt.Errorf("%d server errors or failures; first: %v", n, c.firstFailure)
	}
	return nil
}

// errUnexpected is a well-behaved request answered otherwise than expected.
var errUnexpected = errors.New("unexpected answer")

func sortedStrings(s []string) []string {
	slices.Sort(s)
	return s
}
