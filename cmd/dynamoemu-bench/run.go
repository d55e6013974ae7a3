package main

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// result is one operation run at one concurrency against one target.
type result struct {
	op          string
	concurrency int
	ops         int           // requests answered and checked
	errors      int           // requests that failed or whose answer failed its check
	firstErr    error         // the first of them
	elapsed     time.Duration // of the measured part
	p50, p99    time.Duration // latency of the answered requests
	serverCPU   time.Duration // the server process's CPU time over the run (0: unknown)
	clientCPU   time.Duration // this process's CPU time over the run
}

// opsPerSec is the throughput of the run.
func (r result) opsPerSec() float64 {
	if r.elapsed <= 0 {
		return 0
	}
	return float64(r.ops) / r.elapsed.Seconds()
}

// perOp divides d by the operations.
func (r result) perOp(d time.Duration) time.Duration {
	if r.ops == 0 {
		return 0
	}
	return d / time.Duration(r.ops)
}

// runConfig says how to run one operation.
type runConfig struct {
	op          string
	concurrency int
	duration    time.Duration // measured
	warmup      time.Duration // run, not measured
	requests    int           // > 0: each worker sends this many, all measured, instead of duration and warmup
	strict      bool          // check keys and counts (not against a floor)
	pid         int           // the server's process, for its CPU time (0: none)
}

// run runs cfg.op from cfg.concurrency workers, each sending its next
// request when the last is answered, first for the warm-up and then for
// the measured duration (or cfg.requests each, all measured, with keys
// drawn from a fixed seed: the same requests every run), and checks
// every answer.
func run(c *client, w *workload, cfg runConfig) result {
	var measuring atomic.Bool
	var stop atomic.Bool
	seed := uint64(time.Now().UnixNano())
	if cfg.requests > 0 {
		measuring.Store(true)
		seed = 1
	}
	type workerResult struct {
		lat      []time.Duration
		errors   int
		firstErr error
	}
	results := make([]workerResult, cfg.concurrency)
	var wg sync.WaitGroup
	var started sync.WaitGroup
	started.Add(cfg.concurrency)
	for i := range cfg.concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(i), seed))
			var buf []byte
			var resp bytes.Buffer
			res := &results[i]
			res.lat = make([]time.Duration, 0, 1<<14)
			started.Done()
			for sent := 0; !stop.Load() && (cfg.requests == 0 || sent < cfg.requests); sent++ {
				req := w.next(cfg.op, r, buf)
				buf = req.body[:0]
				t0 := time.Now()
				body, err := c.call(req.op, req.body, &resp)
				d := time.Since(t0)
				if err == nil {
					err = check(req, body, cfg.strict)
				}
				if !measuring.Load() {
					continue
				}
				if err != nil {
					res.errors++
					if res.firstErr == nil {
						res.firstErr = err
					}
					continue
				}
				res.lat = append(res.lat, d)
			}
		}()
	}
	started.Wait()
	var cpu0, client0 time.Duration
	var t0 time.Time
	if cfg.requests > 0 {
		cpu0, client0, t0 = procCPU(cfg.pid), selfCPU(), time.Now()
		wg.Wait()
	} else {
		time.Sleep(cfg.warmup)
		cpu0, client0, t0 = procCPU(cfg.pid), selfCPU(), time.Now()
		measuring.Store(true)
		time.Sleep(cfg.duration)
		measuring.Store(false)
	}
	elapsed := time.Since(t0)
	cpu1, client1 := procCPU(cfg.pid), selfCPU()
	stop.Store(true)
	wg.Wait()

	out := result{op: cfg.op, concurrency: cfg.concurrency, elapsed: elapsed, clientCPU: client1 - client0}
	if cfg.pid > 0 && cpu0 >= 0 && cpu1 >= 0 {
		out.serverCPU = cpu1 - cpu0
	}
	var all []time.Duration
	for _, r := range results {
		all = append(all, r.lat...)
		out.errors += r.errors
		if out.firstErr == nil {
			out.firstErr = r.firstErr
		}
	}
	out.ops = len(all)
	out.p50, out.p99 = percentile(all, 50), percentile(all, 99)
	return out
}

// percentile returns the p-th percentile of ds (sorting them), 0 for none.
func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	if !slices.IsSorted(ds) {
		slices.Sort(ds)
	}
	i := (len(ds)*p + 99) / 100
	return ds[min(max(i-1, 0), len(ds)-1)]
}

func sleepMillis(ms int) { time.Sleep(time.Duration(ms) * time.Millisecond) }
