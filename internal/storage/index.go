package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"unsafe"
)

// Secondary indexes.
//
// An index is one B-tree per table index, ordered by (index key, table
// key). The index key is a tuple key (tuplekey.go): a 4-byte big-endian
// hash of the encoded index partition key, the encoded partition key
// values, then the encoded sort key values. So one index partition is one
// contiguous run of the tree that a Query seeks to, and a Scan walks the
// partitions in hash order, which makes parallel scan segments contiguous
// hash ranges as they are for the table.
//
// An entry does not copy the item: it points at the table's stored record
// (immutable, shared), which names the table key that completes the
// order, so an entry costs its index key plus a few words whatever the
// projection. Projections are applied by the reader;
// storage keeps the projected size of each entry for IndexSizeBytes.
//
// Entries are maintained inside the table's write, under its write lock,
// from the old and new images of the item (the Change): a reader never
// sees an item without its index entries or the reverse.

// Index errors.
var (
	// ErrNoIndex: the table has no index of that name.
	ErrNoIndex = errors.New("storage: no such index")
	// ErrIndexExists: AddIndex was given a name the table already has.
	ErrIndexExists = errors.New("storage: index already exists")
)

// Limits of an index key: the attribute counts, and the bytes of one S or
// B key value (DynamoDB's key limits: 2048 for a partition key, 1024 for
// a sort key).
const (
	MaxIndexPartitionAttrs = 4
	MaxIndexSortAttrs      = 4
	MaxIndexPartitionBytes = 2048
	MaxIndexSortBytes      = 1024
)

// indexable reports whether v, of an index key attribute's kind, can be
// an index key value: a number, or a string or binary of 1 to limit
// bytes. Writes that break the rule are refused before storage; items
// stored before the index existed are left out of it by its backfill, as
// AWS leaves them out (developer guide, "Detecting and correcting index
// key violations").
func indexable(v Value, limit int) bool {
	if v.kind == KindN {
		return true
	}
	n := len(v.Str())
	return n > 0 && n <= limit
}

// IndexSchema is a secondary index's key: one to four partition key
// attributes and up to four sort key attributes, each S, N or B, in the
// order of the index's KeySchema. An item is in the index only when it has
// every one of them with its kind (a sparse index).
type IndexSchema struct {
	Partition []KeyAttr
	Sort      []KeyAttr
}

// Validate checks the attribute counts, kinds and names (distinct).
func (s IndexSchema) Validate() error {
	if n := len(s.Partition); n < 1 || n > MaxIndexPartitionAttrs {
		return fmt.Errorf("%w: %d index partition key attributes", ErrInvalidSchema, n)
	}
	if n := len(s.Sort); n > MaxIndexSortAttrs {
		return fmt.Errorf("%w: %d index sort key attributes", ErrInvalidSchema, n)
	}
	var seen []string
	for _, a := range s.attrs() {
		if a.Name == "" || !a.Kind.IsScalarKey() {
			return fmt.Errorf("%w: index key attribute %q of kind %s", ErrInvalidSchema, a.Name, a.Kind)
		}
		if slices.Contains(seen, a.Name) {
			return fmt.Errorf("%w: index key attribute %q twice", ErrInvalidSchema, a.Name)
		}
		seen = append(seen, a.Name)
	}
	return nil
}

// attrs returns the partition then the sort key attributes.
func (s IndexSchema) attrs() []KeyAttr {
	return append(slices.Clip(s.Partition), s.Sort...)
}

// Projection says which attributes an index holds beyond the table's and
// the index's key attributes: all of them, or those in NonKey (INCLUDE;
// none is KEYS_ONLY).
type Projection struct {
	All    bool
	NonKey []string
}

// IndexDef defines one secondary index.
type IndexDef struct {
	Name       string
	Schema     IndexSchema
	Projection Projection
}

// index is one secondary index's entries, guarded by its table's mu.
type index struct {
	def   IndexDef
	tree  *itree
	count int
	size  int64    // sum of the entries' projected sizes
	sized []string // the attributes a projected entry holds (not for All)
	lag   *ilag    // nil: changes apply at once (index_lag.go)

	// oldBuf and newBuf are replace's scratch for the two index keys it
	// encodes, kept between writes (under the table's write lock).
	oldBuf, newBuf []byte
}

// keyPivot is an entry usable only in an index search key: a record of
// the table key (pk, sk) without a body.
func keyPivot(pk, sk string) entry {
	return parseEntry(string(appendRecHeader(nil, pk, sk)), 0)
}

// minKeyEntry orders before every entry of the same index key.
var minKeyEntry = parseEntry("\x00\x00", 0)

func newIndex(ks KeySchema, def IndexDef) *index {
	x := &index{def: def, tree: newItree()}
	if !def.Projection.All {
		add := func(name string) {
			if name != "" && !slices.Contains(x.sized, name) {
				x.sized = append(x.sized, name)
			}
		}
		add(ks.Partition.Name)
		add(ks.Sort.Name)
		for _, a := range def.Schema.attrs() {
			add(a.Name)
		}
		for _, n := range def.Projection.NonKey {
			add(n)
		}
	}
	return x
}

// reads returns the attributes an index needs of an item to place it and
// size its entry (nil for an All projection beyond the key attributes).
func (x *index) reads() []string {
	names := make([]string, 0, 8)
	for _, a := range x.def.Schema.attrs() {
		names = append(names, a.Name)
	}
	return append(names, x.sized...)
}

// indexKey encodes the index key of item: ok is false when the item lacks
// one of the index's key attributes or has it with another kind.
func (x *index) indexKey(dst []byte, it Item) ([]byte, bool) {
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0) // the hash, filled in below
	for _, a := range x.def.Schema.Partition {
		v, ok := it[a.Name]
		if !ok || v.kind != a.Kind || !indexable(v, MaxIndexPartitionBytes) {
			return nil, false
		}
		dst = appendTupleComponent(dst, v)
	}
	binary.BigEndian.PutUint32(dst[start:], partitionHash(dst[start+4:]))
	for _, a := range x.def.Schema.Sort {
		v, ok := it[a.Name]
		if !ok || v.kind != a.Kind || !indexable(v, MaxIndexSortBytes) {
			return nil, false
		}
		dst = appendTupleComponent(dst, v)
	}
	return dst, true
}

// entrySize is the projected size of item's entry; itemSize is ItemSize(item)
// when item is whole, which an All projection uses.
func (x *index) entrySize(it Item, itemSize int) int64 {
	if x.def.Projection.All {
		return int64(itemSize)
	}
	var n int64
	for _, name := range x.sized {
		if v, ok := it[name]; ok {
			n += int64(len(name) + ValueSize(v))
		}
	}
	return n
}

// replace moves the entry of the item from its old image (nil: absent;
// oldE its stored entry) to its new one (nil: deleted; e its stored
// entry). old and nu hold at least the attributes reads names.
func (x *index) replace(oldE entry, old Item, oldSize int, e entry, nu Item, nuSize int) {
	if x.lag != nil && !x.passLocked() { // a lag that lags nothing passes writes (lag_switch.go)
		x.queueLocked(x.change(oldE, old, oldSize, e, nu, nuSize))
		return
	}
	var oldKey, newKey []byte
	oldIn, newIn := false, false
	if old != nil {
		if oldKey, oldIn = x.indexKey(x.oldBuf[:0], old); oldIn {
			x.oldBuf = oldKey
		}
	}
	if nu != nil {
		if newKey, newIn = x.indexKey(x.newBuf[:0], nu); newIn {
			x.newBuf = newKey
		}
	}
	if oldIn && newIn && bytes.Equal(oldKey, newKey) {
		// The entry keeps its place: one Set replaces it (same index key,
		// same table key) with the new record; Put keeps the key it holds.
		x.tree.Put(string(newKey), e)
		x.size += x.entrySize(nu, nuSize) - x.entrySize(old, oldSize)
		return
	}
	if oldIn {
		// The search key is not kept: a key of up to 32 bytes converts
		// on the stack, a longer one costs one allocation (a view of
		// the scratch buffer saved 48 of 3,953 B/op, 1.2%, on a PutItem
		// moving a 48-byte index key: under the performance budget's 5%).
		x.tree.Delete(newIentry(string(oldKey), oldE))
		x.count--
		x.size -= x.entrySize(old, oldSize)
	}
	if newIn {
		// Put keeps no reference to its key: converted on the stack (up to
		// 32 bytes), no garbage for the 9 in 10 entries sharing a key (a GSI
		// at 1M: 363 resident B/item, 369-372 with a copy each, -gsi -memory).
		x.tree.Put(string(newKey), e)
		x.count++
		x.size += x.entrySize(nu, nuSize)
	}
}

// backfillLocked fills x, a new index with no entries and no lag, with
// the entries of t's items (indexFill). t's write lock is held.
func (x *index) backfillLocked(t *Table) {
	f := newIndexFill(x, t.count)
	t.parts.ascend(0, "", func(p *partition) bool {
		p.walk(bound{}, bound{}, true, func(e entry) bool {
			f.add(t.encodedOf(t.keyOf(e), e), e)
			return true
		})
		return true
	})
	f.finish()
}

// indexFill fills a new index (no entries, no lag) from items as they
// come, an index's backfill or a TableBuilder's items: their entries are
// collected, then sorted and loaded into its tree at once (itree.load),
// which costs a half of inserting them one at a time in the table's
// order (BenchmarkIndexBackfill).
type indexFill struct {
	x     *index
	reads []string
	buf   []byte
	keys  keyChunk   // holds the entries' keys
	ents  []ientry   // the entries, or the last run of them
	full  [][]ientry // runs before it, when the count was not known

	// order, when given (TableBuilder.IndexOrder), is the entries'
	// order: finish loads the entry numbered order[0] first, and so on,
	// checking they are in order, instead of sorting them.
	order []uint32
}

// indexFillRun is the length of a run of entries collected when their
// count is not known: growing one slice instead copied every entry
// about twice (a fifth of loading a snapshot of a million items with a
// GSI, BenchmarkLoadDir). Tests lower it.
var indexFillRun = 1 << 16

// indexFillKeyChunk is the most bytes of index keys an indexFill keeps
// in one piece of memory (add).
const indexFillKeyChunk = 1 << 20

// newIndexFill starts filling x with n items (0: not known).
func newIndexFill(x *index, n int) *indexFill {
	f := &indexFill{x: x, reads: x.reads(), ents: make([]ientry, 0, max(n, indexFillRun))}
	populateSlice(f.ents)
	return f
}

// keyChunk holds index keys written one after another into a chunk of
// memory, each a part of it, not a string of its own: a string an entry
// was a tenth of a snapshot load's CPU (its allocation and the
// collector's marking; BenchmarkIndexBackfill, BenchmarkLoadDir). Bytes
// once written are never changed (a full chunk is replaced, not grown),
// so the strings that view them stay valid. The cost: a chunk stays in
// memory while any of its keys is in the index (up to
// indexFillKeyChunk bytes). A chunk is backed by the kernel at once
// (populateSlice), not a page fault at a time: with the other pieces a
// load allocates so backed (the entries' runs, the partitions and their
// runs, the partition table's pages, the index's leaves), loading a
// million items took 4,600 page faults, not 60,000, and 2.2 s of CPU,
// not 2.5 (BenchmarkLoadDir; a strings.Builder cannot be backed so).
type keyChunk struct{ buf []byte }

// add returns a string of key's bytes, written into the chunk.
func (c *keyChunk) add(key []byte) string {
	if len(key) == 0 {
		return ""
	}
	if cap(c.buf)-len(c.buf) < len(key) {
		next := min(max(2*cap(c.buf), 4<<10), indexFillKeyChunk)
		c.buf = make([]byte, 0, max(next, len(key)))
		populateSlice(c.buf)
	}
	start := len(c.buf)
	c.buf = append(c.buf, key...) // within cap: never moves
	return unsafe.String(&c.buf[start], len(key))
}

// add takes the item whose stored entry is e and image it (the table's
// view of e: EncodedItem.Attributes reads its key attributes by name).
func (f *indexFill) add(it EncodedItem, e entry) {
	f.addItem(it.Attributes(f.reads), e)
}

// addItem is add of the item that holds at least the attributes f reads
// (its values may view memory about to change: they are not kept).
func (f *indexFill) addItem(item Item, e entry) {
	key, in := f.x.indexKey(f.buf[:0], item)
	if !in {
		return
	}
	f.buf = key
	if len(f.ents) == cap(f.ents) {
		f.full = append(f.full, f.ents)
		f.ents = make([]ientry, 0, indexFillRun)
		populateSlice(f.ents) // a third of a load's page faults were these
	}
	k := ""
	if last := len(f.ents) - 1; last >= 0 && f.ents[last].key == string(key) {
		k = f.ents[last].key // the last item's index partition: one copy
	} else {
		k = f.keys.add(key)
	}
	f.ents = append(f.ents, newIentry(k, e))
	f.x.count++
	f.x.size += f.x.entrySize(item, int(e.size))
}

// finish loads the entries into the index's tree; true if they were
// loaded in the order given, not sorted.
func (f *indexFill) finish() bool {
	ents, full, order := f.ents, f.full, f.order
	f.ents, f.full, f.order = nil, nil, nil
	n, run := len(ents), indexFillRun
	regular := n <= run // every run holds run entries, but the last
	for _, r := range full {
		n += len(r)
		regular = regular && len(r) == run
	}
	if order != nil && regular && isPermutation(order, n) {
		runs := append(full, ents)
		at := func(k uint32) *ientry { return &runs[int(k)/run][int(k)%run] }
		if f.x.tree.loadGather(order, at) {
			return true
		}
	}
	if len(full) > 0 {
		ents = slices.Concat(append(full, ents)...)
	}
	sortIentries(ents)
	f.x.tree.load(ents)
	return false
}

// isPermutation reports whether p holds each of 0 to n-1 once.
func isPermutation(p []uint32, n int) bool {
	if len(p) != n {
		return false
	}
	seen := make([]uint64, (n+63)/64)
	for _, k := range p {
		if int(k) >= n || seen[k/64]&(1<<(k%64)) != 0 {
			return false
		}
		seen[k/64] |= 1 << (k % 64)
	}
	return true
}

// AddIndex adds a secondary index to t and fills it from the items stored
// (a backfill, under the write lock). def.Schema must pass Validate.
func (t *Table) AddIndex(def IndexDef) error {
	if err := def.Schema.Validate(); err != nil {
		return err
	}
	def.Projection.NonKey = slices.Clone(def.Projection.NonKey)
	res, err := t.addIndexLocking(def)
	if err != nil {
		return err
	}
	return res.finish()
}

// addIndexLocking is AddIndex under the write lock; the hook (hook.go)
// records the index, or the index is taken away again.
func (t *Table) addIndexLocking(def IndexDef) (hookResult, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.indexLocked(def.Name) != nil {
		return hookResult{}, fmt.Errorf("%w: %q", ErrIndexExists, def.Name)
	}
	t.ownIndexesLocked()
	x := newIndex(t.ks, def)
	if !t.deferIdx {
		x.backfillLocked(t)
	}
	prev, prevReads := t.indexes, t.indexReads
	t.stamp = 0
	t.indexes = append(slices.Clip(t.indexes), x)
	t.indexReads = t.indexReadsLocked()
	return t.hookIndexLocked(RecordAddIndex, &def, prev, prevReads)
}

// DropIndex removes the index called name and its entries.
func (t *Table) DropIndex(name string) error {
	res, err := t.dropIndexLocking(name)
	if err != nil {
		return err
	}
	return res.finish()
}

func (t *Table) dropIndexLocking(name string) (hookResult, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	i := slices.IndexFunc(t.indexes, func(x *index) bool { return x.def.Name == name })
	if i < 0 {
		return hookResult{}, fmt.Errorf("%w: %q", ErrNoIndex, name)
	}
	t.ownIndexesLocked()
	prev, prevReads := t.indexes, t.indexReads
	t.stamp = 0
	t.indexes = slices.Delete(slices.Clone(t.indexes), i, i+1)
	t.indexReads = t.indexReadsLocked()
	t.recountLagLocked()
	return t.hookIndexLocked(RecordDropIndex, &IndexDef{Name: name}, prev, prevReads)
}

// hookIndexLocked records an index change made under the write lock, or
// when the hook fails puts back the indexes there were before it.
func (t *Table) hookIndexLocked(kind RecordKind, def *IndexDef, prev []*index, prevReads []string) (hookResult, error) {
	if t.hook == nil {
		return hookResult{}, nil
	}
	res, err := callHook(t.hook, &Record{Kind: kind, Table: t.uid, Index: def})
	if err != nil {
		t.indexes, t.indexReads = prev, prevReads
		t.recountLagLocked()
	}
	return res, err
}

// IndexStats returns the number of entries of the index called name and
// the sum of their projected sizes (ItemSize of the projected attributes).
func (t *Table) IndexStats(name string) (count int, size int64, err error) {
	x := t.readIndexLocking(name)
	defer t.mu.RUnlock()
	if x == nil {
		return 0, 0, fmt.Errorf("%w: %q", ErrNoIndex, name)
	}
	return x.count, x.size, nil
}

// IndexNames returns the names of the table's secondary indexes, in the
// order they were added.
func (t *Table) IndexNames() []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	names := make([]string, len(t.indexes))
	for i, x := range t.indexes {
		names[i] = x.def.Name
	}
	return names
}

func (t *Table) indexLocked(name string) *index {
	for _, x := range t.indexes {
		if x.def.Name == name {
			return x
		}
	}
	return nil
}

// indexReadsLocked is the union of the indexes' reads, the attributes a
// write decodes of the item it replaces; nil without indexes.
func (t *Table) indexReadsLocked() []string { return readsOf(t.indexes) }

// readsOf returns the attributes the indexes xs read of an item, each
// once.
func readsOf(xs []*index) []string {
	var names []string
	for _, x := range xs {
		for _, n := range x.reads() {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	return names
}

// indexedLocked reports whether writes keep the secondary indexes'
// entries: the table has some, and the DB does not defer them
// (DB.DeferIndexes).
func (t *Table) indexedLocked() bool { return len(t.indexes) > 0 && !t.deferIdx }

// DeferIndexes makes the tables of db, which must have none yet, leave
// their secondary indexes' entries as they are when they are written,
// until FillIndexes rebuilds them all at once (sorted: indexFill): for a
// load, whose log would otherwise insert each write's entries one at a
// time. Until then the indexes are not to be read; vector indexes are
// kept as ever. TableBuilder.DeferIndexes leaves a table built for such
// a DB's RestoreTable without its entries too.
func (db *DB) DeferIndexes() {
	db.mu.Lock()
	defer db.mu.Unlock()
	if len(db.tables) > 0 {
		panic("storage: DeferIndexes on a DB with tables")
	}
	db.deferIdx = true
}

// FillIndexes rebuilds the entries of every secondary index of db's
// tables, and its tables keep them from then on (DeferIndexes).
func (db *DB) FillIndexes() {
	db.mu.Lock()
	db.deferIdx = false
	tables := slices.Clone(db.tables)
	db.mu.Unlock()
	for _, t := range tables {
		t.mu.Lock()
		if t.deferIdx {
			idx := make([]*index, len(t.indexes))
			for i, x := range t.indexes {
				idx[i] = newIndex(t.ks, x.def)
				idx[i].backfillLocked(t)
			}
			t.indexes, t.deferIdx, t.idxShared = idx, false, false
			t.stamp = 0
		}
		t.mu.Unlock()
	}
}

// updateIndexesLocked applies one item write to every index: old (nil:
// none) holds at least the indexes' reads of the replaced item.
func (t *Table) updateIndexesLocked(oldE entry, old Item, oldSize int, e entry, nu Item, nuSize int) {
	t.ownIndexesLocked()
	for _, x := range t.indexes {
		x.replace(oldE, old, oldSize, e, nu, nuSize)
	}
	// The values may view records that a compaction is about to leave
	// (indexAttrsLocked).
	if s := t.scr; s != nil {
		clear(s.indexAttrs[0])
		clear(s.indexAttrs[1])
	}
}

// checkIndexesLocked verifies every index against the stored items, for
// tests; t.mu is held exclusively when an index lags. Deferred entries
// (DB.DeferIndexes) are not kept until FillIndexes: nothing to check.
func (t *Table) checkIndexesLocked() error {
	if t.deferIdx {
		return nil
	}
	for _, x := range t.indexes {
		if x.lag != nil {
			x = x.snapshotIndex() // with its queued changes (index_lag.go)
		}
		want := newIndex(t.ks, x.def)
		reads := want.reads()
		t.parts.ascend(0, "", func(p *partition) bool {
			p.walk(bound{}, bound{}, true, func(e entry) bool {
				want.replace(entry{}, nil, 0, e, t.encodedOf(t.keyOf(e), e).Attributes(reads), int(e.size))
				return true
			})
			return true
		})
		if want.count != x.count || want.size != x.size || want.tree.Len() != x.tree.Len() {
			return fmt.Errorf("index %q: %d entries of %d bytes (tree %d), items give %d of %d bytes",
				x.def.Name, x.count, x.size, x.tree.Len(), want.count, want.size)
		}
		var err error
		i := 0
		wantList := want.tree.Items()
		x.tree.Scan(func(ie ientry) bool {
			w := wantList[i]
			if ie.key != w.key || ie.e.rec != w.e.rec {
				err = fmt.Errorf("index %q: entry %d differs from the items", x.def.Name, i)
				return false
			}
			i++
			return true
		})
		if err != nil {
			return err
		}
	}
	return nil
}
