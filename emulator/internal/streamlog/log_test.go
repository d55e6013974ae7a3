package streamlog

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"
)

// TestChunks checks chunks against a slice under random pushes and
// drops (seed printed).
func TestChunks(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	var l chunks
	var model []uint64
	next := uint64(0)
	for step := 0; step < 20000; step++ {
		if rng.IntN(3) > 0 {
			l.push(Record{Seq: next, At: int64(next)})
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
				if got := l.at(i).Seq; got != model[i] {
					t.Fatalf("step %d: at(%d) = %d, want %d", step, i, got, model[i])
				}
			}
			if got, want := l.firstAtOrAfter(int64(model[0])+1), min(1, len(model)); got != want {
				t.Fatalf("step %d: firstAtOrAfter = %d, want %d", step, got, want)
			}
		}
		if len(l.chunks) > len(model)/chunkLen+2 {
			t.Fatalf("step %d: %d chunks for %d records", step, len(l.chunks), len(model))
		}
	}
}

// TestLog checks a Log's numbering, reads, trimming and closing.
func TestLog(t *testing.T) {
	start := time.Unix(1_800_000_000, 0)
	l := New(time.Hour)
	size := func(*Record) int { return 10 }
	for i := range 5 {
		l.Append(Record{At: start.Add(time.Duration(i) * 20 * time.Minute).Unix()}, start.Add(time.Duration(i)*20*time.Minute))
	}
	// Records at 0, 20, 40, 60 and 80 minutes: at 80, the first is older
	// than the hour's retention (the one of exactly an hour ago is kept).
	now := start.Add(80 * time.Minute)
	if first, next := l.Bounds(now); first != 2 || next != 6 {
		t.Fatalf("Bounds: got %d, %d, want 2, 6", first, next)
	}
	if _, _, _, err := l.Read(1, 10, 1000, now, size); !errors.Is(err, ErrTrimmed) {
		t.Fatalf("Read(1): got %v, want ErrTrimmed", err)
	}
	recs, pos, closed, err := l.Read(3, 2, 1000, now, size)
	if err != nil || len(recs) != 2 || recs[0].Seq != 3 || recs[1].Seq != 4 || pos != 5 || closed {
		t.Fatalf("Read(3, limit 2): got %d records from %v, pos %d, closed %v, %v", len(recs), recs, pos, closed, err)
	}
	recs, pos, _, _ = l.Read(3, 10, 15, now, size) // at least one record, then no more than 15 bytes
	if len(recs) != 1 || pos != 4 {
		t.Fatalf("Read(3, 15 bytes): got %d records, pos %d, want 1, 4", len(recs), pos)
	}
	if open, last, gone := l.State(now); !open || last != 0 || gone {
		t.Fatalf("State while open: got %v, %d, %v", open, last, gone)
	}
	l.Disable(now)
	l.Disable(now.Add(time.Minute)) // the first time stays
	if open, last, gone := l.State(now.Add(59 * time.Minute)); open || last != 5 || gone {
		t.Fatalf("State after Disable: got %v, %d, %v, want false, 5, false", open, last, gone)
	}
	if _, _, closed, _ := l.Read(6, 10, 1000, now, size); !closed {
		t.Fatal("Read at the end of a disabled log: not closed")
	}
	if _, _, gone := l.State(now.Add(time.Hour)); !gone {
		t.Fatal("State a retention after Disable: not gone")
	}
}

func TestSkipTo(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	l := New(time.Hour)
	l.SkipTo(1000)
	if first, next := l.Bounds(now); first != 1000 || next != 1000 {
		t.Fatalf("Bounds after SkipTo(1000): got %d, %d, want 1000, 1000", first, next)
	}
	l.Append(Record{At: now.Unix()}, now)
	l.SkipTo(5000) // not empty: no effect
	if first, next := l.Bounds(now); first != 1000 || next != 1001 {
		t.Errorf("Bounds after an append and SkipTo(5000): got %d, %d, want 1000, 1001", first, next)
	}
	if _, _, _, err := l.Read(999, 10, 1<<20, now, func(*Record) int { return 1 }); !errors.Is(err, ErrTrimmed) {
		t.Errorf("Read(999): got %v, want ErrTrimmed", err)
	}
	l2 := New(time.Hour)
	l2.SkipTo(0) // earlier: no effect
	if first, _ := l2.Bounds(now); first != FirstSequenceNumber {
		t.Errorf("SkipTo(0): first %d, want %d", first, FirstSequenceNumber)
	}
}
