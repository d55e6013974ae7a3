package storage

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Tables from snapshots: DB.RestoreTable makes a writable table of a
// snapshot without copying what it stores (copy-on-write, cow.go), and a
// TableBuilder makes a snapshot from stored item images (a snapshot file
// being loaded, a restore record being parsed) without decoding them.

// RestoreTable creates a table called name with ID id holding what src
// holds: its key schema, items, secondary indexes with their entries,
// vector indexes and metadata. The items and index entries are shared
// with src, not copied: the partition table and the B-trees in O(1), so a
// restore costs nothing per item or partition until the new table writes;
// vector indexes alone are rebuilt from the items, by db's
// VectorIndexer (a snapshot keeps their definitions only). The new
// table copies what it writes, as a snapshotted table does; src
// stays as it is. It records a RecordRestoreTable (Def and From: src) and
// fails as CreateTable does (ErrTableExists, ErrInvalidSchema for an
// empty name or ID).
func (db *DB) RestoreTable(name, id string, src *TableSnapshot) (*Table, error) {
	def := TableDef{Name: name, ID: id, Schema: src.ks, Indexes: src.Indexes(), VectorIndexes: src.VectorIndexes(), Meta: src.meta}
	if err := def.Validate(); err != nil {
		return nil, err
	}
	t := src.newTable()
	t.vix = db.vectorIndexer()
	t.buildVectorIndexes(src.vectors)
	t.name, t.uid = cloneUnless(name, src.name), cloneUnless(id, src.id)
	t, res, err := db.createLocking(t, &Record{Kind: RecordRestoreTable, Table: t.uid, Def: &def, From: src})
	if err != nil {
		return nil, err
	}
	return t, res.finish()
}

// cloneUnless returns s, copied unless it is same (a string the snapshot
// owns already: a restore under the snapshot's own name and ID shares it).
func cloneUnless(s, same string) string {
	if s == same {
		return same
	}
	return strings.Clone(s)
}

// newTable returns a table of no DB sharing everything s holds: its
// partition table is shared, so that it copies the arrays, and then each
// partition, before writing them (cow.go). Its slab starts empty: the
// records it shares with s are in chunks it does not count, which it
// never compacts.
func (s *TableSnapshot) newTable() *Table {
	t := &Table{
		ks:      s.ks,
		id:      tableSeq.Add(1),
		parts:   s.parts, // shared: see ptable.share
		count:   s.count,
		size:    s.size,
		meta:    s.meta, // copied at the table's first change (setMetaLocking)
		foreign: true,
		stamp:   s.stamp,
	}
	t.metaShared = true
	t.indexes, t.indexReads, t.idxShared = s.indexes, s.reads, len(s.indexes) > 0
	return t
}

// ownIndexesLocked gives t copies of the indexes it shares with the
// snapshot it was restored from (idxShared), before their first change:
// each copy shares the snapshot's nodes and copies a node before writing
// it (itree.Copy). t.mu is held exclusively.
func (t *Table) ownIndexesLocked() {
	if !t.idxShared {
		return
	}
	own := make([]*index, len(t.indexes))
	for i, x := range t.indexes {
		own[i] = &index{def: x.def, tree: x.tree.copyShared(), count: x.count, size: x.size, sized: x.sized}
	}
	t.indexes, t.idxShared = own, false
}

// TableBuilder builds a TableSnapshot from item images as a table stores
// them (EncodedItems, such as ParseRecord's or another snapshot's), in
// scan order, without decoding them: for loading a table written out
// item by item. Each image is checked (checkImage) and its size
// verified; indexes are filled by Finish. A TableBuilder is used by one
// goroutine.
type TableBuilder struct {
	t    *Table // of no DB; only its partitions, records, count and size are kept
	def  TableDef
	last *partition // the partition being filled
	// parts are the partitions made, in scan order: placed in the
	// partition table at once by Finish (ptable.placeSorted), since
	// inserting them one at a time in hash order piles them up at the
	// front of a table sized for those so far, each insert scanning the
	// pile (BenchmarkTableBuilder). They are kept in runs, each twice
	// the one before up to partRunMax and backed by the kernel at once
	// (populateSlice), so none is copied to grow: a table's partitions
	// in one growing slice were a sixth of a load's page faults.
	parts  [][]*partition
	nparts int
	// fills fill the secondary indexes as the items come, while each
	// item's image is at hand (indexFill).
	fills []*indexFill
	// reads are the attributes the fills read of an item, and picked
	// those of the item being added (itemSize); readsKey says which of
	// the key attributes are among them.
	reads    []string
	readsKey [2]bool
	picked   Item
	sorts    int // indexes Finish sorted, not given their order (for tests)
	err      error
}

// NewTableBuilder starts building a table defined by def (name, ID, key
// schema, indexes and metadata). def must pass Validate, with name and
// ID not empty.
func NewTableBuilder(def TableDef) (*TableBuilder, error) {
	if err := def.Validate(); err != nil {
		return nil, err
	}
	def = cloneDef(def)
	b := &TableBuilder{t: NewTable(def.Schema), def: def}
	b.t.name, b.t.uid = def.Name, def.ID
	b.t.meta = cloneMeta(def.Meta)
	xs := make([]*index, len(def.Indexes))
	for i, x := range def.Indexes {
		xs[i] = newIndex(b.t.ks, x)
		b.fills = append(b.fills, newIndexFill(xs[i], 0))
	}
	b.reads = readsOf(xs)
	b.readsKey = [2]bool{slices.Contains(b.reads, def.Schema.Partition.Name), def.Schema.HasSort() && slices.Contains(b.reads, def.Schema.Sort.Name)}
	b.picked = make(Item, len(b.reads))
	return b, nil
}

// cloneDef copies def's strings and slices, which may share memory with
// a large buffer (a parsed record) that the table must not keep alive.
func cloneDef(def TableDef) TableDef {
	attr := func(a KeyAttr) KeyAttr { return KeyAttr{Name: strings.Clone(a.Name), Kind: a.Kind} }
	attrs := func(as []KeyAttr) []KeyAttr {
		if as == nil {
			return nil
		}
		out := make([]KeyAttr, len(as))
		for i, a := range as {
			out[i] = attr(a)
		}
		return out
	}
	out := TableDef{Name: strings.Clone(def.Name), ID: strings.Clone(def.ID), Meta: def.Meta,
		Schema: KeySchema{Partition: attr(def.Schema.Partition), Sort: attr(def.Schema.Sort)}}
	for _, x := range def.Indexes {
		y := IndexDef{Name: strings.Clone(x.Name), Projection: Projection{All: x.Projection.All}}
		y.Schema.Partition, y.Schema.Sort = attrs(x.Schema.Partition), attrs(x.Schema.Sort)
		for _, n := range x.Projection.NonKey {
			y.Projection.NonKey = append(y.Projection.NonKey, strings.Clone(n))
		}
		out.Indexes = append(out.Indexes, y)
	}
	for _, x := range def.VectorIndexes {
		y := x.clone()
		y.Name, y.Attribute = strings.Clone(x.Name), strings.Clone(x.Attribute)
		y.Hash = attr(x.Hash)
		y.Filters = attrs(x.Filters)
		for i, n := range y.Projection.NonKey {
			y.Projection.NonKey[i] = strings.Clone(n)
		}
		out.VectorIndexes = append(out.VectorIndexes, y)
	}
	return out
}

// Add adds item e, which must come after the items added before it in
// scan order (Table.Scan's: partitions by hash, then key; items by sort
// key). Its key must fit the key schema, its image must be well formed
// without the key attributes and its size must be the image's. Errors
// wrap ErrCorrupt (ErrKeyKind for a key of other kinds); after one, the
// builder refuses everything.
func (b *TableBuilder) Add(e EncodedItem) error {
	if b.err != nil {
		return b.err
	}
	b.err = b.add(e)
	return b.err
}

func (b *TableBuilder) add(e EncodedItem) error {
	t := b.t
	key := e.Key()
	if err := t.ks.checkKey(key); err != nil {
		return err
	}
	if (key.Partition.kind == KindN && !isCanonicalNumber(key.Partition.str)) ||
		(key.Sort.kind == KindN && !isCanonicalNumber(key.Sort.str)) {
		return fmt.Errorf("%w: key number not canonical", ErrCorrupt)
	}
	size, err := b.itemSize(key, e.body)
	if err != nil {
		return err
	}
	if size != int(e.size) {
		return fmt.Errorf("%w: item of %d bytes recorded as %d", ErrCorrupt, size, e.size)
	}
	sk := t.sortKeyOf(key)
	pk := key.Partition.str
	rec := appendRecHeader(t.scratchLocked().buf[:0], pk, sk)
	if len(rec) > maxRecordHeader {
		return fmt.Errorf("%w: keys of %d and %d bytes", ErrCorrupt, len(pk), len(sk))
	}
	p, h, err := b.partitionFor(pk, sk)
	if err != nil {
		return err
	}
	rec = append(rec, e.body...)
	ent := parseEntry(t.storeLocked(rec), e.size)
	if cap(rec) <= maxScratch {
		t.scr.buf = rec
	}
	b.place(p, h, key, ent)
	return nil
}

// itemSize checks the image body of the item whose key is key and
// returns the item's size; the attributes the fills read are then in
// b.picked.
func (b *TableBuilder) itemSize(key Key, body string) (int, error) {
	var pick Item
	if len(b.fills) > 0 {
		pick = b.picked
		clear(pick)
	}
	return b.t.ks.imageSize(key, body, b.reads, b.readsKey, pick)
}

// partitionFor returns the partition the item of keys pk and sk (sk
// encoded) goes in: the one filled last, or nil for a new one, with pk's
// hash; an error when the item is not after every item added before it.
func (b *TableBuilder) partitionFor(pk, sk string) (*partition, uint32, error) {
	p := b.last
	if p == nil || p.pk() != pk {
		h := partitionHash(pk)
		if p != nil && (p.hash > h || p.hash == h && p.pk() >= pk) {
			return nil, 0, fmt.Errorf("%w: items out of scan order", ErrCorrupt)
		}
		return nil, h, nil
	}
	if last := p.lastEntry(); last.sortKey() >= sk {
		return nil, 0, fmt.Errorf("%w: items out of scan order", ErrCorrupt)
	}
	return p, p.hash, nil
}

// place adds the stored entry ent, whose key is key, to partition p
// (nil: a new one of hash h, after every other in scan order) and to the
// indexes.
func (b *TableBuilder) place(p *partition, h uint32, key Key, ent entry) {
	t := b.t
	if p == nil {
		// A new partition, after every other in scan order: it goes at
		// the end of the partition table.
		p = t.scratchLocked().arena.alloc()
		p.hash = h
		p.load(ent)
		b.addPart(p)
		b.last = p
	} else {
		p.load(ent)
	}
	for _, f := range b.fills {
		f.addItem(b.picked, ent)
	}
	t.count++
	t.size += int64(ent.size)
}

// addPart adds p to the partitions made.
func (b *TableBuilder) addPart(p *partition) {
	if k := len(b.parts) - 1; k < 0 || len(b.parts[k]) == cap(b.parts[k]) {
		n := partRunMin
		if k >= 0 {
			n = min(2*cap(b.parts[k]), partRunMax)
		}
		run := make([]*partition, 0, n)
		populateSlice(run)
		b.parts = append(b.parts, run)
	}
	k := len(b.parts) - 1
	b.parts[k] = append(b.parts[k], p)
	b.nparts++
}

// partRunMin and partRunMax bound the length of a TableBuilder's runs
// of partitions.
const (
	partRunMin = 1 << 10
	partRunMax = 1 << 16
)

// DeferIndexes leaves the table built without its secondary indexes'
// entries, for RestoreTable in a DB that defers them (DB.DeferIndexes),
// which fills them after. Call it before Add.
func (b *TableBuilder) DeferIndexes() { b.fills, b.reads = nil, nil }

// errBuilt is what a TableBuilder returns after Finish.
var errBuilt = errors.New("storage: table builder already finished")

// lastEntry returns the entry with the greatest sort key of a partition
// that is not empty.
func (p *partition) lastEntry() entry {
	if p.tree == nil {
		return p.one()
	}
	return p.tree.Max()
}

// load adds e, whose sort key is greater than every other's, to p.
func (p *partition) load(e entry) {
	switch {
	case p.tree != nil:
		p.tree = p.tree.Load(e)
	case p.rec == "":
		p.setOne(e)
	default:
		p.tree = newPtree(p.one(), e)
		p.rec, p.size = keyRecord(e.pk()), 0 // as partition.set does
	}
}

// Finish fills the indexes and returns the snapshot of the table built.
// The builder is done: Add fails after it.
func (b *TableBuilder) Finish() (*TableSnapshot, error) {
	if b.err != nil {
		return nil, b.err
	}
	t := b.t
	t.parts.placeSorted(b.parts, b.nparts)
	b.parts = nil
	if b.fills == nil { // DeferIndexes: empty, to be filled
		for _, x := range b.def.Indexes {
			t.indexes = append(t.indexes, newIndex(t.ks, x))
		}
	}
	for _, f := range b.fills {
		if !f.finish() {
			b.sorts++
		}
		t.indexes = append(t.indexes, f.x)
	}
	b.fills = nil
	t.indexReads = t.indexReadsLocked()
	for _, x := range b.def.VectorIndexes {
		if err := t.AddVectorIndex(x); err != nil {
			b.err = err
			return nil, err
		}
	}
	b.err = errBuilt
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.snapshotLocked(), nil
}
