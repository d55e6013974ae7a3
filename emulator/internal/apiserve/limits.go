package apiserve

import (
	"runtime/debug"
	"sync/atomic"
)

// initialBodyBytes is the most a request body buffer reserves before its
// bytes arrive: enough for a typical request in one allocation.
const initialBodyBytes = 8 << 10

// releaseThresholdBytes: after DeleteTable frees at least this many bytes of
// items (storage.Table.SizeBytes), the heap is returned to the operating
// system. The Go runtime does it by itself only over minutes.
const releaseThresholdBytes = 32 << 20

// Limiter counts the requests in flight, and those whose body is still
// arriving (not limited: for tests and reports).
type Limiter struct {
	Max      int64 // 0: no limit
	InFlight atomic.Int64
	Reading  atomic.Int64
}

// enter admits a request, reporting false when Max are in flight already.
// Every admitted request calls leave.
func (l *Limiter) enter() bool {
	n := l.InFlight.Add(1)
	if l.Max > 0 && n > l.Max {
		l.InFlight.Add(-1)
		return false
	}
	return true
}

func (l *Limiter) leave() { l.InFlight.Add(-1) }

// Releaser hands freed memory back to the operating system after large
// deletes, one debug.FreeOSMemory at a time.
type Releaser struct {
	pending atomic.Int64 // bytes deleted since the last release
	running atomic.Bool
	Done    func() // test hook, called after each release; nil otherwise
}

// Deleted records that a table of size bytes is gone (the service's
// TableDropped).
func (rl *Releaser) Deleted(size int64) { rl.pending.Add(size) }

// maybeRelease starts a release when enough was deleted. It is called
// after a response is written, when the deleted table is no longer
// referenced by the request that deleted it.
func (rl *Releaser) maybeRelease() {
	if rl.pending.Load() < releaseThresholdBytes || !rl.running.CompareAndSwap(false, true) {
		return
	}
	rl.pending.Store(0)
	go func() {
		debug.FreeOSMemory()
		rl.running.Store(false)
		if rl.Done != nil {
			rl.Done()
		}
	}()
}
