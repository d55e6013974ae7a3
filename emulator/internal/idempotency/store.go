package service

import (
	"sync"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// ClientRequestToken idempotency of TransactWriteItems and of
// ExecuteTransaction's writes. As the API reference describes it: a token
// is valid for 10 minutes after the first request that uses it completes;
// within that window the same token with the same request answers success
// again without writing, and the same token with any other parameter
// changed answers IdempotentParameterMismatchException. Only successful
// transactions use up a token: a cancelled or refused one leaves it free.
// Tokens are per namespace (AWS: per account and region).
//
// What is kept per token is fixed in size: a SHA-256 fingerprint of the
// request as decoded (fingerprint.go: the order of JSON members and map
// entries does not matter; the token itself and ReturnConsumedCapacity
// are left out) and what a replay answers: the read capacity of the items
// written, per table name, and the item collection metrics. The request
// and its items are never kept. A replay reports capacity in its own mode,
// as the read of the items written (AWS's accounting as recorded in
// paritysuite/dynamodb-conformance#67 and #74). A second request with a
// token whose first request is still running waits for it and then
// answers as above.
//
// Bounds (the memory model in docs/performance.md):
//   - all namespaces share one store of at most Config.IdempotencyBytes
//     (DefaultIdempotencyBytes): past it the oldest tokens are forgotten
//     early, and a replay of a forgotten token runs as a new request;
//   - a token is forgotten when the emulator's clock passes the end of its
//     window, without waiting for another request: Advance and SetNow
//     expire tokens at once, and with the real clock (Config.RealClock) a
//     janitor goroutine sleeps until the oldest token's window ends. The
//     janitor runs only while tokens are kept and stops on Close. With
//     a test's clock (Config.RealClock false), the service never calls
//     that clock from a goroutine of its own (a clock moved between
//     requests would race with it): tokens then expire when Advance or
//     SetNow moves the clock (ClockMoved), or at the next request with a
//     token.

// idempotencyWindow is how long a completed token is remembered.
const idempotencyWindow = 10 * time.Minute

// DefaultIdempotencyBytes bounds the memory of the remembered
// ClientRequestTokens of an emulator when Config.IdempotencyBytes is 0:
// about 100k tokens of single-table transactions, more than 150
// transactions a second for the whole ten-minute window.
const DefaultIdempotencyBytes = 32 << 20

// tokenOverheadBytes is what one remembered token costs besides its
// token text and its answer: the map entry, the tokenUse, its place in
// the expiry queue.
const tokenOverheadBytes = 256

// tokenStore remembers the ClientRequestTokens of every namespace of one
// emulator. Its zero value is not ready: use newTokenStore.
type tokenStore struct {
	maxBytes int64
	window   time.Duration
	// clock is the emulator's clock when it is safe to call from the
	// janitor (the real clock); nil unless Config.RealClock.
	clock func() time.Time

	mu      sync.Mutex             // guards everything below
	entries map[tokenKey]*tokenUse // running and completed tokens
	queue   []tokenRef             // completed tokens, in completion order, from head
	head    int                    // queue[:head] are gone
	bytes   int64                  // sizes of the completed tokens kept
	dead    []tokenKey             // forgotten tokens whose saved copies are to be deleted
	running bool                   // the janitor goroutine is running
	closed  bool                   // Close was called: no janitor starts again

	wake chan struct{} // buffered: tells the janitor the clock moved
	stop chan struct{} // closed by close
	done sync.WaitGroup
}

// tokenKey names a token: tokens are per namespace.
type tokenKey struct {
	ns    *Namespace
	token string
}

// tokenUse is one token's first successful request, or the one running.
type tokenUse struct {
	fp     [32]byte                  // fingerprint of the request
	answer *TransactWriteItemsOutput // what a replay answers (replayable); nil while running
	at     time.Time                 // when it completed; zero while running
	size   int64                     // bytes counted for it once completed
	done   chan struct{}             // closed when the running request ends
	saved  bool                      // kept in its namespace's DB (idempotency_persist.go)
}

// tokenRef is a completed token in the expiry queue; use is compared to
// the entry still in the map, so a forgotten and reused token is not
// removed by its old reference.
type tokenRef struct {
	key tokenKey
	use *tokenUse
}

func newTokenStore(maxBytes int64, clock func() time.Time) *tokenStore {
	return &tokenStore{
		maxBytes: maxBytes,
		window:   idempotencyWindow,
		clock:    clock,
		entries:  make(map[tokenKey]*tokenUse),
		wake:     make(chan struct{}, 1),
		stop:     make(chan struct{}),
	}
}

// do runs a request under token with run, or answers it from the token's
// earlier use. fp is the request's fingerprint (a request of another
// operation never matches), mode its ReturnConsumedCapacity, now its time.
func (s *tokenStore) do(ns *Namespace, now time.Time, token string, fp [32]byte, mode string, run func() (*TransactWriteItemsOutput, error)) (*TransactWriteItemsOutput, error) {
	key := tokenKey{ns, token}
	for {
		s.mu.Lock()
		s.expireLocked(now)
		u := s.entries[key]
		if u == nil {
			u = &tokenUse{fp: fp, done: make(chan struct{})}
			s.entries[key] = u
			s.mu.Unlock()
			out, err := s.first(key, u, now, run)
			if err == nil {
				s.save(key, u) // with persistence (idempotency_persist.go)
			}
			return out, err
		}
		if u.answer == nil {
			done := u.done
			s.mu.Unlock()
			<-done
			continue
		}
		same, answer := u.fp == fp, u.answer
		s.mu.Unlock()
		if !same {
			return nil, apierr.New(apierr.ErrIdempotentParameterMismatch, apierr.MsgIdempotentMismatch)
		}
		return answer.replay(mode), nil
	}
}

// first runs the token's first request and keeps what a replay answers if
// it succeeded; otherwise the token is forgotten.
func (s *tokenStore) first(key tokenKey, u *tokenUse, now time.Time, run func() (*TransactWriteItemsOutput, error)) (out *TransactWriteItemsOutput, err error) {
	returned := false // false while run panics
	defer func() {
		s.mu.Lock()
		if returned && err == nil {
			u.answer = out.replayable()
			u.at = now
			u.size = tokenOverheadBytes + int64(len(key.token)) + u.answer.replayBytes()
			s.queue = append(s.queue, tokenRef{key, u})
			s.bytes += u.size
			s.trimLocked()
			s.startJanitorLocked()
		} else {
			delete(s.entries, key)
		}
		s.mu.Unlock()
		close(u.done)
	}()
	out, err = run()
	returned = true
	return out, err
}

// expire forgets the tokens whose window has ended at now. Advance and
// SetNow call it after moving the clock; it also wakes the janitor, whose
// next deadline has moved.
func (s *tokenStore) expire(now time.Time) {
	s.mu.Lock()
	s.expireLocked(now)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// expireLocked forgets the tokens completed a window or more before now,
// oldest first. Tokens complete in queue order; after the clock has been
// moved back, a token behind one that has not expired waits for it.
func (s *tokenStore) expireLocked(now time.Time) {
	for s.head < len(s.queue) && now.Sub(s.queue[s.head].use.at) >= s.window {
		s.dropHeadLocked()
	}
}

// trimLocked forgets the oldest tokens until the rest fit maxBytes.
func (s *tokenStore) trimLocked() {
	for s.bytes > s.maxBytes && s.head < len(s.queue) {
		s.dropHeadLocked()
	}
}

// dropHeadLocked forgets the oldest completed token.
func (s *tokenStore) dropHeadLocked() {
	r := s.queue[s.head]
	s.queue[s.head] = tokenRef{}
	s.head++
	if s.entries[r.key] == r.use {
		delete(s.entries, r.key)
		if r.use.saved {
			s.dead = append(s.dead, r.key)
		}
	}
	s.bytes -= r.use.size
	if s.head == len(s.queue) {
		s.queue, s.head = s.queue[:0], 0
	} else if s.head > 1024 && s.head > len(s.queue)/2 {
		n := copy(s.queue, s.queue[s.head:])
		clear(s.queue[n:])
		s.queue, s.head = s.queue[:n], 0
	}
}

// startJanitorLocked starts the janitor if tokens are kept, the clock is
// the real one and none is running.
func (s *tokenStore) startJanitorLocked() {
	if s.running || s.closed || s.clock == nil || s.head == len(s.queue) {
		return
	}
	s.running = true
	s.done.Add(1)
	go s.janitor()
}

// janitor forgets tokens as their windows end, sleeping until the oldest
// one's end (or until the clock is moved), and returns when none is left
// or the store is closed.
func (s *tokenStore) janitor() {
	defer s.done.Done()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		s.mu.Lock()
		now := s.clock()
		s.expireLocked(now)
		if s.head == len(s.queue) {
			s.running = false
			s.mu.Unlock()
			return
		}
		wait := s.queue[s.head].use.at.Add(s.window).Sub(now)
		s.mu.Unlock()
		timer.Reset(max(wait, time.Millisecond))
		select {
		case <-timer.C:
		case <-s.wake:
		case <-s.stop:
			s.mu.Lock()
			s.running = false
			s.mu.Unlock()
			return
		}
	}
}

// close stops the janitor and keeps it from starting again; the store
// still answers requests, expiring tokens as they come. Safe to call more
// than once.
func (s *tokenStore) close() {
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		close(s.stop)
	}
	s.mu.Unlock()
	s.done.Wait()
}

// stats reports the completed tokens kept and their bytes (tests).
func (s *tokenStore) stats() (tokens int, bytes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue) - s.head, s.bytes
}

// replayable is what a replay of o's request answers: its item collection
// metrics and the read capacity of the items written, per table name.
// Nothing refers to a table or to the request.
func (o *TransactWriteItemsOutput) replayable() *TransactWriteItemsOutput {
	return &TransactWriteItemsOutput{ItemCollectionMetrics: o.ItemCollectionMetrics, replayReads: o.replayReads}
}

// replayBytes estimates the memory of a replayable answer.
func (o *TransactWriteItemsOutput) replayBytes() int64 {
	n := int64(64 + 40*len(o.replayReads))
	for _, u := range o.replayReads {
		n += int64(len(u.table))
	}
	for name, list := range o.ItemCollectionMetrics {
		n += int64(64 + len(name) + 24*len(list))
		for _, m := range list {
			n += int64(64 + 8*len(m.SizeEstimateRangeGB))
			for attr, v := range m.ItemCollectionKey {
				n += int64(64 + len(attr) + storage.ValueSize(v))
			}
		}
	}
	return n
}
