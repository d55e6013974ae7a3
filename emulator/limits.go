package emulator

// What one client can make the emulator hold, and how it lets go:
//
//   - request bodies grow as their bytes arrive (readBody): a
//     Content-Length alone reserves at most initialBodyBytes, and a body
//     that arrives as announced ends in a buffer of its size; a
//     transaction far over its 100 actions keeps only its first actions
//     as it arrives (service.ListCutOf);
//   - placeholder maps over AWS's 2 MB are refused after a scan that
//     keeps nothing (internal/wire), so decoding never costs a map
//     entry per placeholder of a huge request;
//   - ClientRequestTokens keep a fingerprint and a replay's answer, at most
//     Options.IdempotencyBytes in all, forgotten as the clock passes their
//     window (internal/service);
//   - at most Options.MaxInFlight requests are served at once; the next
//     gets AWS's ThrottlingException, which the SDKs retry with back-off,
//     instead of queueing without bound. A request counts once its body
//     has arrived: bodies still arriving hold only their bytes so far and
//     a goroutine, until the server's read timeout cuts them off, so
//     clients trickling bodies never take the slots of requests ready to
//     be served;
//   - access keys are letters and digits, at most 128 of them (internal/sigv4/credential.go), and
//     a namespace is created by the first table, not by a read
//     (internal/service);
//   - after DeleteTable of a large table the freed heap is handed back to
//     the operating system at once (releaseAfterDelete);
//   - the HTTP server (httpserver.go) bounds headers and cuts off slow or
//     silent connections.

import (
	"errors"
	"runtime/debug"
	"sync/atomic"
)

// initialBodyBytes is the most a request body buffer reserves before its
// bytes arrive: enough for a typical request in one allocation.
const initialBodyBytes = 8 << 10

// DefaultMaxInFlight is the in-flight request limit of cmd/dynamoemu: far
// above what a test suite or a developer's application sends at once.
const DefaultMaxInFlight = 1024

// releaseThresholdBytes: after DeleteTable frees at least this many bytes of
// items (storage.Table.SizeBytes), the heap is returned to the operating
// system. The Go runtime does it by itself only over minutes.
const releaseThresholdBytes = 32 << 20

// limiter counts the requests in flight, and those whose body is still
// arriving (not limited: for tests and reports).
type limiter struct {
	max      int64 // 0: no limit
	inFlight atomic.Int64
	reading  atomic.Int64
}

// enter admits a request, reporting false when max are in flight already.
// Every admitted request calls leave.
func (l *limiter) enter() bool {
	n := l.inFlight.Add(1)
	if l.max > 0 && n > l.max {
		l.inFlight.Add(-1)
		return false
	}
	return true
}

func (l *limiter) leave() { l.inFlight.Add(-1) }

// releaser hands freed memory back to the operating system after large
// deletes, one debug.FreeOSMemory at a time.
type releaser struct {
	pending atomic.Int64 // bytes deleted since the last release
	running atomic.Bool
	done    func() // test hook, called after each release; nil otherwise
}

// deleted records that a table of size bytes is gone.
func (rl *releaser) deleted(size int64) { rl.pending.Add(size) }

// maybeRelease starts a release when enough was deleted. It is called
// after a response is written, when the deleted table is no longer
// referenced by the request that deleted it.
func (rl *releaser) maybeRelease() {
	if rl.pending.Load() < releaseThresholdBytes || !rl.running.CompareAndSwap(false, true) {
		return
	}
	rl.pending.Store(0)
	go func() {
		debug.FreeOSMemory()
		rl.running.Store(false)
		if rl.done != nil {
			rl.done()
		}
	}()
}

// namespaceCount is the number of namespaces created (for tests and the
// soak program's reports).
func (e *Emulator) namespaceCount() int {
	return e.svc.NamespaceCount()
}

// errBodyCutOff: the request body stopped arriving before the server's read
// deadline. It is not an API error: the connection is dropped unanswered.
var errBodyCutOff = errors.New("emulator: request body cut off")
