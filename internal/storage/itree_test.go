package storage

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// itree against a sorted slice: random inserts, replaces and deletes on
// a tree and on copies of it (each written on its own afterwards), with
// every read compared and the tree's shape checked.

// Set is Put of e.
func (t *itree) Set(e ientry) { t.Put(e.key, e.e) }

// itreeModel is a tree and the sorted entries it must hold.
type itreeModel struct {
	t    *itree
	want []ientry
}

// cmpIentry is ientryLess as a three-way comparison.
func cmpIentry(a, b ientry) int {
	switch {
	case ientryLess(a, b):
		return -1
	case ientryLess(b, a):
		return 1
	}
	return 0
}

// loadedItree is a model of a tree loaded (itree.load) with about n
// random entries.
func loadedItree(r *rand.Rand, n int) *itreeModel {
	ents := make([]ientry, n)
	for i := range ents {
		ents[i] = randIentry(r)
	}
	slices.SortFunc(ents, cmpIentry)
	ents = slices.CompactFunc(ents, func(a, b ientry) bool { return cmpIentry(a, b) == 0 })
	m := &itreeModel{t: newItree(), want: ents}
	m.t.load(slices.Clone(ents))
	return m
}

func (m *itreeModel) find(k ientry) (int, bool) {
	return slices.BinarySearchFunc(m.want, k, cmpIentry)
}

// randIentry draws keys from a small alphabet so that many share their
// 8-byte prefix (ties the prefixes cannot decide) and many are equal
// (ties the table key decides).
func randIentry(r *rand.Rand) ientry {
	key := make([]byte, r.IntN(13))
	for i := range key {
		key[i] = "\x00ab"[r.IntN(3)]
	}
	e := keyPivot(fmt.Sprint("p", r.IntN(4)), fmt.Sprint(r.IntN(3)))
	return newIentry(string(key), e)
}

// sameIentry reports whether a and b are the same entry, record included.
func sameIentry(a, b ientry) bool {
	return a.key == b.key && a.pre == b.pre && a.e.rec == b.e.rec && a.e.size == b.e.size
}

func TestItreeModel(t *testing.T) {
	// Each of the three phases (growth, churn, shrinking) is phase steps.
	// 50,000 took 147 s under -race on a busy 2-core machine: the long run
	// is for heavyTestsEnv. The first tree is loaded with enough entries
	// for three levels (the deferred check below fails if no tree has
	// them): grown from nothing, nodes of 104 entries would need about
	// 65,000 steps a phase to reach them.
	seeds, phase := []uint64{1}, 25000
	if heavyTests() {
		seeds, phase = []uint64{1, 2, 3}, 50000
	}
	heights := map[int]bool{}
	defer func() {
		// The trees must have had three levels and more, or the test
		// did not reach the branches' splits and refills.
		if !heights[3] {
			t.Errorf("heights seen %v: no tree of three levels", heights)
		}
	}()
	for _, seed := range seeds {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 9))
			trees := []*itreeModel{loadedItree(r, 3*itreeWidth*itreeWidth/2)}
			for step := range 3 * phase {
				m := trees[r.IntN(len(trees))]
				k := randIentry(r)
				if len(m.want) > 0 && r.IntN(4) >= []int{3, 1, 1}[step/phase] {
					k = m.want[r.IntN(len(m.want))] // present: deletes and reads find it
				}
				// Three phases: growth, churn, shrinking.
				sets := []int{85, 50, 25}[step/phase]
				switch op := r.IntN(100); {
				case op < sets:
					k.e.size = uint32(step) // a replace must keep the new entry
					m.t.Set(k)
					if i, ok := m.find(k); ok {
						m.want[i] = k
					} else {
						m.want = slices.Insert(m.want, i, k)
					}
				case op < 90 || step >= 2*phase && op < 97:
					old, ok := m.t.Delete(k)
					i, wantOK := m.find(k)
					if ok != wantOK || ok && !sameIentry(old, m.want[i]) {
						t.Fatalf("step %d: Delete = %v %v, want %v", step, old, ok, wantOK)
					}
					if ok {
						m.want = slices.Delete(m.want, i, i+1)
					}
				case op < 97:
					got, ok := m.t.Get(k)
					i, wantOK := m.find(k)
					if ok != wantOK || ok && !sameIentry(got, m.want[i]) {
						t.Fatalf("step %d: Get = %v %v, want %v", step, got, ok, wantOK)
					}
					checkItreeReads(t, step, m, k, r)
				case op < 99:
					if len(trees) < 4 && r.IntN(20) == 0 {
						trees = append(trees, &itreeModel{t: m.t.Copy(), want: slices.Clone(m.want)})
					}
				default:
					// Empty a tree by deletes now and then, so that the tree
					// shrinks to nothing and grows again.
					if step >= 2*phase && r.IntN(30) == 0 {
						for _, ie := range slices.Clone(m.want) {
							if _, ok := m.t.Delete(ie); !ok {
								t.Fatalf("step %d: Delete of a present entry failed", step)
							}
						}
						m.want = nil
					}
				}
				if step%4999 == 0 || step > 3*phase-200 {
					for _, m := range trees {
						heights[checkItree(t, step, m)] = true
					}
				}
			}
		})
	}
}

// checkItreeReads compares Ascend, Descend, Scan and Reverse from k (and
// stopping early) with the model.
func checkItreeReads(t *testing.T, step int, m *itreeModel, k ientry, r *rand.Rand) {
	t.Helper()
	limit := 1 + r.IntN(200)
	collect := func(walk func(func(ientry) bool)) []ientry {
		var out []ientry
		walk(func(ie ientry) bool {
			out = append(out, ie)
			return len(out) < limit
		})
		return out
	}
	if k.pre != 0 && r.IntN(4) == 0 {
		// The least search key of k's prefix (index.walk's whole).
		k = ientry{pre: k.pre, e: minKeyEntry}
	}
	i, found := m.find(k)
	if found {
		i++ // Descend includes k
	}
	// reversed returns the last up to limit entries before end, last first.
	reversed := func(end int) []ientry {
		out := slices.Clone(m.want[max(0, end-limit):end])
		slices.Reverse(out)
		return out
	}
	j, _ := m.find(k)
	asc := m.want[j:min(len(m.want), j+limit)]
	desc := reversed(i)
	all := m.want[:min(len(m.want), limit)]
	rev := reversed(len(m.want))
	for _, c := range []struct {
		name string
		walk func(func(ientry) bool)
		want []ientry
	}{
		{"Ascend", func(fn func(ientry) bool) { m.t.Ascend(k, fn) }, asc},
		{"Descend", func(fn func(ientry) bool) { m.t.Descend(k, fn) }, desc},
		{"Scan", m.t.Scan, all},
		{"Reverse", m.t.Reverse, rev},
	} {
		if got := collect(c.walk); !slices.EqualFunc(got, c.want, sameIentry) {
			t.Fatalf("step %d: %s from %q gives %d entries, want %d", step, c.name, k.key, len(got), len(c.want))
		}
	}
}

// checkItree checks m's tree against its entries and its shape: leaves
// at one depth, nodes sorted and at least itreeMin full (but the root),
// prefixes equal to their entries', separators between their neighbours'
// entries, unused slots zero.
func checkItree(t *testing.T, step int, m *itreeModel) (height int) {
	t.Helper()
	if m.t.Len() != len(m.want) {
		t.Fatalf("step %d: Len %d, want %d", step, m.t.Len(), len(m.want))
	}
	if got := m.t.Items(); !slices.EqualFunc(got, m.want, sameIentry) {
		t.Fatalf("step %d: Items differ (%d, want %d)", step, len(got), len(m.want))
	}
	if m.t.root == nil {
		if len(m.want) != 0 {
			t.Fatalf("step %d: no root for %d entries", step, len(m.want))
		}
		return 0
	}
	leafDepth := -1
	var walk func(n *inode, depth int, lo, hi *ientry)
	walk = func(n *inode, depth int, lo, hi *ientry) {
		if n != m.t.root && int(n.n) < itreeMin || n.n < 1 || int(n.n) > itreeWidth {
			t.Fatalf("step %d: node of %d at depth %d", step, n.n, depth)
		}
		for i := int(n.n); i < itreeWidth; i++ {
			if n.recs[i] != "" || n.sizes[i] != 0 || !n.leaf && n.kids[i] != nil {
				t.Fatalf("step %d: slot %d past %d not cleared", step, i, n.n)
			}
		}
		// Each entry's key has a place in the node's keys, which hold
		// no more than a tidy at their capacity leaves.
		for i := range int(n.n) {
			if int(n.kix[i]) >= len(n.keys) && n.recs[i] != "" {
				t.Fatalf("step %d: entry %d's key at place %d of %d", step, i, n.kix[i], len(n.keys))
			}
		}
		if len(n.keys) > itreeWidth+8 {
			t.Fatalf("step %d: %d index keys held for %d entries", step, len(n.keys), n.n)
		}
		first := 0
		if !n.leaf {
			first = 1
		}
		for i := first; i < int(n.n); i++ {
			e := n.at(i)
			if e.pre != keyPrefix(e.key) {
				t.Fatalf("step %d: prefix of entry %d differs", step, i)
			}
			if i > first && !ientryLess(n.at(i-1), e) {
				t.Fatalf("step %d: entries %d and %d out of order", step, i-1, i)
			}
			if lo != nil && ientryLess(e, *lo) || hi != nil && !ientryLess(e, *hi) {
				t.Fatalf("step %d: entry %d outside its parent's separators", step, i)
			}
		}
		if n.leaf {
			if leafDepth == -1 {
				leafDepth = depth
			} else if depth != leafDepth {
				t.Fatalf("step %d: leaves at depths %d and %d", step, leafDepth, depth)
			}
			return
		}
		for i := 0; i < int(n.n); i++ {
			clo, chi := lo, hi
			if i > 0 {
				sep := n.at(i)
				clo = &sep
			}
			if i+1 < int(n.n) {
				sep := n.at(i + 1)
				chi = &sep
			}
			walk(n.kids[i], depth+1, clo, chi)
		}
	}
	walk(m.t.root, 0, nil, nil)
	return leafDepth + 1
}

// TestItreeShrink empties trees of random entries by deletes in
// ascending, descending and random order, which mend nodes in every way
// refill can (merges, and moves from either neighbour, of leaves and of
// branches), checking the tree as it shrinks.
func TestItreeShrink(t *testing.T) {
	// 30,000 entries (each delete moves the model's slice) ran past 85 s
	// per order under -race on a busy 2-core machine: the long run is for
	// heavyTestsEnv; 12,000 still make trees of three levels.
	n := 12000
	if heavyTests() {
		n = 30000
	}
	for _, order := range []string{"ascending", "descending", "random"} {
		t.Run(order, func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, uint64(len(order))))
			m := &itreeModel{t: newItree()}
			for i := range n {
				k := newIentry(fmt.Sprintf("%08x/%d", r.Uint32(), i), keyPivot("p", ""))
				m.t.Set(k)
				m.want = append(m.want, k)
			}
			slices.SortFunc(m.want, cmpIentry)
			if h := checkItree(t, 0, m); h < 3 {
				t.Fatalf("a tree of %d entries has %d levels, want 3 or more: the shrink would not refill branches", n, h)
			}
			dels := slices.Clone(m.want)
			switch order {
			case "descending":
				slices.Reverse(dels)
			case "random":
				r.Shuffle(len(dels), func(i, j int) { dels[i], dels[j] = dels[j], dels[i] })
			}
			snap := &itreeModel{t: m.t.Copy(), want: slices.Clone(m.want)}
			for step, k := range dels {
				if _, ok := m.t.Delete(k); !ok {
					t.Fatalf("delete %d: not found", step)
				}
				i, _ := m.find(k)
				m.want = slices.Delete(m.want, i, i+1)
				if step%1499 == 0 {
					checkItree(t, step, m)
				}
			}
			checkItree(t, len(dels), m)
			checkItree(t, len(dels), snap) // the copy kept every entry
		})
	}
}

// TestItreeOrderedFill: entries written in the order of their index
// partition's sort key (each the last, or each the first, of its
// partition, 50 partitions in turn) leave the leaves at least 70% (65%)
// full (splitAt: 74% and 70% when written, 96% and 96% with spill),
// where splits in halves left them half full; entries in no order leave
// them at least 75% full (83% with spill, 69% without).
func TestItreeOrderedFill(t *testing.T) {
	// 2,000 entries a partition took 59 s under -race on a busy 2-core
	// machine: the long run is for heavyTestsEnv; 800 (40,000 entries,
	// over 660 leaves) give the same fills.
	const parts = 50
	per := 800
	if heavyTests() {
		per = 2000
	}
	key := func(p, s int) string {
		// An index key as index_entry.go makes one: the partition's hash
		// (here its number) first, then the sort key.
		return fmt.Sprintf("%04d%010d", p*7919%10000, s)
	}
	fill := func(keys func(i int) string) float64 {
		tr := newItree()
		for i := range parts * per {
			tr.Set(newIentry(keys(i), keyPivot("t", fmt.Sprint(i))))
		}
		leaves, n := 0, 0
		var walk func(*inode)
		walk = func(nd *inode) {
			if nd.leaf {
				leaves++
				n += int(nd.n)
				return
			}
			for _, k := range nd.kids[:nd.n] {
				walk(k)
			}
		}
		walk(tr.root)
		if n != parts*per {
			t.Fatalf("%d entries in the leaves, want %d", n, parts*per)
		}
		return float64(n) / float64(leaves*itreeWidth)
	}
	r := rand.New(rand.NewPCG(9, 9))
	for _, c := range []struct {
		name string
		key  func(i int) string
		min  float64
	}{
		{"ascending", func(i int) string { return key(i%parts, i/parts) }, 0.7},
		{"descending", func(i int) string { return key(i%parts, per-i/parts) }, 0.65},
		{"no order", func(int) string { return key(r.IntN(parts), r.IntN(1_000_000_000)) }, 0.75},
	} {
		if f := fill(c.key); f < c.min {
			t.Errorf("%s: leaves %.0f%% full, want at least %.0f%%", c.name, 100*f, 100*c.min)
		} else {
			t.Logf("%s: leaves %.0f%% full", c.name, 100*f)
		}
	}
}

// TestItreeLoad: a tree loaded at once from sorted entries (itree.load,
// an index's backfill) holds them, has the shape of one built by
// inserts (every node but the root at least itreeMin full, leaves at one
// depth, separators between their neighbours), and takes inserts and
// deletes after, on itself and on a copy.
func TestItreeLoad(t *testing.T) {
	sizes := []int{0, 1, itreeMin, itreeLoadFill, itreeLoadFill + 1, itreeWidth, itreeWidth + 1, 2*itreeLoadFill + 1, 5000}
	if heavyTests() {
		// 70,000 (the model built by inserts into one slice) ran past
		// 3 minutes under -race on a busy 2-core machine; 5,000 already
		// load a tree of three levels.
		sizes = append(sizes, 70000)
	}
	for _, n := range sizes {
		t.Run(fmt.Sprint("entries=", n), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(n), 11))
			m := &itreeModel{t: newItree()}
			for len(m.want) < n {
				k := randIentry(r)
				k.key += fmt.Sprint(len(m.want)) // distinct
				k.pre = keyPrefix(k.key)
				if i, ok := m.find(k); !ok {
					m.want = slices.Insert(m.want, i, k)
				}
			}
			m.t.load(slices.Clone(m.want))
			checkItree(t, 0, m)
			c := &itreeModel{t: m.t.Copy(), want: slices.Clone(m.want)}
			for step := range 3000 {
				mm := []*itreeModel{m, c}[step%2]
				k := randIentry(r)
				if len(mm.want) > 0 && r.IntN(2) == 0 {
					k = mm.want[r.IntN(len(mm.want))]
				}
				if r.IntN(2) == 0 {
					mm.t.Set(k)
					if i, ok := mm.find(k); ok {
						mm.want[i] = k
					} else {
						mm.want = slices.Insert(mm.want, i, k)
					}
				} else if _, ok := mm.t.Delete(k); ok {
					i, _ := mm.find(k)
					mm.want = slices.Delete(mm.want, i, i+1)
				}
			}
			checkItree(t, 1, m)
			checkItree(t, 1, c)
		})
	}
}

// TestIentryCmp: ientryCmp orders as ientryLess does.
func TestIentryCmp(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		a, b := randIentry(r), randIentry(r)
		if r.IntN(4) == 0 {
			b = a
		}
		require.Equal(t, cmpIentry(a, b), ientryCmp(a, b), "%q %q", a.key, b.key)
	}
}

// BenchmarkIndexBackfill: filling a new index of a table of 200,000
// items (AddIndex): the entries sorted and loaded at once (load), and,
// to compare, inserted one at a time in the table's order (insert).
func BenchmarkIndexBackfill(b *testing.B) {
	const n = 200_000
	ks := KeySchema{Partition: KeyAttr{Name: "pk", Kind: KindS}}
	tab := newTable(b, ks)
	for i := range n {
		it := Item{"pk": S(fmt.Sprintf("user#%09d", i)), "city": S(fmt.Sprintf("city-%03d", i%500)), "v": S("some value of an attribute")}
		if _, err := tab.Put(ks.KeyOf(it), it); err != nil {
			b.Fatal(err)
		}
	}
	def := IndexDef{Name: "byCity", Schema: IndexSchema{Partition: []KeyAttr{{Name: "city", Kind: KindS}}, Sort: []KeyAttr{{Name: "pk", Kind: KindS}}}, Projection: Projection{All: true}}
	// cpu-ms/op is the process's CPU time per fill: on a machine shared
	// with other work it is steadier than the time.
	b.Run("load", func(b *testing.B) {
		cpu := cpuTime()
		for b.Loop() {
			x := newIndex(tab.ks, def)
			x.backfillLocked(tab)
			if x.count != n {
				b.Fatalf("%d entries", x.count)
			}
		}
		b.ReportMetric(float64(cpuTime()-cpu)/1e6/float64(b.N), "cpu-ms/op")
	})
	b.Run("insert", func(b *testing.B) {
		cpu := cpuTime()
		defer func() { b.ReportMetric(float64(cpuTime()-cpu)/1e6/float64(b.N), "cpu-ms/op") }()
		for b.Loop() {
			x := newIndex(tab.ks, def)
			reads := x.reads()
			tab.parts.ascend(0, "", func(p *partition) bool {
				p.walk(bound{}, bound{}, true, func(e entry) bool {
					x.replace(entry{}, nil, 0, e, tab.encodedOf(tab.keyOf(e), e).Attributes(reads), int(e.size))
					return true
				})
				return true
			})
		}
	})
}

// TestItreeSharesKeys: the entries of one index key, inserted one by one
// in any order, hold one string of it between them (two or three where
// they straddle leaves), not a copy each, and still read back in order.
func TestItreeSharesKeys(t *testing.T) {
	tr := newItree()
	const perKey = 10
	for _, i := range rand.New(rand.NewPCG(1, 2)).Perm(200 * perKey) {
		key := fmt.Sprintf("\x01\x02\x03\x04someone.%d@example.com", i/perKey)
		tr.Set(newIentry(key, keyPivot(fmt.Sprintf("p%04d", i), "")))
	}
	data := map[string]map[*byte]bool{}
	got := tr.Items()
	require.Len(t, got, 200*perKey)
	for j, ie := range got {
		if j > 0 {
			require.True(t, ientryLess(got[j-1], ie), "entry %d out of order", j)
		}
		if data[ie.key] == nil {
			data[ie.key] = map[*byte]bool{}
		}
		data[ie.key][unsafe.StringData(ie.key)] = true
	}
	require.Len(t, data, 200)
	strs := 0
	for key, copies := range data {
		// An entry shares its neighbours' in its leaf: a key whose
		// entries straddle two leaves may be held twice.
		require.LessOrEqual(t, len(copies), 3, "index key %q held %d times", key, len(copies))
		strs += len(copies)
	}
	require.Less(t, strs, 200*perKey/5, "%d strings for %d keys of %d entries", strs, 200, 200*perKey)
	t.Logf("%d strings for 200 keys of %d entries", strs, 200*perKey)
}

// TestInodeFillsItsSizeClass: a slot is 29 bytes (prefix 8, record 16,
// size 4, its key's place 1), and a node of itreeWidth of them, with the
// allocator's 8-byte header, fills its 3,072-byte class; one slot more
// would not fit (itreeWidth).
func TestInodeFillsItsSizeClass(t *testing.T) {
	const slot, header = 8 + 16 + 4 + 1, 8
	size := unsafe.Sizeof(inode{}) + header
	require.LessOrEqual(t, size, uintptr(3072), "node of %d bytes", size)
	require.Greater(t, size+slot, uintptr(3072), "node of %d bytes: room for another slot", size)
}

// TestItreePutKeepsNoReferenceToItsKey: Put's key may be a conversion
// of a buffer its caller reuses (index.replace, on the stack); the tree
// keeps a key string it holds already or a copy. Handed a view of the
// buffer itself, rewritten after each Put, it changes none of the keys it
// holds: into an empty tree, beside an entry of the same key, between
// keys, and replacing an entry.
func TestItreePutKeepsNoReferenceToItsKey(t *testing.T) {
	tr := newItree()
	var want []ientry
	buf := make([]byte, 0, 64)
	r := rand.New(rand.NewPCG(4, 4))
	for i := range 3000 {
		buf = fmt.Appendf(buf[:0], "\x00\x00\x00%cgroup-%04d-a-key-longer-than-thirty-two-bytes", byte(r.IntN(4)), r.IntN(300))
		key := string(buf) // what the tree must hold
		e := keyPivot(fmt.Sprintf("p%05d", i%2500), "")
		tr.Put(unsafe.String(unsafe.SliceData(buf), len(buf)), e)
		for j := range buf {
			buf[j] = 0xff // the caller's next use of its buffer
		}
		want = append(want, newIentry(key, e))
	}
	slices.SortFunc(want, cmpIentry)
	want = slices.CompactFunc(want, func(a, b ientry) bool { return cmpIentry(a, b) == 0 })
	got := tr.Items()
	require.Len(t, got, len(want))
	for i := range got {
		require.Equal(t, want[i].key, got[i].key, "entry %d", i)
		require.Equal(t, want[i].e.rec, got[i].e.rec, "entry %d", i)
	}
}
