package storage

import (
	"fmt"
	"strings"
)

// ptable is a table's partitions: a hash table that is also their Scan
// order. It is an open-addressing table with linear probing whose slots,
// read in array order, hold the partitions sorted by (hash, partition
// key), and a partition's home slot is its hash scaled to the number of
// home slots (hash*homes>>32, which keeps the order of hashes). So one
// array answers both a lookup by key (from the home slot, a few slots on)
// and Scan (from a hash, in array order), where a Go map and a B-tree of
// the same partitions cost three to four times the memory (a map slot of
// a string key and a pointer, at the map's load, plus a B-tree item).
//
// Invariants: the occupied slots in array order are sorted by (hash, pk);
// every partition sits at or after its home slot, with no empty slot
// between the two. An insert shifts the run after its place one slot
// right; a delete shifts the displaced partitions after it one slot left
// (backward-shift deletion); both keep the order. There is no wrap-around:
// the array has spare slots past the last home slot, and a table that
// would run past them grows. Growing makes half as many home slots again
// (so the load stays between about 55% and 85%) and places the
// partitions, in order, each at its home or just after the previous one.
//
// hashes keeps each slot's hash beside its pointer so a probe compares
// hashes without loading partitions; a partition is loaded only when the
// hashes are equal.
//
// Copy-on-write (cow.go): a snapshot takes a copy of the ptable value,
// sharing its arrays, and marks the table's shared; a shared ptable's
// arrays are never written: the first change after a snapshot copies them
// (unshare). owned says, per slot, that the partition there is the
// table's own, made or copied since its arrays were last copied; a
// partition that is not may be a snapshot's too, and is copied before it
// is written. Copying the arrays clears every owned flag: all the
// partitions they hold were there when the snapshot was taken.
type ptable struct {
	hashes []uint32
	parts  []*partition // nil: an empty slot
	owned  []bool       // the slot's partition is the table's own (see above)
	n      int          // partitions
	homes  int          // home slots (the rest are spare)
	shared bool         // the arrays may be a snapshot's too: copy before writing
}

const (
	ptableMinHomes = 16
	// ptableMaxLoad is the load (in percent of the home slots) past which
	// the table grows.
	ptableMaxLoad = 85
)

// init makes an empty table of homes home slots.
func (t *ptable) init(homes int) {
	spare := 16 + homes/16
	t.hashes = make([]uint32, homes+spare)
	t.parts = make([]*partition, homes+spare)
	t.owned = make([]bool, homes+spare)
	t.homes = homes
	t.n = 0
	t.shared = false
}

// share returns a copy of t for a snapshot: both share the arrays, which
// neither writes again (t copies them before its next change).
func (t *ptable) share() ptable {
	t.shared = true
	return *t
}

// unshare gives t arrays of its own if it shares them, none of whose
// partitions are its own.
func (t *ptable) unshare() {
	if !t.shared {
		return
	}
	t.hashes = append([]uint32(nil), t.hashes...)
	t.parts = append([]*partition(nil), t.parts...)
	t.owned = make([]bool, len(t.parts))
	t.shared = false
}

// ownedAt reports whether the partition in slot i is the table's own.
func (t *ptable) ownedAt(i int) bool { return !t.shared && t.owned[i] }

// setOwned puts p, the table's own, in slot i, which holds a partition of
// the same key; t is not shared.
func (t *ptable) setOwned(i int, p *partition) { t.parts[i], t.owned[i] = p, true }

func (t *ptable) home(h uint32) int { return int(uint64(h) * uint64(t.homes) >> 32) }

// compare orders slot i's partition against (h, pk).
func (t *ptable) compare(i int, h uint32, pk string) int {
	switch {
	case t.hashes[i] < h:
		return -1
	case t.hashes[i] > h:
		return 1
	}
	return strings.Compare(t.parts[i].pk(), pk)
}

// find returns the slot of the partition with key pk (hash h), or the
// slot where it would go, and whether it is there.
func (t *ptable) find(h uint32, pk string) (int, bool) {
	if t.parts == nil {
		return 0, false
	}
	i := t.home(h)
	for ; i < len(t.parts) && t.parts[i] != nil; i++ {
		if c := t.compare(i, h, pk); c >= 0 {
			return i, c == 0
		}
	}
	return i, false
}

// get returns the partition with key pk, or nil.
func (t *ptable) get(pk string) *partition {
	if i, ok := t.find(partitionHash(pk), pk); ok {
		return t.parts[i]
	}
	return nil
}

// insert adds p, the table's own, whose key is not in the table.
func (t *ptable) insert(p *partition) {
	if t.parts == nil {
		t.init(ptableMinHomes)
	}
	t.unshare()
	for {
		if (t.n+1)*100 > t.homes*ptableMaxLoad {
			t.grow()
		}
		i, _ := t.find(p.hash, p.pk())
		j := i
		for j < len(t.parts) && t.parts[j] != nil {
			j++
		}
		if j == len(t.parts) {
			t.grow() // the run reaches the end: make room
			continue
		}
		copy(t.parts[i+1:j+1], t.parts[i:j])
		copy(t.hashes[i+1:j+1], t.hashes[i:j])
		copy(t.owned[i+1:j+1], t.owned[i:j])
		t.parts[i], t.hashes[i], t.owned[i] = p, p.hash, true
		t.n++
		return
	}
}

// remove takes out the partition with key pk, which is in the table, and
// returns it and whether it was the table's own.
func (t *ptable) remove(pk string) (*partition, bool) {
	t.unshare()
	i, ok := t.find(partitionHash(pk), pk)
	if !ok {
		panic("storage: removing a partition that is not there")
	}
	p, own := t.parts[i], t.owned[i]
	t.removeAt(i)
	return p, own
}

// removeAt empties slot i; t is not shared.
func (t *ptable) removeAt(i int) {
	// Backward shift: move the displaced partitions after i one slot left.
	j := i + 1
	for j < len(t.parts) && t.parts[j] != nil && t.home(t.hashes[j]) < j {
		j++
	}
	copy(t.parts[i:j-1], t.parts[i+1:j])
	copy(t.hashes[i:j-1], t.hashes[i+1:j])
	copy(t.owned[i:j-1], t.owned[i+1:j])
	t.parts[j-1], t.hashes[j-1], t.owned[j-1] = nil, 0, false
	t.n--
}

// grow makes half as many home slots again; t is not shared.
func (t *ptable) grow() { t.rebuild(t.parts, t.owned, t.homes+t.homes/2) }

// rebuild makes the table of parts (in order, nil slots skipped; owned
// their flags) with at least homes home slots, growing until they fit:
// each at its home slot or just after the previous one. With the spare
// slots beyond the longest run this fits at once unless the hashes are
// badly skewed. It writes new arrays only.
func (t *ptable) rebuild(parts []*partition, owned []bool, homes int) {
	for ; ; homes += homes / 2 {
		t.init(homes)
		next, ok := 0, true
		for k, p := range parts {
			if p == nil {
				continue
			}
			i := max(t.home(p.hash), next)
			if i >= len(t.parts) {
				ok = false
				break
			}
			t.parts[i], t.hashes[i], t.owned[i] = p, p.hash, owned[k]
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
	if t.parts == nil {
		return
	}
	for i := t.home(h); i < len(t.parts); i++ {
		if t.parts[i] == nil || t.compare(i, h, pk) < 0 {
			continue
		}
		if !visit(t.parts[i]) {
			return
		}
	}
}

// check verifies the invariants, for tests.
func (t *ptable) check() error {
	n := 0
	for i, p := range t.parts {
		if p == nil {
			continue
		}
		n++
		if t.hashes[i] != p.hash {
			return fmt.Errorf("slot %d: hash %d, partition's %d", i, t.hashes[i], p.hash)
		}
		if h := t.home(p.hash); h > i {
			return fmt.Errorf("slot %d: before its home slot %d", i, h)
		} else {
			for k := h; k < i; k++ {
				if t.parts[k] == nil {
					return fmt.Errorf("slot %d: an empty slot %d after its home %d", i, k, h)
				}
			}
		}
		for k := i + 1; k < len(t.parts); k++ {
			if t.parts[k] != nil {
				if !partitionLess(p, t.parts[k]) {
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
