package lag

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// fuzzRun stamps and reads a gate in fuzz mode by a script ("w" stamps,
// "r" reads) and returns what each read saw.
func fuzzRun(seed uint64, script string) []uint64 {
	c := newClock()
	g := NewGate(c.Now)
	g.SetFuzz(Fuzz{Seed: seed, MaxReads: 3, MinDelay: 100 * time.Millisecond, MaxDelay: time.Second})
	var seen []uint64
	for _, op := range script {
		switch op {
		case 'w':
			g.Stamp()
		case 'r':
			g.Read()
			seen = append(seen, g.Visible())
		}
	}
	return seen
}

func TestFuzzHidesTheNextRead(t *testing.T) {
	for seed := range uint64(50) {
		seen := fuzzRun(seed, "wr")
		require.Equal(t, []uint64{0}, seen, "seed %d: the first read after a write sees it", seed)
	}
}

func TestFuzzShowsWithinMaxReads(t *testing.T) {
	for seed := range uint64(50) {
		seen := fuzzRun(seed, "wrrrr")
		require.Equal(t, uint64(1), seen[3], "seed %d: a write is hidden from at most 3 reads: %v", seed, seen)
	}
}

func TestFuzzSameSeedSameView(t *testing.T) {
	const script = "wwrwrrwwrrrwrrrrrwrwwr"
	a, b := fuzzRun(7, script), fuzzRun(7, script)
	require.Equal(t, a, b)
	differ := false
	for seed := range uint64(20) {
		differ = differ || !equal(fuzzRun(seed, script), a)
	}
	require.True(t, differ, "some seed sees another history than seed 7")
}

func equal(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestFuzzTimeBound(t *testing.T) {
	c := newClock()
	g := NewGate(c.Now)
	g.SetFuzz(Fuzz{Seed: 1, MaxReads: 3, MinDelay: 100 * time.Millisecond, MaxDelay: time.Second})
	g.Stamp()
	require.Equal(t, uint64(0), g.Visible())
	require.False(t, g.Idle())
	c.Advance(time.Second)
	require.Equal(t, uint64(1), g.Visible(), "no commit waits past MaxDelay")
	g.SetDelay(0)
	require.False(t, g.Fuzzing())
	require.True(t, g.Idle())
}

func TestFuzzInOrder(t *testing.T) {
	// A later commit is never seen before an earlier one.
	for seed := range uint64(30) {
		c := newClock()
		g := NewGate(c.Now)
		g.SetFuzz(Fuzz{Seed: seed, MaxReads: 5})
		for range 10 {
			g.Stamp()
		}
		last := uint64(0)
		for range 20 {
			g.Read()
			v := g.Visible()
			require.GreaterOrEqual(t, v, last)
			last = v
		}
		require.Equal(t, uint64(10), last)
	}
}
