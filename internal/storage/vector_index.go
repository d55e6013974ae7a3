package storage

import (
	"fmt"
	"slices"
)

// A table's vector indexes: their definitions, and their entries when the
// table has a VectorIndexer (vector.go). Entries point at the table's
// stored records (ItemRef): projections are applied by the reader.

// vslot is one vector index of a table: its definition and its entries
// (nil without a VectorIndexer).
type vslot struct {
	def VectorIndexDef
	x   VectorIndex
}

// AddVectorIndex adds a vector index to t and fills it from the items
// stored (a backfill, under the write lock), and records it
// (RecordAddVectorIndex) or, when the hook refuses it, takes it away
// again. def must pass Validate.
func (t *Table) AddVectorIndex(def VectorIndexDef) error {
	if err := def.Validate(); err != nil {
		return err
	}
	res, err := t.addVectorIndexLocking(def.clone())
	if err != nil {
		return err
	}
	return res.finish()
}

func (t *Table) addVectorIndexLocking(def VectorIndexDef) (hookResult, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.vindexLocked(def.Name) != nil {
		return hookResult{}, fmt.Errorf("%w: %q", ErrVectorIndexExists, def.Name)
	}
	prev := t.vindexes
	t.stamp = 0
	t.vindexes = append(slices.Clip(t.vindexes), t.buildVectorLocked(def))
	rec := def.clone()
	return t.hookVectorIndexLocked(RecordAddVectorIndex, &rec, prev)
}

// buildVectorLocked returns the vector index def with its entries made by
// t's indexer and filled from the stored items; t.mu is held
// exclusively, or t is not shared yet.
func (t *Table) buildVectorLocked(def VectorIndexDef) vslot {
	s := vslot{def: def}
	if t.vix == nil {
		return s
	}
	s.x = t.vix.NewVectorIndex(t.ks, def)
	t.backfillLocked(s.x)
	return s
}

// backfillLocked fills x from the stored items.
func (t *Table) backfillLocked(x VectorIndex) {
	reads := x.Reads()
	t.parts.ascend(0, "", func(p *partition) bool {
		p.walk(bound{}, bound{}, true, func(e entry) bool {
			x.Put(ItemRef{pk: e.pk(), e: e}, t.encodedOf(t.keyOf(e), e).Attributes(reads))
			return true
		})
		return true
	})
}

// buildVectorIndexes gives t, a table of no DB not yet shared, the vector
// indexes defs, each built with t's indexer.
func (t *Table) buildVectorIndexes(defs []VectorIndexDef) {
	for _, def := range defs {
		t.vindexes = append(t.vindexes, t.buildVectorLocked(def.clone()))
	}
}

// DropVectorIndex removes the vector index called name and its entries,
// and records it (RecordDropVectorIndex).
func (t *Table) DropVectorIndex(name string) error {
	res, err := t.dropVectorIndexLocking(name)
	if err != nil {
		return err
	}
	return res.finish()
}

func (t *Table) dropVectorIndexLocking(name string) (hookResult, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	i := slices.IndexFunc(t.vindexes, func(s vslot) bool { return s.def.Name == name })
	if i < 0 {
		return hookResult{}, fmt.Errorf("%w: %q", ErrNoVectorIndex, name)
	}
	prev := t.vindexes
	t.stamp = 0
	t.vindexes = slices.Delete(slices.Clone(t.vindexes), i, i+1)
	return t.hookVectorIndexLocked(RecordDropVectorIndex, &VectorIndexDef{Name: name}, prev)
}

// hookVectorIndexLocked records a vector index change made under the
// write lock, or when the hook fails puts back the vector indexes there
// were before it.
func (t *Table) hookVectorIndexLocked(kind RecordKind, def *VectorIndexDef, prev []vslot) (hookResult, error) {
	if t.hook == nil {
		return hookResult{}, nil
	}
	res, err := callHook(t.hook, &Record{Kind: kind, Table: t.uid, VectorIndex: def})
	if err != nil {
		t.vindexes = prev
	}
	return res, err
}

// VectorIndexes returns the definitions of t's vector indexes, in the
// order they were added; the caller owns the slices.
func (t *Table) VectorIndexes() []VectorIndexDef {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.vectorDefsLocked()
}

func (t *Table) vectorDefsLocked() []VectorIndexDef {
	defs := make([]VectorIndexDef, len(t.vindexes))
	for i, s := range t.vindexes {
		defs[i] = s.def.clone()
	}
	return defs
}

// VectorIndexStats returns the number of vectors in the index called name
// and its size (VectorStats); 0 and 0 for an index without entries.
func (t *Table) VectorIndexStats(name string) (count int, size int64, err error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	s := t.vindexLocked(name)
	if s == nil {
		return 0, 0, fmt.Errorf("%w: %q", ErrNoVectorIndex, name)
	}
	if s.x == nil {
		return 0, 0, nil
	}
	st := s.x.Stats()
	return st.Count, st.Size, nil
}

// BilledSizeBytes is SizeBytes with each vector an index holds counted
// four bytes a dimension instead of its list's size, as AWS bills a
// vector attribute toward the item's size whatever numbers it holds
// (the service's vector_capacity.go). An attribute two indexes share is
// counted once, by the first.
func (t *Table) BilledSizeBytes() int64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	size := t.size
	for i, s := range t.vindexes {
		if s.x == nil || slices.ContainsFunc(t.vindexes[:i], func(o vslot) bool { return o.def.Attribute == s.def.Attribute }) {
			continue
		}
		st := s.x.Stats()
		size += int64(st.Count)*int64(4*s.def.Dimensions) - st.Lists
	}
	return size
}

func (t *Table) vindexLocked(name string) *vslot {
	for i := range t.vindexes {
		if t.vindexes[i].def.Name == name {
			return &t.vindexes[i]
		}
	}
	return nil
}

// ReadVectorIndex calls fn with the entries of the vector index called
// name under t's read lock, which fn must not take again (nor t's write
// lock): a search (internal/vector's Search). ErrNoVectorIndex if t has
// no such index, ErrNoVectorIndexer if it has no entries.
func (t *Table) ReadVectorIndex(name string, fn func(VectorIndex)) error {
	t.mu.RLock()
	defer t.mu.RUnlock()
	s := t.vindexLocked(name)
	switch {
	case s == nil:
		return fmt.Errorf("%w: %q", ErrNoVectorIndex, name)
	case s.x == nil:
		return fmt.Errorf("%w: %q", ErrNoVectorIndexer, name)
	}
	fn(s.x)
	return nil
}

// ItemAt returns the item stored at r, an ItemRef one of t's vector
// indexes holds, as stored and whole: valid after t's locks are let go.
func (t *Table) ItemAt(r ItemRef) EncodedItem {
	k := Key{Partition: Value{kind: t.ks.Partition.Kind, str: r.pk}}
	if t.ks.HasSort() {
		k.Sort = sortKeyValue(t.ks.Sort.Kind, r.e.sortKey())
	}
	return t.encodedOf(k, r.e)
}

// updateVectorIndexesLocked applies one item write to every vector index:
// at is where the new image nu is stored, or for a delete (nu nil) names
// the key.
func (t *Table) updateVectorIndexesLocked(at ItemRef, nu Item) {
	for _, s := range t.vindexes {
		if s.x != nil {
			s.x.Put(at, nu)
		}
	}
}

// SetVectorIndexer makes ix build t's vector indexes (nil: none holds
// entries). Which indexer builds them is the emulator's choice and not
// part of an index's definition, so nothing is recorded: unless ix is t's
// already (==), every vector index t has is built anew with it from the
// stored items (what a backfill costs). AddVectorIndex builds later ones
// with it.
func (t *Table) SetVectorIndexer(ix VectorIndexer) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if ix == t.vix {
		return
	}
	t.vix = ix
	next := make([]vslot, len(t.vindexes))
	for i, s := range t.vindexes {
		next[i] = t.buildVectorLocked(s.def)
	}
	t.vindexes = next
}

// SetVectorIndexer makes ix build the vector indexes of db's tables: of
// the tables it has (Table.SetVectorIndexer) and of every table
// CreateTable or RestoreTable makes later, which build theirs with it at
// once. Set it before loading tables into db (a store's load, Apply), so
// that each index is built once.
func (db *DB) SetVectorIndexer(ix VectorIndexer) {
	db.mu.Lock()
	db.vix = ix
	tables := slices.Clone(db.tables)
	db.mu.Unlock()
	for _, t := range tables {
		t.SetVectorIndexer(ix)
	}
}

// vectorIndexer returns the indexer db's new tables build vector indexes
// with (SetVectorIndexer).
func (db *DB) vectorIndexer() VectorIndexer {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return db.vix
}

// checkVectorIndexesLocked verifies every vector index's entries against
// the stored items (VectorIndex.Check), for tests.
func (t *Table) checkVectorIndexesLocked() error {
	for _, s := range t.vindexes {
		if s.x == nil {
			continue
		}
		if err := s.x.Check(t.backfillLocked); err != nil {
			return fmt.Errorf("vector index %q: %w", s.def.Name, err)
		}
	}
	return nil
}
