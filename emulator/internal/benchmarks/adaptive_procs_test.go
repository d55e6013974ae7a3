package benchmarks

import (
	"net/http"
	"runtime"
	"sync/atomic"
	"time"
)

// adaptiveEnv, set in the child server's environment (through
// DYNAMOEMU_BENCH_CHILD_ENV="DYNAMOEMU_BENCH_ADAPTIVE=1"), serves with
// adaptiveProcs: the scheduler study's candidate for one-at-a-time
// requests as cheap as GOMAXPROCS=1 without giving up the other cores
// under concurrency.
const adaptiveEnv = "DYNAMOEMU_BENCH_ADAPTIVE"

// adaptiveProcs runs GOMAXPROCS=1 while requests come one at a time and
// the machine's default as soon as two overlap: every tick it looks at the
// most requests in flight at once since the last tick; two or more raise
// GOMAXPROCS at once, and a quiet spell of one at a time (lowerAfter
// ticks) lowers it again.
type adaptiveProcs struct {
	inFlight atomic.Int64
	peak     atomic.Int64 // most in flight since the last tick
	max      int
}

const (
	adaptiveTick = 2 * time.Millisecond
	lowerAfter   = 25 // ticks
)

func newAdaptiveProcs() *adaptiveProcs {
	a := &adaptiveProcs{max: runtime.GOMAXPROCS(0)}
	go a.run()
	return a
}

func (a *adaptiveProcs) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := a.inFlight.Add(1)
		for {
			p := a.peak.Load()
			if n <= p || a.peak.CompareAndSwap(p, n) {
				break
			}
		}
		defer a.inFlight.Add(-1)
		h.ServeHTTP(w, r)
	})
}

func (a *adaptiveProcs) run() {
	procs, quiet := a.max, 0
	t := time.NewTicker(adaptiveTick)
	for range t.C {
		peak := a.peak.Swap(a.inFlight.Load())
		switch {
		case peak >= 2:
			quiet = 0
			if procs != a.max {
				procs = a.max
				runtime.GOMAXPROCS(procs)
			}
		case procs != 1:
			if quiet++; quiet >= lowerAfter {
				procs = 1
				runtime.GOMAXPROCS(1)
			}
		}
	}
}
