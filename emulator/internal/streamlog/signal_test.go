package streamlog

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// TestLogChanged: a log's change channel is closed by its next record and
// by its disabling, not by reads, and a new one is handed out after.
func TestLogChanged(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	l := New(time.Hour)
	ch := l.Changed()
	require.True(t, ch == l.Changed(), "one channel until the next change")
	l.Read(FirstSequenceNumber, 10, 1<<20, now, func(*Record) int { return 1 })
	l.Bounds(now)
	require.False(t, closed(ch), "a read changes nothing")
	l.Append(Record{At: now.Unix()}, now)
	require.True(t, closed(ch))
	ch2 := l.Changed()
	require.False(t, closed(ch2))
	l.Disable(now)
	require.True(t, closed(ch2))
}

// TestSignalNoLostWakeup: waiters that take the channel before they look
// and wait on it after never miss a change made in between, with
// changes and waiters concurrent.
func TestSignalNoLostWakeup(t *testing.T) {
	var s Signal
	var mu sync.Mutex
	version := 0
	const writers, rounds = 4, 500
	done := make(chan struct{})
	go func() { // a reader that must see the last version
		defer close(done)
		for {
			ch := s.Changed()
			mu.Lock()
			v := version
			mu.Unlock()
			if v == writers*rounds {
				return
			}
			<-ch
		}
	}()
	var wg sync.WaitGroup
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range rounds {
				mu.Lock()
				version++
				mu.Unlock()
				s.Notify()
			}
		}()
	}
	wg.Wait()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the reader missed the last change") // a bound that only catches a hang
	}
}
