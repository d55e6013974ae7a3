package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBurstWatch: memory is returned once a burst has ended (two quiet
// seconds), never while allocations go on, and not again without a new
// burst.
func TestBurstWatch(t *testing.T) {
	const mb = 1 << 20
	var w burstWatch
	allocs := uint64(10 * mb)
	live, objects, free := uint64(300*mb), uint64(500*mb), uint64(100*mb)
	tick := func(step uint64) bool {
		allocs += step
		return w.tick(allocs, live, objects, free)
	}
	require.False(t, tick(0), "the process's start allocated 10 MB")
	for range 100 { // a steady workload: 8 MB a second
		require.False(t, tick(8*mb))
	}
	require.False(t, tick(0), "one quiet second is not the end of a burst")
	require.True(t, tick(0), "two are")
	for range 30 {
		require.False(t, tick(0), "idle after the return")
	}
	for range 9 { // 72 MB: less than a quarter of the live heap
		require.False(t, tick(8*mb))
	}
	require.False(t, tick(0))
	require.False(t, tick(0), "no burst since the return")

	// Enough allocated, but nothing to give back.
	w = burstWatch{}
	allocs, objects, free = 0, live, 0
	require.False(t, tick(400*mb))
	require.False(t, tick(0))
	require.False(t, tick(0), "nothing to return")
	free = 64 * mb
	require.True(t, tick(0))

	// A large heap: a thirty-second of it is worth returning (a
	// 10M-item load leaves about 4%), less is not.
	w = burstWatch{}
	live = 3000 * mb
	allocs, objects, free = 0, live+60*mb, 30*mb
	require.False(t, tick(1000*mb))
	require.False(t, tick(0))
	require.False(t, tick(0), "90 MB of 3 GB is under a thirty-second")
	free = 40 * mb
	require.True(t, tick(0), "100 MB of 3 GB is over it")
}
