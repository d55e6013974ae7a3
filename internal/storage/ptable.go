package storage

import (
	"fmt"
	"strings"
)

// ptable is a table's partitions: a hash table that is also their Scan
// order. It is an open-addressing table with linear probing whose slots,
// read in order, hold the partitions sorted by (hash, partition key), and
// a partition's home slot is its hash scaled to the number of home slots
// (hash*homes>>32, which keeps the order of hashes). So one array of
// slots answers both a lookup by key (from the home slot, a few slots on)
// and Scan (from a hash, in slot order), where a Go map and a B-tree of
// the same partitions cost three to four times the memory (a map slot of
// a string key and a pointer, at the map's load, plus a B-tree item).
//
// Invariants: the occupied slots in order are sorted by (hash, pk); every
// partition sits at or after its home slot, with no empty slot between
// the two. An insert shifts the run after its place one slot right; a
// delete shifts the displaced partitions after it one slot left
// (backward-shift deletion); both keep the order. There is no
// wrap-around: there are spare slots past the last home slot, and a
// table that would run past them grows. Growing makes half as many home
// slots again (so the load stays between about 55% and 85%) and places
// the partitions, in order, each at its home or just after the previous
// one.
//
// Each slot keeps its partition's hash beside the pointer so a probe
// compares hashes without loading partitions; a partition is loaded only
// when the hashes are equal.
//
// Copy-on-write (cow.go). The slots are held in pages of ptPageSlots (128:
// a page copy, 1.7 KB, costs a write after a snapshot about what copying
// a B-tree path did; BenchmarkPutAfterSnapshot), so that sharing them
// with a snapshot costs a write a page, not the whole table: a snapshot takes a copy of the ptable value (share), sharing its
// page directory and pages, and marks the table's shared; nothing shared
// is written again. The table copies the directory (a pointer a page)
// before its next change, and a page before it first changes a slot in it
// (wpage); pown says which pages are the table's own. Per slot, owned
// says that the partition there is the table's own, made or copied since
// its page was: a partition that is not may be a snapshot's too, and is
// copied before it is written (Table.ownPartLocked). A page or directory
// that is copied starts with no slot or page owned: all it holds was
// there when the snapshot was taken.
type ptable struct {
	pages  []*ppage // the slots, ptPageSlots a page (the last may have some past slots)
	pown   []bool   // pown[k]: page k is the table's own (see above)
	n      int      // partitions
	homes  int      // home slots (the rest are spare)
	slots  int      // home and spare slots
	shared bool     // pages and pown may be a snapshot's too: copy before writing
}

// ppage is ptPageSlots slots, held in the page itself rather than in
// slices of their own: a lookup's first read of a table of millions of
// partitions goes from the directory (a few hundred KB, in cache)
// straight to the slot, where slices would add a read of the page's
// slice headers first, a cache and TLB miss of its own (about
// 0.4 µs at 10M items on the VM it was measured on). A table's last page
// may hold slots past t.slots, which stay empty.
type ppage struct {
	hashes [ptPageSlots]uint32
	parts  [ptPageSlots]*partition // nil: an empty slot
	owned  [ptPageSlots]bool       // the slot's partition is the table's own (see ptable)
}

const (
	ptPageBits  = 7
	ptPageSlots = 1 << ptPageBits
	// ptPageRun is the most pages allocated together: a run stays in
	// memory while any of its pages is in use (copied pages replace
	// their originals one by one).
	ptPageRun = 64

	ptableMinHomes = 16
	// ptableMaxLoad is the load (in percent of the home slots) past which
	// the table grows.
	ptableMaxLoad = 85
)

// init makes an empty table of homes home slots, all its own.
func (t *ptable) init(homes int) {
	spare := 16 + homes/16
	t.slots = homes + spare
	npages := (t.slots + ptPageSlots - 1) / ptPageSlots
	t.pages = make([]*ppage, npages)
	t.pown = make([]bool, npages)
	// The pages are allocated in runs of ptPageRun, each backed by the
	// kernel at once (populateSlice), not a page fault at a time.
	var run []ppage
	for k := range t.pages {
		if len(run) == 0 {
			run = make([]ppage, min(npages-k, ptPageRun))
			populateSlice(run)
		}
		t.pages[k], run = &run[0], run[1:]
		t.pown[k] = true
	}
	t.homes = homes
	t.n = 0
	t.shared = false
}

// share returns a copy of t for a snapshot: both share the directory and
// the pages, which neither writes again (t copies what it changes).
func (t *ptable) share() ptable {
	t.shared = true
	return *t
}

// wpage returns page k for writing: the directory and the page are
// copied first if they may be shared.
func (t *ptable) wpage(k int) *ppage {
	if t.shared {
		t.pages = append([]*ppage(nil), t.pages...)
		t.pown = make([]bool, len(t.pages))
		t.shared = false
	}
	if !t.pown[k] {
		p := *t.pages[k]
		p.owned = [ptPageSlots]bool{}
		t.pages[k] = &p
		t.pown[k] = true
	}
	return t.pages[k]
}

func (t *ptable) hash(i int) uint32 { return t.pages[i>>ptPageBits].hashes[i&(ptPageSlots-1)] }

func (t *ptable) part(i int) *partition { return t.pages[i>>ptPageBits].parts[i&(ptPageSlots-1)] }

// ownedAt reports whether the partition in slot i is the table's own.
func (t *ptable) ownedAt(i int) bool {
	k := i >> ptPageBits
	return !t.shared && t.pown[k] && t.pages[k].owned[i&(ptPageSlots-1)]
}

// set puts p (nil: none), of hash h, in slot i, owned or not.
func (t *ptable) set(i int, p *partition, h uint32, owned bool) {
	pg, o := t.wpage(i>>ptPageBits), i&(ptPageSlots-1)
	pg.parts[o], pg.hashes[o], pg.owned[o] = p, h, owned
}

// setOwned puts p, the table's own, in slot i, which holds a partition of
// the same key.
func (t *ptable) setOwned(i int, p *partition) { t.set(i, p, p.hash, true) }

func (t *ptable) home(h uint32) int { return int(uint64(h) * uint64(t.homes) >> 32) }

// compare orders slot i's partition against (h, pk).
func (t *ptable) compare(i int, h uint32, pk string) int {
	switch hi := t.hash(i); {
	case hi < h:
		return -1
	case hi > h:
		return 1
	}
	return strings.Compare(t.part(i).pk(), pk)
}

// find returns the slot of the partition with key pk (hash h), or the
// slot where it would go, and whether it is there.
func (t *ptable) find(h uint32, pk string) (int, bool) {
	if t.pages == nil {
		return 0, false
	}
	i := t.home(h)
	for ; i < t.slots && t.part(i) != nil; i++ {
		if c := t.compare(i, h, pk); c >= 0 {
			return i, c == 0
		}
	}
	return i, false
}

// get returns the partition with key pk, or nil.
func (t *ptable) get(pk string) *partition {
	if i, ok := t.find(partitionHash(pk), pk); ok {
		return t.part(i)
	}
	return nil
}

// Reading a partition's key costs a read of its key record, which in a
// table of millions of partitions is a cache and TLB miss of its own
// (about 0.45 µs of GetItem at 10M items). A reader that goes on
// to read one of the partition's items can do without it: when a single
// slot holds hash h, the partition there is pk's if pk is in the table at
// all, and whether it is shows in the key of any item of it, read anyway.
// candidate and locate are those two uses.

// candidate returns the partition that holds pk if any does: checked
// (sure) unless it is the only one of pk's hash, whose key the caller
// must check against an item it reads from it before using the item
// (entry.pk). It returns nil when no partition can hold pk.
func (t *ptable) candidate(pk string) (p *partition, sure bool) {
	h := partitionHash(pk)
	switch i, n := t.only(h); n {
	case 0:
		return nil, true
	case 1:
		return t.part(i), false
	}
	return t.get(pk), true
}

// getEntry returns the entry of sort key sk in partition pk, reading no
// key record but the entry's own.
func (t *ptable) getEntry(pk, sk string) (entry, bool) {
	p, sure := t.candidate(pk)
	if p == nil {
		return entry{}, false
	}
	prefetchPart(p)
	e, ok := p.get(sk)
	if !ok {
		return entry{}, false
	}
	prefetchString(e.rec) // the record's lines after the first, read next
	if !sure && e.pk() != pk {
		return entry{}, false
	}
	return e, true
}

// walk is partition pk's walk (partition.walk), checking the candidate's
// key at the first entry it visits.
func (t *ptable) walk(pk string, lo, hi bound, forward bool, visit func(entry) bool) {
	p, sure := t.candidate(pk)
	if p == nil {
		return
	}
	prefetchPart(p)
	p.walk(lo, hi, forward, func(e entry) bool {
		if !sure {
			if e.pk() != pk {
				return false
			}
			sure = true
		}
		return visit(e)
	})
}

// locate is find for a key known to be in the table (present: the caller
// read an item of it), which then reads no key when its hash is in one
// slot only.
func (t *ptable) locate(h uint32, pk string, present bool) (int, bool) {
	if present {
		if i, n := t.only(h); n == 1 {
			return i, true
		}
	}
	return t.find(h, pk)
}

// only returns how many slots hold hash h, 0, 1 or 2 for more, and the
// first of them.
func (t *ptable) only(h uint32) (i, n int) {
	if t.pages == nil {
		return 0, 0
	}
	for i = t.home(h); i < t.slots && t.part(i) != nil; i++ {
		switch hi := t.hash(i); {
		case hi < h:
			continue
		case hi > h:
			return 0, 0
		}
		if next := i + 1; next < t.slots && t.part(next) != nil && t.hash(next) == h {
			return i, 2
		}
		return i, 1
	}
	return 0, 0
}

// insert adds p, the table's own, whose key is not in the table.
func (t *ptable) insert(p *partition) {
	if t.pages == nil {
		t.init(ptableMinHomes)
	}
	for {
		if (t.n+1)*100 > t.homes*ptableMaxLoad {
			t.grow()
		}
		i, _ := t.find(p.hash, p.pk())
		j := i
		for j < t.slots && t.part(j) != nil {
			j++
		}
		if j == t.slots {
			t.grow() // the run reaches the end: make room
			continue
		}
		for k := j; k > i; k-- {
			t.set(k, t.part(k-1), t.hash(k-1), t.ownedAt(k-1))
		}
		t.set(i, p, p.hash, true)
		t.n++
		return
	}
}

// removeAt empties slot i.
func (t *ptable) removeAt(i int) {
	// Backward shift: move the displaced partitions after i one slot left.
	j := i + 1
	for j < t.slots && t.part(j) != nil && t.home(t.hash(j)) < j {
		j++
	}
	for k := i; k < j-1; k++ {
		t.set(k, t.part(k+1), t.hash(k+1), t.ownedAt(k+1))
	}
	t.set(j-1, nil, 0, false)
	t.n--
}

// placeSorted makes the table, which is empty, hold the n partitions of
// runs, the table's own in (hash, pk) order with distinct keys, at a
// load of about 70%: each at its home slot or just after the previous
// one, as rebuild places them, in one pass.
func (t *ptable) placeSorted(runs [][]*partition, n int) {
	if n == 0 {
		return
	}
	homes := max(ptableMinHomes, n*10/7+1)
	for ; ; homes += homes / 2 {
		t.init(homes)
		if t.placeRuns(runs) {
			t.n = n
			return
		}
	}
}

// placeRuns is placeSorted's pass: false if the partitions ran past the
// last slot.
func (t *ptable) placeRuns(runs [][]*partition) bool {
	next := 0
	for _, ps := range runs {
		for _, p := range ps {
			i := max(t.home(p.hash), next)
			if i >= t.slots {
				return false
			}
			pg, o := t.pages[i>>ptPageBits], i&(ptPageSlots-1)
			pg.parts[o], pg.hashes[o], pg.owned[o] = p, p.hash, true
			next = i + 1
		}
	}
	return true
}

// grow makes half as many home slots again.
func (t *ptable) grow() { t.rebuild(t.homes + t.homes/2) }

// rebuild places the partitions anew in at least homes home slots,
// growing until they fit: each at its home slot or just after the
// previous one. With the spare slots beyond the longest run this fits at
// once unless the hashes are badly skewed. It writes new pages only; a
// partition keeps its owned flag.
func (t *ptable) rebuild(homes int) {
	old := *t
	for ; ; homes += homes / 2 {
		t.init(homes)
		next, ok := 0, true
		for k := 0; k < old.slots; k++ {
			p := old.part(k)
			if p == nil {
				continue
			}
			i := max(t.home(p.hash), next)
			if i >= t.slots {
				ok = false
				break
			}
			t.set(i, p, p.hash, old.ownedAt(k))
			t.n++
			next = i + 1
		}
		if ok {
			return
		}
	}
}

// ascend visits the partitions from (h, pk) on, (h, pk) included, in
// scan order, until visit returns false.
func (t *ptable) ascend(h uint32, pk string, visit func(*partition) bool) {
	if t.pages == nil {
		return
	}
	for i := t.home(h); i < t.slots; i++ {
		p := t.part(i)
		if p == nil || t.compare(i, h, pk) < 0 {
			continue
		}
		if !visit(p) {
			return
		}
	}
}

// check verifies the invariants, for tests.
func (t *ptable) check() error {
	n := 0
	if len(t.pages) != len(t.pown) {
		return fmt.Errorf("%d pages, %d page flags", len(t.pages), len(t.pown))
	}
	for i := 0; i < t.slots; i++ {
		p := t.part(i)
		if p == nil {
			continue
		}
		n++
		if t.hash(i) != p.hash {
			return fmt.Errorf("slot %d: hash %d, partition's %d", i, t.hash(i), p.hash)
		}
		if h := t.home(p.hash); h > i {
			return fmt.Errorf("slot %d: before its home slot %d", i, h)
		} else {
			for k := h; k < i; k++ {
				if t.part(k) == nil {
					return fmt.Errorf("slot %d: an empty slot %d after its home %d", i, k, h)
				}
			}
		}
		for k := i + 1; k < t.slots; k++ {
			if q := t.part(k); q != nil {
				if !partitionLess(p, q) {
					return fmt.Errorf("slots %d and %d out of order", i, k)
				}
				break
			}
		}
	}
	if n != t.n {
		return fmt.Errorf("%d partitions in slots, count %d", n, t.n)
	}
	return nil
}
