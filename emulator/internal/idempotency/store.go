package idempotency

import (
	"log/slog"
	"sync"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// Window is how long a completed token is remembered.
const Window = 10 * time.Minute

// DefaultBytes bounds the memory of the remembered tokens when
// Config.MaxBytes is 0: about 100k tokens of single-table transactions,
// more than 150 transactions a second for the whole ten-minute window.
const DefaultBytes = 32 << 20

// tokenOverheadBytes is what one remembered token costs besides its
// token text and its answer: the map entry, the tokenUse, its place in
// the expiry queue.
const tokenOverheadBytes = 256

// Answer is what a replay of a token's first request answers: only what
// that needs (never the request, nor a table), kept for the token's
// window. It encodes as a JSON object for a saved token (persist.go).
type Answer interface {
	// Bytes estimates the memory the answer holds.
	Bytes() int64
}

// Config configures a Store.
type Config struct {
	// MaxBytes bounds the memory of the tokens kept (0: DefaultBytes).
	MaxBytes int64
	// Window is how long a completed token is remembered (0: Window).
	Window time.Duration
	// Clock is the emulator's clock when it is safe to call from the
	// janitor's goroutine (the real clock); nil: no janitor.
	Clock func() time.Time
	// Logger logs a token that could not be saved (nil: discard).
	Logger *slog.Logger
}

// Store remembers the ClientRequestTokens of every namespace of one
// emulator: tokens of namespaces of type N (a pointer: tokens are per
// namespace), each with the answer A its replays get. Its zero value is
// not ready: use New.
type Store[N comparable, A Answer] struct {
	maxBytes int64
	window   time.Duration
	clock    func() time.Time // the janitor's; nil: none
	log      *slog.Logger

	mu      sync.Mutex                   // guards everything below
	entries map[tokenKey[N]]*tokenUse[A] // running and completed tokens
	queue   []tokenRef[N, A]             // completed tokens, in completion order, from head
	head    int                          // queue[:head] are gone
	bytes   int64                        // sizes of the completed tokens kept
	dead    []deadToken[N]               // forgotten tokens whose saved copies are to be deleted
	running bool                         // the janitor goroutine is running
	closed  bool                         // Close was called: no janitor starts again

	wake chan struct{} // buffered: tells the janitor the clock moved
	stop chan struct{} // closed by close
	done sync.WaitGroup
}

// tokenKey names a token: tokens are per namespace.
type tokenKey[N comparable] struct {
	ns    N
	token string
}

// tokenUse is one token's first successful request, or the one running.
type tokenUse[A Answer] struct {
	fp       [32]byte      // fingerprint of the request
	answer   A             // what a replay answers; valid once completed
	complete bool          // the first request succeeded: answer is set
	at       time.Time     // when it completed; zero while running
	size     int64         // bytes counted for it once completed
	done     chan struct{} // closed when the running request ends
	saved    Meta          // where it is kept across restarts (persist.go); nil: nowhere
}

// tokenRef is a completed token in the expiry queue; use is compared to
// the entry still in the map, so a forgotten and reused token is not
// removed by its old reference.
type tokenRef[N comparable, A Answer] struct {
	key tokenKey[N]
	use *tokenUse[A]
}

// New returns a store with no tokens.
func New[N comparable, A Answer](cfg Config) *Store[N, A] {
	s := &Store[N, A]{
		maxBytes: cfg.MaxBytes,
		window:   cfg.Window,
		clock:    cfg.Clock,
		log:      cfg.Logger,
		entries:  make(map[tokenKey[N]]*tokenUse[A]),
		wake:     make(chan struct{}, 1),
		stop:     make(chan struct{}),
	}
	if s.maxBytes == 0 {
		s.maxBytes = DefaultBytes
	}
	if s.window == 0 {
		s.window = Window
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	return s
}

// Do runs a request under token in namespace ns with run, or answers it
// from the token's earlier use. fp is the request's fingerprint
// (Fingerprint: a request of another operation never matches), now its
// time, kept where ns's completed tokens are saved (nil: nowhere;
// persist.go). It returns run's answer, or, replayed true, the answer
// kept from the token's first request; an earlier use of the token
// with another request is IdempotentParameterMismatchException. Only a
// run that succeeds uses a token up.
func (s *Store[N, A]) Do(ns N, kept Meta, now time.Time, token string, fp [32]byte, run func() (A, error)) (a A, replayed bool, err error) {
	key := tokenKey[N]{ns, token}
	for {
		s.mu.Lock()
		s.expireLocked(now)
		u := s.entries[key]
		if u == nil {
			u = &tokenUse[A]{fp: fp, done: make(chan struct{})}
			s.entries[key] = u
			s.mu.Unlock()
			a, err := s.first(key, u, now, run)
			if err == nil {
				s.save(kept, key, u) // with persistence (persist.go)
			}
			return a, false, err
		}
		if !u.complete {
			done := u.done
			s.mu.Unlock()
			<-done
			continue
		}
		same, answer := u.fp == fp, u.answer
		s.mu.Unlock()
		if !same {
			var zero A
			return zero, false, apierr.New(apierr.ErrIdempotentParameterMismatch, apierr.MsgIdempotentMismatch)
		}
		return answer, true, nil
	}
}

// first runs the token's first request and keeps its answer if it
// succeeded; otherwise the token is forgotten.
func (s *Store[N, A]) first(key tokenKey[N], u *tokenUse[A], now time.Time, run func() (A, error)) (out A, err error) {
	returned := false // false while run panics
	defer func() {
		s.mu.Lock()
		if returned && err == nil {
			u.answer, u.complete = out, true
			u.at = now
			u.size = tokenOverheadBytes + int64(len(key.token)) + out.Bytes()
			s.queue = append(s.queue, tokenRef[N, A]{key, u})
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

// Expire forgets the tokens whose window has ended at now. Call it after
// moving the clock (the emulator's Advance and SetNow); it also wakes
// the janitor, whose next deadline has moved.
func (s *Store[N, A]) Expire(now time.Time) {
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
func (s *Store[N, A]) expireLocked(now time.Time) {
	for s.head < len(s.queue) && now.Sub(s.queue[s.head].use.at) >= s.window {
		s.dropHeadLocked()
	}
}

// trimLocked forgets the oldest tokens until the rest fit maxBytes.
func (s *Store[N, A]) trimLocked() {
	for s.bytes > s.maxBytes && s.head < len(s.queue) {
		s.dropHeadLocked()
	}
}

// dropHeadLocked forgets the oldest completed token.
func (s *Store[N, A]) dropHeadLocked() {
	r := s.queue[s.head]
	s.queue[s.head] = tokenRef[N, A]{}
	s.head++
	if s.entries[r.key] == r.use {
		delete(s.entries, r.key)
		if r.use.saved != nil {
			s.dead = append(s.dead, deadToken[N]{r.key, r.use.saved})
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

// Forget forgets the completed tokens of namespace ns, which is gone (a
// branch dropped), so that nothing keeps it till their window ends. A
// token whose request is still running is its request's.
func (s *Store[N, A]) Forget(ns N) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.head
	for _, r := range s.queue[s.head:] {
		if r.key.ns != ns {
			s.queue[n] = r
			n++
			continue
		}
		if s.entries[r.key] == r.use {
			delete(s.entries, r.key)
			if r.use.saved != nil {
				s.dead = append(s.dead, deadToken[N]{r.key, r.use.saved})
			}
		}
		s.bytes -= r.use.size
	}
	clear(s.queue[n:])
	s.queue = s.queue[:n]
	if s.head == len(s.queue) {
		s.queue, s.head = s.queue[:0], 0
	}
}

// startJanitorLocked starts the janitor if tokens are kept, the clock is
// the real one and none is running.
func (s *Store[N, A]) startJanitorLocked() {
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
func (s *Store[N, A]) janitor() {
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

// Close stops the janitor and keeps it from starting again; the store
// still answers requests, expiring tokens as they come. Safe to call more
// than once.
func (s *Store[N, A]) Close() {
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		close(s.stop)
	}
	s.mu.Unlock()
	s.done.Wait()
}

// Stats reports the completed tokens kept and their bytes.
func (s *Store[N, A]) Stats() (tokens int, bytes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue) - s.head, s.bytes
}
