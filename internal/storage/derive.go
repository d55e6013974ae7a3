package storage

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Deriving snapshots: a snapshot as another would be after some changes,
// made without touching the table it came from. Backups restore a table
// under another name with other metadata and fewer indexes; point-in-time
// recovery rolls a snapshot forward through the item writes its table's
// hook recorded. Both share with the source every node the changes do
// not touch (copy-on-write, cow.go).

// Derivation says how Derive changes a snapshot.
type Derivation struct {
	// Writes are applied in order: each stores its New image under its
	// key (HasNew), or deletes the key's item (not HasNew). They are
	// item writes of a table with the snapshot's key schema, as its DB's
	// hook recorded them (ItemWrite.Committed); Old is not read. A write
	// whose item is already as it says (the snapshot was taken after it)
	// changes nothing, so a log that overlaps the snapshot may be applied
	// whole.
	Writes []Committed
	// Indexes, if not nil, are the secondary indexes of the result, in
	// order: an index of the snapshot with the same definition keeps its
	// entries, any other is built from the items (one pass over them), and
	// the snapshot's indexes not named are left out. Nil keeps the
	// snapshot's.
	Indexes []IndexDef
	// VectorIndexes, if not nil, are the vector indexes of the result,
	// in order: the snapshot's are left out unless named here. Nil keeps
	// the snapshot's. A snapshot keeps their definitions only (a table
	// made of it builds their entries).
	VectorIndexes []VectorIndexDef
	// Meta, if not nil, replaces the snapshot's metadata.
	Meta map[string][]byte
}

// Derive returns a new snapshot of what s holds changed as d says; s is
// not changed. Without writes and new indexes it costs O(indexes); each
// write costs what a table write costs (copying the nodes on its path
// once); a new index costs a pass over the items. Errors: ErrCorrupt for
// a write that does not fit the key schema or whose image is malformed,
// and AddIndex's for an index that cannot be built.
func (s *TableSnapshot) Derive(d Derivation) (*TableSnapshot, error) {
	meta := s.meta
	if d.Meta != nil {
		meta = cloneMeta(d.Meta)
	}
	keep, build := s.indexPlan(d.Indexes)
	vectors := s.vectors
	if d.VectorIndexes != nil {
		vectors = nil
		for _, def := range d.VectorIndexes {
			if err := def.Validate(); err != nil {
				return nil, err
			}
			vectors = append(vectors, def.clone())
		}
	}
	if len(d.Writes) == 0 && len(build) == 0 {
		out := *s
		out.meta, out.indexes, out.vectors, out.stamp = meta, keep, vectors, 0
		out.reads = readsOf(keep)
		return &out, nil
	}
	t := s.newTable()
	t.meta, t.stamp = meta, 0
	if d.Indexes != nil {
		t.indexes, t.idxShared = nil, false
		for _, x := range keep {
			t.indexes = append(t.indexes, &index{def: x.def, tree: x.tree.copyShared(), count: x.count, size: x.size, sized: x.sized})
		}
		t.indexReads = t.indexReadsLocked()
	}
	if err := t.replay(d.Writes); err != nil {
		return nil, err
	}
	for _, def := range build {
		if err := t.AddIndex(def); err != nil {
			return nil, err
		}
	}
	// Their definitions only, after the writes (t has no indexer): a
	// table made of the result builds their entries (RestoreTable).
	t.buildVectorIndexes(vectors)
	if d.Indexes != nil {
		order := make(map[string]int, len(d.Indexes))
		for i, x := range d.Indexes {
			order[x.Name] = i
		}
		slices.SortStableFunc(t.indexes, func(a, b *index) int { return order[a.def.Name] - order[b.def.Name] })
		t.indexReads = t.indexReadsLocked()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	out := t.snapshotLocked()
	out.name, out.id, out.vix = s.name, s.id, s.vix
	return out, nil
}

// indexPlan splits defs (nil: keep every index) into the indexes of s
// kept as they are and the definitions to build.
func (s *TableSnapshot) indexPlan(defs []IndexDef) (keep []*index, build []IndexDef) {
	if defs == nil {
		return s.indexes, nil
	}
	for _, def := range defs {
		i := slices.IndexFunc(s.indexes, func(x *index) bool { return sameIndexDef(x.def, def) })
		if i < 0 {
			build = append(build, def)
			continue
		}
		keep = append(keep, s.indexes[i])
	}
	return keep, build
}

// sameIndexDef reports whether two index definitions are the same.
func sameIndexDef(a, b IndexDef) bool {
	return a.Name == b.Name && a.Projection.All == b.Projection.All &&
		slices.Equal(a.Projection.NonKey, b.Projection.NonKey) &&
		slices.Equal(a.Schema.Partition, b.Schema.Partition) && slices.Equal(a.Schema.Sort, b.Schema.Sort)
}

// replay applies writes to t, a table of no DB, in one transaction.
func (t *Table) replay(writes []Committed) error {
	if len(writes) == 0 {
		return nil
	}
	tx := Begin(t)
	defer tx.Abort()
	for i, w := range writes {
		var err error
		if w.HasNew {
			_, err = tx.writeImage(w.Origin, t, w.Key, w.New)
		} else {
			_, err = tx.write(w.Origin, t, w.Key, nil, false, nil)
		}
		if err != nil {
			return fmt.Errorf("%w: write %d: %w", ErrCorrupt, i, err)
		}
	}
	_, err := tx.Commit()
	return err
}

// MetaMap returns a copy of the snapshot's metadata (its values shared:
// the caller must not modify them), for a Derivation that changes some.
func (s *TableSnapshot) MetaMap() map[string][]byte { return maps.Clone(s.meta) }

// Clone returns the write with its key's bytes copied: a hook keeps the
// writes it is handed this way (their images are immutable already, but
// their key may share memory with the writer's request).
func (w Committed) Clone() Committed {
	w.Key.Partition.str = strings.Clone(w.Key.Partition.str)
	w.Key.Sort.str = strings.Clone(w.Key.Sort.str)
	w.Old.key, w.New.key = w.Key, w.Key
	w.Old.nsk, w.New.nsk = "", ""
	return w
}
