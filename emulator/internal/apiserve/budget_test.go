package apiserve

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestByteBudgetOrder: requests that do not fit wait in order of arrival
// (a small one does not pass a large one waiting before it), a request
// larger than the budget reserves the whole budget, and a wait that ends
// lets those behind it in.
func TestByteBudgetOrder(t *testing.T) {
	b := &Budget{Max: 100}
	b.Wait.Store(int64(time.Minute))
	ctx := context.Background()

	got, ok := b.acquire(ctx, 1000)
	require.True(t, ok)
	require.Equal(t, int64(100), got, "a request over the budget reserves the whole budget")

	large, small := make(chan int64), make(chan int64)
	go func() { n, _ := b.acquire(ctx, 60); large <- n }()
	waitWaiters(t, b, 1)
	go func() { n, _ := b.acquire(ctx, 10); small <- n }()
	waitWaiters(t, b, 2)

	b.release(got)
	require.Equal(t, int64(60), <-large)
	require.Equal(t, int64(10), <-small)
	used, waiting := b.Reserved()
	require.Equal(t, int64(70), used)
	require.Zero(t, waiting)

	// A waiter whose context ends leaves the queue; the one behind it,
	// which fits, is let in.
	cctx, cancel := context.WithCancel(ctx)
	refused := make(chan bool)
	go func() { _, ok := b.acquire(cctx, 50); refused <- !ok }()
	waitWaiters(t, b, 1)
	fits := make(chan int64)
	go func() { n, _ := b.acquire(ctx, 30); fits <- n }()
	waitWaiters(t, b, 2)
	cancel()
	require.True(t, <-refused)
	require.Equal(t, int64(30), <-fits)
	require.Equal(t, int64(1), b.Throttled.Load())
	b.release(100)
	used, _ = b.Reserved()
	require.Zero(t, used)
	require.Equal(t, int64(100), b.Peak.Load())
}

func waitWaiters(t *testing.T, b *Budget, n int) {
	t.Helper()
	for {
		if _, w := b.Reserved(); w == n {
			return
		}
		time.Sleep(time.Millisecond) // polling, bounded by the test deadline
	}
}
