package idempotency

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/stretchr/testify/require"
)

// space is a namespace of the tests.
type space struct{ name string }

// answer is a test's Answer: the number of the run it came from.
type answer struct {
	Run int `json:"run"`
}

func (a *answer) Bytes() int64 { return 8 }

// countingRun is a request's body for the store's tests: each run
// answers with its own number.
type countingRun struct{ runs int }

func (c *countingRun) run() (*answer, error) {
	c.runs++
	return &answer{Run: c.runs}, nil
}

func newStore(cfg Config) *Store[*space, *answer] { return New[*space, *answer](cfg) }

func TestStoreBoundedByBytes(t *testing.T) {
	ns := &space{"a"}
	now := time.Unix(1_800_000_000, 0)
	var one int64
	{
		s := newStore(Config{MaxBytes: 1 << 20})
		var c countingRun
		_, _, err := s.Do(ns, nil, now, "tok0", Fingerprint("req"), c.run)
		require.NoError(t, err)
		_, one = s.Stats()
	}
	s := newStore(Config{MaxBytes: 4 * one}) // room for four tokens
	var c countingRun
	for i := range 10 {
		_, _, err := s.Do(ns, nil, now, fmt.Sprint("tok", i), Fingerprint("req"), c.run)
		require.NoError(t, err)
	}
	n, b := s.Stats()
	require.Equal(t, 4, n, "tokens kept after 10 in room for 4")
	require.Equal(t, 4*one, b, "bytes kept")

	tests := []struct {
		name         string
		ns           *space
		token, req   string
		wantRun      int
		wantReplayed bool
		wantRuns     int
	}{
		{"a kept token replays without running", ns, "tok9", "req", 10, true, 10},
		{"a forgotten token runs again", ns, "tok0", "req", 11, false, 11},
		{"the same token in another namespace runs", &space{"b"}, "tok9", "other", 12, false, 12},
	}
	for _, tt := range tests {
		a, replayed, err := s.Do(tt.ns, nil, now, tt.token, Fingerprint(tt.req), c.run)
		require.NoError(t, err, tt.name)
		require.Equal(t, tt.wantRun, a.Run, tt.name)
		require.Equal(t, tt.wantReplayed, replayed, tt.name)
		require.Equal(t, tt.wantRuns, c.runs, tt.name)
	}
	_, _, err := s.Do(ns, nil, now, "tok9", Fingerprint("other"), c.run)
	require.ErrorIs(t, err, apierr.ErrIdempotentParameterMismatch, "another request under a kept token")
}

// TestStoreFailedRunLeavesTokenFree: only a run that succeeds uses a
// token up.
func TestStoreFailedRunLeavesTokenFree(t *testing.T) {
	s := newStore(Config{})
	ns, now := &space{"a"}, time.Unix(1_800_000_000, 0)
	_, _, err := s.Do(ns, nil, now, "tok", Fingerprint("req"), func() (*answer, error) { return nil, apierr.ErrValidation })
	require.ErrorIs(t, err, apierr.ErrValidation)
	a, replayed, err := s.Do(ns, nil, now, "tok", Fingerprint("other"), func() (*answer, error) { return &answer{Run: 2}, nil })
	require.NoError(t, err)
	require.False(t, replayed)
	require.Equal(t, 2, a.Run)
}

// TestStoreWaitsForRunningToken: a second request under a token whose
// first request is running waits for it, then replays its answer.
func TestStoreWaitsForRunningToken(t *testing.T) {
	s := newStore(Config{})
	ns, now := &space{"a"}, time.Unix(1_800_000_000, 0)
	started, release := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, _, err := s.Do(ns, nil, now, "tok", Fingerprint("req"), func() (*answer, error) {
			close(started)
			<-release
			return &answer{Run: 1}, nil
		})
		require.NoError(t, err)
	}()
	<-started
	done := make(chan *answer)
	go func() {
		a, replayed, err := s.Do(ns, nil, now, "tok", Fingerprint("req"), func() (*answer, error) { return &answer{Run: 2}, nil })
		require.NoError(t, err)
		require.True(t, replayed)
		done <- a
	}()
	close(release)
	require.Equal(t, 1, (<-done).Run)
	wg.Wait()
}

// TestStoreExpire: moving the clock past a token's window forgets it at
// once, without another request; a store without a clock never runs a
// janitor.
func TestStoreExpire(t *testing.T) {
	s := newStore(Config{})
	ns, base := &space{"a"}, time.Unix(1_800_000_000, 0)
	var c countingRun
	_, _, err := s.Do(ns, nil, base.Add(-5*time.Minute), "a", Fingerprint("req"), c.run)
	require.NoError(t, err)
	_, _, err = s.Do(ns, nil, base, "b", Fingerprint("req"), c.run)
	require.NoError(t, err)
	steps := []struct {
		name string
		at   time.Time
		want int
	}{
		{"both kept", base.Add(4 * time.Minute), 2},
		{"first window ends", base.Add(5 * time.Minute), 1},
		{"back in time keeps the rest", base.Add(-55 * time.Minute), 1},
		{"second window ends", base.Add(10 * time.Minute), 0},
	}
	for _, st := range steps {
		s.Expire(st.at)
		got, _ := s.Stats()
		require.Equal(t, st.want, got, st.name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	require.False(t, s.running, "a janitor runs without Config.Clock")
}

// TestStoreForget: Forget forgets a namespace's completed tokens, and
// only its: they run again, the others replay; the bytes kept are the
// others'.
func TestStoreForget(t *testing.T) {
	s := newStore(Config{})
	gone, kept, now := &space{"gone"}, &space{"kept"}, time.Unix(1_800_000_000, 0)
	var c countingRun
	for i := range 3 {
		for _, ns := range []*space{gone, kept} {
			_, _, err := s.Do(ns, nil, now, fmt.Sprint("tok", i), Fingerprint("req"), c.run)
			require.NoError(t, err)
		}
	}
	n, b := s.Stats()
	require.Equal(t, 6, n)
	s.Forget(gone)
	got, left := s.Stats()
	require.Equal(t, 3, got)
	require.Equal(t, b/2, left)
	s.mu.Lock()
	for _, r := range s.queue[s.head:] {
		require.Same(t, kept, r.key.ns, "a reference to the namespace forgotten")
	}
	s.mu.Unlock()
	_, replayed, err := s.Do(kept, nil, now, "tok1", Fingerprint("req"), c.run)
	require.NoError(t, err)
	require.True(t, replayed)
	_, replayed, err = s.Do(gone, nil, now, "tok1", Fingerprint("req"), c.run)
	require.NoError(t, err)
	require.False(t, replayed)
	s.Expire(now.Add(Window))
	got, left = s.Stats()
	require.Zero(t, got)
	require.Zero(t, left)
}

// TestStoreJanitor: with the real clock, tokens are forgotten as their
// window ends with no request and no clock move; the janitor stops when
// none is left and on Close.
func TestStoreJanitor(t *testing.T) {
	s := newStore(Config{Clock: time.Now, Window: 20 * time.Millisecond})
	ns := &space{"a"}
	var c countingRun
	for i := range 3 {
		_, _, err := s.Do(ns, nil, time.Now(), fmt.Sprint("tok", i), Fingerprint("req"), c.run)
		require.NoError(t, err)
	}
	running := func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.running
	}
	waitFor(t, "the janitor to forget every token", func() bool {
		n, b := s.Stats()
		return n == 0 && b == 0 && !running()
	})
	// A new token starts it again; Close stops it and keeps it stopped.
	s.window = time.Hour
	_, _, err := s.Do(ns, nil, time.Now(), "again", Fingerprint("req"), c.run)
	require.NoError(t, err)
	require.True(t, running(), "no janitor for a kept token")
	s.Close()
	s.Close()
	require.False(t, running(), "janitor still running after Close")
	_, _, err = s.Do(ns, nil, time.Now(), "after close", Fingerprint("req"), c.run)
	require.NoError(t, err)
	require.False(t, running(), "a janitor started after Close")
}

// waitFor polls cond until it holds, failing the test if it never does
// within a generous time (a hang, not a timing assertion).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
