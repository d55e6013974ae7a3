package ids

import (
	"math/rand"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"
)

// stepClock returns a clock that reads the given times in turn, then repeats
// the last.
func stepClock(times ...time.Time) func() time.Time {
	var mu sync.Mutex
	i := 0
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t := times[min(i, len(times)-1)]
		i++
		return t
	}
}

func TestIDGeneratorSortsByCreation(t *testing.T) {
	t0 := time.UnixMilli(1_700_000_000_000)
	tests := []struct {
		name  string
		clock func() time.Time
	}{
		{"one millisecond", stepClock(t0)},
		{"advancing", stepClock(t0, t0, t0.Add(time.Millisecond), t0.Add(2*time.Millisecond))},
		{"clock steps back", stepClock(t0.Add(time.Second), t0, t0, t0.Add(-time.Hour))},
	}
	for _, tt := range tests {
		g := NewIDGenerator(tt.clock, rand.New(rand.NewSource(1)))
		var ids []string
		for range 1000 {
			s, err := g.NewString()
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			ids = append(ids, s)
		}
		if !slices.IsSorted(ids) {
			t.Errorf("%s: got ids out of creation order", tt.name)
		}
		if len(slices.Compact(slices.Clone(ids))) != len(ids) {
			t.Errorf("%s: got duplicate ids", tt.name)
		}
	}
}

func TestIDGeneratorDeterministic(t *testing.T) {
	clock := func() time.Time { return time.UnixMilli(1_700_000_000_000) }
	a := NewIDGenerator(clock, rand.New(rand.NewSource(42)))
	b := NewIDGenerator(clock, rand.New(rand.NewSource(42)))
	for i := range 10 {
		x, _ := a.NewString()
		y, _ := b.NewString()
		if x != y {
			t.Fatalf("id %d: got %s and %s from the same seed and clock, want equal", i, x, y)
		}
	}
	id, _ := a.New()
	if got, want := id.Time(), uint64(1_700_000_000_000); got != want {
		t.Errorf("id time: got %d, want %d", got, want)
	}
}

func TestIDGeneratorOverflowBorrowsNextMillisecond(t *testing.T) {
	// An entropy source whose first 10 bytes are 0xFF starts the random
	// part at its maximum, so the second id of the millisecond overflows.
	g := NewIDGenerator(func() time.Time { return time.UnixMilli(1000) }, &maxFirst{})
	first, err := g.New()
	if err != nil {
		t.Fatal(err)
	}
	second, err := g.New()
	if err != nil {
		t.Fatal(err)
	}
	if second.Compare(first) <= 0 || second.Time() != 1001 {
		t.Errorf("got %s (ms %d) after %s, want a larger id at ms 1001", second, second.Time(), first)
	}
}

// maxFirst reads ten 0xFF bytes, then 0x01 bytes.
type maxFirst struct{ n int }

func (r *maxFirst) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 0x01
		if r.n < 10 {
			p[i] = 0xFF
		}
		r.n++
	}
	return len(p), nil
}

func TestNewULID(t *testing.T) {
	a, b := NewULID(), NewULID()
	if _, err := ulid.ParseStrict(a); err != nil {
		t.Errorf("NewULID: got %q, %v", a, err)
	}
	if !(a < b) {
		t.Errorf("NewULID: got %s then %s, want increasing", a, b)
	}
}

func TestIDGeneratorConcurrent(t *testing.T) {
	g := NewIDGenerator(nil, nil)
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := map[string]bool{}
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				s, err := g.NewString()
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if seen[s] {
					t.Errorf("duplicate id %s", s)
				}
				seen[s] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}
