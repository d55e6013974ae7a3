package storage

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPtreeModel runs random sets, deletes and copies on ptrees against a
// reference model (a map of sort key to size), through both of a ptree's
// forms, and checks every read after every step; a copy taken with
// copyShared must keep its entries whatever is done to the original.
func TestPtreeModel(t *testing.T) {
	r := rand.New(rand.NewPCG(seedFromEnv(t), 25))
	for round := range 40 {
		keys := 8 + r.IntN(3*ptreeSmallMax) // some rounds stay small, some go big
		model := map[string]uint32{}
		mk := func() string { return ptreeTestKey(r.IntN(keys)) }
		a, b := mk(), mk()
		for a == b {
			b = mk()
		}
		if b < a {
			a, b = b, a
		}
		tr := newPtree(ptreeTestEntry(a, 1), ptreeTestEntry(b, 2))
		model[a], model[b] = 1, 2
		var frozen *ptree
		var frozenModel map[string]uint32
		for step := range 400 {
			switch op := r.IntN(10); {
			case op < 6:
				k, size := mk(), uint32(step+3)
				tr = tr.Set(ptreeTestEntry(k, size))
				model[k] = size
			case op < 9 && len(model) > 2:
				k := mk()
				tr.Delete(k)
				delete(model, k)
			default:
				frozen, frozenModel = tr.copyShared(), cloneModel(model)
			}
			where := fmt.Sprintf("round %d step %d", round, step)
			checkPtree(t, where, tr, model, r)
			if frozen != nil {
				checkPtree(t, where+" (copy)", frozen, frozenModel, r)
			}
			if t.Failed() {
				return
			}
		}
	}
}

// ptreeTestKey is the i-th sort key of TestPtreeModel: keys that differ
// in their first 4 bytes, keys that share them (compared in their
// records), and keys shorter than 4 bytes with zero and 0xff bytes (whose
// prefixes are padded with zero bytes: "a" and "a\x00" share one).
func ptreeTestKey(i int) string {
	switch i % 4 {
	case 0:
		return fmt.Sprintf("k%03d", i)
	case 1:
		return fmt.Sprintf("same-%03d", i)
	case 2:
		return string([]byte{"a\x00\xff"[i/4%3], "\x00a\xff"[i/12%3], "a\x00\xff"[i/36%3]})[:1+i/4%3]
	}
	return fmt.Sprintf("k%03d\x00", i)
}

// ptreeTestEntry is the entry of an item of sort key sk, its record built
// as a table builds it.
func ptreeTestEntry(sk string, size uint32) entry {
	return parseEntry(string(append(appendRecHeader(nil, "pk", sk), "body"...)), size)
}

func cloneModel(m map[string]uint32) map[string]uint32 {
	out := make(map[string]uint32, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// checkPtree compares every read of tr with the model.
func checkPtree(t *testing.T, where string, tr *ptree, model map[string]uint32, r *rand.Rand) {
	t.Helper()
	var keys []string
	for k := range model {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if got := tr.Len(); got != len(keys) {
		t.Errorf("%s: got Len %d, want %d", where, got, len(keys))
		return
	}
	if tr.big == nil && len(tr.small) > ptreeSmallMax {
		t.Errorf("%s: a slice of %d entries, want at most %d", where, len(tr.small), ptreeSmallMax)
	}
	if got, want := tr.Min().sortKey(), keys[0]; got != want {
		t.Errorf("%s: got Min %q, want %q", where, got, want)
	}
	if got, want := tr.Max().sortKey(), keys[len(keys)-1]; got != want {
		t.Errorf("%s: got Max %q, want %q", where, got, want)
	}
	probe := ptreeTestKey(r.IntN(200))
	e, ok := tr.Get(probe)
	if size, want := model[probe]; ok != want || (ok && e.size != size) {
		t.Errorf("%s: got Get(%q) = %d, %v, want %d, %v", where, probe, e.size, ok, size, want)
	}
	// Ascend and Descend from nothing and from the probe, stopping early
	// at a random count.
	stop := 1 + r.IntN(len(keys)+1)
	for _, from := range []*string{nil, &probe} {
		var up, down []string
		tr.Ascend(from, func(e entry) bool { up = append(up, e.sortKey()); return len(up) < stop })
		tr.Descend(from, func(e entry) bool { down = append(down, e.sortKey()); return len(down) < stop })
		var wantUp, wantDown []string
		for _, k := range keys {
			if (from == nil || k >= *from) && len(wantUp) < stop {
				wantUp = append(wantUp, k)
			}
		}
		for i := len(keys) - 1; i >= 0; i-- {
			if (from == nil || keys[i] <= *from) && len(wantDown) < stop {
				wantDown = append(wantDown, keys[i])
			}
		}
		if !slices.Equal(up, wantUp) {
			t.Errorf("%s: got Ascend(%v) %v, want %v", where, from != nil, up, wantUp)
		}
		if !slices.Equal(down, wantDown) {
			t.Errorf("%s: got Descend(%v) %v, want %v", where, from != nil, down, wantDown)
		}
	}
}

// TestPtreeLoad checks Load, the restore path's in-order append, through
// the change of form.
func TestPtreeLoad(t *testing.T) {
	tr := newPtree(ptreeTestEntry("k000", 0), ptreeTestEntry("k001", 0))
	for i := 2; i < 3*ptreeSmallMax; i++ {
		tr = tr.Load(ptreeTestEntry(fmt.Sprintf("k%03d", i), uint32(i)))
		if got := tr.Len(); got != i+1 {
			t.Fatalf("after %d loads: got Len %d, want %d", i+1, got, i+1)
		}
	}
	var got []string
	tr.Ascend(nil, func(e entry) bool { got = append(got, e.sortKey()); return true })
	if !slices.IsSorted(got) || len(got) != 3*ptreeSmallMax || tr.big == nil {
		t.Errorf("got %d entries (sorted %v, big %v), want %d sorted in a B-tree", len(got), slices.IsSorted(got), tr.big != nil, 3*ptreeSmallMax)
	}
}

// TestSmallPtrees checks the table of small ptree capacities: ascending,
// each making the capacity it names, and smallPtree choosing the least
// that holds what is asked.
func TestSmallPtrees(t *testing.T) {
	for i, s := range smallPtrees {
		if i > 0 && s.cap <= smallPtrees[i-1].cap {
			t.Fatalf("capacity %d after %d", s.cap, smallPtrees[i-1].cap)
		}
		if tr := s.make(1); len(tr.small) != 1 || cap(tr.small) != s.cap {
			t.Fatalf("make(1) for %d: len %d cap %d", s.cap, len(tr.small), cap(tr.small))
		}
	}
	if last := smallPtrees[len(smallPtrees)-1].cap; last != ptreeSmallMax {
		t.Fatalf("largest capacity %d, want ptreeSmallMax %d", last, ptreeSmallMax)
	}
	for c := 1; c <= ptreeSmallMax; c++ {
		got := cap(smallPtree(0, c).small)
		if got < c || got > c && slices.ContainsFunc(smallPtrees, func(s smallPtreeClass) bool { return s.cap >= c && s.cap < got }) {
			t.Fatalf("smallPtree(0, %d) has capacity %d", c, got)
		}
	}
}
