package emulator

import (
	"math/rand/v2"
	"testing"
)

// TestRecordLog checks recordLog against a slice under random pushes and
// drops (seed printed).
func TestRecordLog(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	var l recordLog
	var model []uint64
	next := uint64(0)
	for step := 0; step < 20000; step++ {
		if rng.IntN(3) > 0 {
			l.push(streamRecord{seq: next, at: int64(next)})
			model = append(model, next)
			next++
		} else if len(model) > 0 {
			k := rng.IntN(min(len(model), 600) + 1)
			l.dropFront(k)
			model = model[k:]
		}
		if l.len() != len(model) {
			t.Fatalf("step %d: got len %d, want %d", step, l.len(), len(model))
		}
		if len(model) > 0 {
			for _, i := range []int{0, len(model) / 2, len(model) - 1} {
				if got := l.at(i).seq; got != model[i] {
					t.Fatalf("step %d: at(%d) = %d, want %d", step, i, got, model[i])
				}
			}
			if got, want := l.firstAtOrAfter(int64(model[0])+1), min(1, len(model)); got != want {
				t.Fatalf("step %d: firstAtOrAfter = %d, want %d", step, got, want)
			}
		}
		if len(l.chunks) > len(model)/logChunk+2 {
			t.Fatalf("step %d: %d chunks for %d records", step, len(l.chunks), len(model))
		}
	}
}
