package lag

import (
	"math"
	"math/rand/v2"
	"time"
)

// Fuzz mode: a seeded random lag for consistency fuzzing. Each commit
// stamped in fuzz mode draws, from the gate's own generator, how many
// reads of the view (Read) it stays hidden from, at least one, and a
// time by which it is shown whatever the reads: so a read right after a
// write never sees it, a reader that tries again sees it after a few
// tries, and no commit waits longer than the bound. The draws depend
// only on the seed and the order of the view's commits, and what a read
// sees only on them and the order of reads and commits, never on how
// fast they come (unless a commit outlives its time bound): the same
// seed and the same requests give the same stale reads.

// Fuzz configures fuzz mode: Seed seeds the gate's generator; each
// commit is hidden from its next 1 to MaxReads reads of the view, and
// shown by MinDelay to MaxDelay after it, on the gate's clock (a
// MaxDelay of 0: by reads only).
type Fuzz struct {
	Seed               uint64
	MaxReads           int
	MinDelay, MaxDelay time.Duration
}

// fuzzer is a gate's fuzz mode: its settings and generator (guarded by
// the gate's mu).
type fuzzer struct {
	f   Fuzz
	rng *rand.Rand
}

// SetFuzz puts the gate in fuzz mode with f (ending a delay or a Hold).
// MaxReads below 1 is 1; a MaxDelay below MinDelay is MinDelay.
func (g *Gate) SetFuzz(f Fuzz) {
	f.MaxReads = max(f.MaxReads, 1)
	f.MinDelay = max(f.MinDelay, 0)
	f.MaxDelay = max(f.MaxDelay, f.MinDelay)
	g.switchMode(func() {
		g.delay, g.held = 0, false
		g.fuzz = &fuzzer{f: f, rng: rand.New(rand.NewPCG(f.Seed, f.Seed^0x9e3779b97f4a7c15))}
		g.advanceLocked()
	})
}

// Fuzzing reports whether the gate is in fuzz mode.
func (g *Gate) Fuzzing() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.fuzz != nil
}

// Read counts one read of the view, made before the view is read: in
// fuzz mode it may show commits whose reads are done. It returns the
// number of the read (from 1).
func (g *Gate) Read() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reads++
	return g.reads
}

// draw is the stamp of commit seq, made at now (Unix nanoseconds) after
// reads reads of the view.
func (z *fuzzer) draw(seq uint64, now int64, reads uint64) stamp {
	k := 1 + z.rng.IntN(z.f.MaxReads)
	if z.f.MaxDelay == 0 {
		return stamp{seq: seq, at: math.MaxInt64, reads: reads + uint64(k) + 1}
	}
	d := z.f.MinDelay
	if span := z.f.MaxDelay - z.f.MinDelay; span > 0 {
		d += time.Duration(z.rng.Int64N(int64(span) + 1))
	}
	return stamp{seq: seq, at: now + int64(d), reads: reads + uint64(k) + 1}
}
