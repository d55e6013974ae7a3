package apiserve

import (
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// The budget of request bytes in flight (the emulator's Options.MaxRequestBytesInFlight):
// what every request being read or served holds of its body, counted
// together. A request reserves its Content-Length before its body is read
// (a body of unknown length, chunked, reserves its bytes as they arrive);
// the reservation ends when the request is answered. A request that does
// not fit waits its turn, first come first served, for at most
// BudgetWait; then its body is read away, kept nowhere, and it is
// answered with AWS's ThrottlingException (and Retry-After), which the
// SDKs retry with back-off: the client gets an answer, the heap holds at
// most the budget of bodies. While a request waits its body stays in the
// kernel's socket buffers: TCP's flow control holds the client back.

// BudgetWait is the longest a request waits for room in the budget before
// it is throttled: well inside the server's read timeout
// (DefaultReadTimeout), which bounds reading its body after the wait.
const BudgetWait = 10 * time.Second

// budgetChunk is the least a body of unknown length reserves at a time.
const budgetChunk = 256 << 10

// Budget admits requests by their bytes, in order of arrival.
type Budget struct {
	Max  int64        // 0: no budget
	Wait atomic.Int64 // the longest wait in nanoseconds: BudgetWait; tests shorten it

	mu      sync.Mutex      // guards used and waiters
	used    int64           // bytes reserved now
	waiters []*budgetWaiter // in order of arrival

	Peak      atomic.Int64 // the most reserved at once (tests, reports)
	Throttled atomic.Int64 // requests refused for want of room
}

// budgetWaiter is a request waiting for n bytes; ready is closed when
// they are reserved for it.
type budgetWaiter struct {
	n     int64
	ready chan struct{}
}

// clamp is the most one request reserves: the whole budget, so a request
// larger than the budget is served alone rather than never.
func (b *Budget) clamp(n int64) int64 {
	return min(max(n, 0), b.Max)
}

// acquire reserves n bytes (at most the budget), waiting for them at
// most b.wait, or until ctx ends. It returns the bytes reserved, which
// the caller gives back with release, and whether they were.
func (b *Budget) acquire(ctx context.Context, n int64) (int64, bool) {
	if b.Max <= 0 {
		return 0, true
	}
	n = b.clamp(n)
	b.mu.Lock()
	if len(b.waiters) == 0 && b.used+n <= b.Max {
		b.reserveLocked(n)
		b.mu.Unlock()
		return n, true
	}
	w := &budgetWaiter{n: n, ready: make(chan struct{})}
	b.waiters = append(b.waiters, w)
	b.mu.Unlock()

	t := time.NewTimer(time.Duration(b.Wait.Load()))
	defer t.Stop()
	select {
	case <-w.ready:
		return n, true
	case <-t.C:
	case <-ctx.Done():
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case <-w.ready: // granted while the timer fired
		return n, true
	default:
	}
	for i, x := range b.waiters {
		if x == w {
			b.waiters = append(b.waiters[:i], b.waiters[i+1:]...)
			break
		}
	}
	b.grantLocked() // those behind it may fit now
	b.Throttled.Add(1)
	return 0, false
}

// Reserved returns the bytes reserved now and the requests waiting.
func (b *Budget) Reserved() (int64, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used, len(b.waiters)
}

// release gives back n reserved bytes.
func (b *Budget) release(n int64) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	b.grantLocked()
	b.mu.Unlock()
}

// grantLocked reserves the bytes of the waiters at the head of the queue
// that fit now.
func (b *Budget) grantLocked() {
	for len(b.waiters) > 0 && b.used+b.waiters[0].n <= b.Max {
		w := b.waiters[0]
		b.waiters[0] = nil
		b.waiters = b.waiters[1:]
		b.reserveLocked(w.n)
		close(w.ready)
	}
}

func (b *Budget) reserveLocked(n int64) {
	b.used += n
	if b.used > b.Peak.Load() {
		b.Peak.Store(b.used)
	}
}

// budgetReader is a body of unknown length: it reserves its bytes as
// they arrive, budgetChunk or as many as it holds at a time, and fails
// with errOverBudget when they do not fit in time.
type budgetReader struct {
	r        io.Reader
	b        *Budget
	ctx      context.Context
	read     int64
	reserved int64 // the request's reservation, which handle releases when it is answered
}

func (br *budgetReader) Read(p []byte) (int, error) {
	n, err := br.r.Read(p)
	br.read += int64(n)
	if br.read > br.reserved && br.reserved < br.b.Max {
		more := min(max(br.read, budgetChunk), br.b.Max-br.reserved)
		got, ok := br.b.acquire(br.ctx, more)
		br.reserved += got
		if !ok {
			return n, errOverBudget
		}
	}
	return n, err
}

// drain reads a body away, keeping none of it, so that the client that
// sent it reads the answer on a connection that stays usable: at most
// limit bytes and one more (the body limit, past which the answer closes
// the connection anyway). io.Discard reads into buffers of its own; a
// pool of ours here saved nothing a benchmark shows (only a request
// refused over the budget drains).
func drain(r io.Reader, limit int64) {
	_, _ = io.CopyN(io.Discard, r, limit+1)
}

// errOverBudget: a body of unknown length outgrew what the budget could
// reserve for it in time.
var errOverBudget = errors.New("emulator: request bytes in flight over budget")

// retryLater marks the edge's ThrottlingException (the budget of bytes,
// the limit of requests in flight): its answer says Retry-After.
type retryLater struct{ error }

func (r retryLater) Unwrap() error { return r.error }

// RetryAfterSeconds is the Retry-After of a throttled request.
const RetryAfterSeconds = "1"
