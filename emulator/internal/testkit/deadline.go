package testkit

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// Stacks is every goroutine's stack (runtime.Stack's, all of it).
func Stacks() []byte {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}

// Deadlines watch requests in flight for a hang: each request runs
// through Do, and Wait, in the test's goroutine, fails the test with
// every goroutine's stack as soon as one has run longer than the limit,
// instead of waiting for it (a deadlock takes forever). The limit only
// catches a hang: it is no measure of speed.
type Deadlines struct {
	limit time.Duration

	mu       sync.Mutex // guards the fields below
	next     uint64
	inflight map[uint64]inflight
	longest  time.Duration // the longest request answered
}

// inflight is a request running: what it is and when it started.
type inflight struct {
	what  string
	start time.Time
}

// NewDeadlines returns Deadlines of limit per request (Scaled).
func NewDeadlines(limit time.Duration) *Deadlines {
	return &Deadlines{limit: Scaled(limit), inflight: map[uint64]inflight{}}
}

// Limit is the deadline of each request.
func (d *Deadlines) Limit() time.Duration { return d.limit }

// Do runs f, one request described by what, in flight until it returns.
func (d *Deadlines) Do(what string, f func()) {
	d.mu.Lock()
	id := d.next
	d.next++
	start := time.Now()
	d.inflight[id] = inflight{what: what, start: start}
	d.mu.Unlock()
	defer func() {
		took := time.Since(start)
		d.mu.Lock()
		delete(d.inflight, id)
		d.longest = max(d.longest, took)
		d.mu.Unlock()
	}()
	f()
}

// Longest is the longest a request answered took so far.
func (d *Deadlines) Longest() time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.longest
}

// late returns the oldest request in flight past the limit.
func (d *Deadlines) late() (what string, took time.Duration, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, r := range d.inflight {
		if t := time.Since(r.start); t > d.limit && t > took {
			what, took, ok = r.what, t, true
		}
	}
	return what, took, ok
}

// Wait waits for wg, the goroutines making the requests, and fails the
// test with every goroutine's stack as soon as a request is late. Call
// it from the test's goroutine.
func (d *Deadlines) Wait(t testing.TB, wg *sync.WaitGroup) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	tick := time.NewTicker(max(d.limit/50, 10*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
			if what, took, late := d.late(); late {
				t.Fatalf("hung: %s not answered after %v (a request's deadline: %v); all goroutines:\n%s",
					what, took.Round(time.Millisecond), d.limit, Stacks())
			}
		}
	}
}
