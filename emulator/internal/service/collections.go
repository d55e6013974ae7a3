package service

import (
	"math"

	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Item collections: the items of one partition key value in a table with
// local secondary indexes, together with their index entries. DynamoDB
// reports a collection's size when a write asks for
// ReturnItemCollectionMetrics=SIZE and refuses writes that grow one past
// 10 GB with ItemCollectionSizeLimitExceededException. Tables without local
// secondary indexes have no such limit and report no metrics.
//
// What the emulator counts as a collection's size (the storage table keeps
// it per partition, updated by each write; see storage.TrackCollections):
//   - every item's size (storage.ItemSize, the size that write capacity and
//     the 400 KB limit use);
//   - for each local secondary index an item has an entry in (the item has
//     the index's sort key attribute; indexes are sparse), the size of the
//     entry as the developer guide's "storage considerations for local
//     secondary indexes" describes it: the table's key attributes, the
//     index sort key attribute and the projected attributes (names and
//     values: the whole item for ALL, the present NonKeyAttributes for
//     INCLUDE, none for KEYS_ONLY), plus 100 bytes of overhead per entry.
//
// The per-item storage overhead DynamoDB bills (100 bytes per table item)
// is not counted: the API reference describes the estimate as "the size of
// all the items in the table, plus the size of all attributes projected
// into all of the local secondary indexes".

// maxItemCollectionBytes is the item collection size limit: 10 GB (taken
// as GiB, 10 * 2^30 bytes). A variable so tests can lower it; a table takes
// the value it has when the table is created.
var maxItemCollectionBytes int64 = 10 << 30

// lsiEntryOverhead is the overhead DynamoDB counts per index entry.
const lsiEntryOverhead = 100

// bytesPerGB is the unit of SizeEstimateRangeGB.
const bytesPerGB = 1 << 30

// trackCollections makes the table's storage keep its item collection
// sizes and enforce the limit, if the table has local secondary indexes.
// createTable calls it before the table is visible.
func (t *table) trackCollections(lsis []*tablespec.IndexDef) {
	if len(lsis) == 0 {
		return
	}
	t.data.TrackCollections(lsiEntriesSize(t.schema, lsis), maxItemCollectionBytes)
}

// lsiSizer is what lsiEntriesSize needs of one local secondary index.
type lsiSizer struct {
	sortKey string
	all     bool
	include []string // projected non-key attributes, key attributes left out
}

// lsiEntriesSize returns the function that gives the bytes an item's local
// secondary index entries add to its collection (see the top of this file).
func lsiEntriesSize(ks storage.KeySchema, lsis []*tablespec.IndexDef) func(storage.Item) int64 {
	sizers := make([]lsiSizer, 0, len(lsis))
	for _, x := range lsis {
		s := lsiSizer{sortKey: x.Schema.Sort.Name, all: x.Projection.Type == tablespec.ProjectionAll}
		for _, name := range x.Projection.NonKey {
			if name != ks.Partition.Name && name != ks.Sort.Name && name != s.sortKey {
				s.include = append(s.include, name)
			}
		}
		sizers = append(sizers, s)
	}
	attrSize := func(it storage.Item, name string) int64 {
		if v, ok := it[name]; ok {
			return int64(len(name) + storage.ValueSize(v))
		}
		return 0
	}
	return func(it storage.Item) int64 {
		var n int64
		itemSize := int64(-1)
		for _, s := range sizers {
			if _, ok := it[s.sortKey]; !ok {
				continue
			}
			n += lsiEntryOverhead
			if s.all {
				if itemSize < 0 {
					itemSize = int64(storage.ItemSize(it))
				}
				n += itemSize
				continue
			}
			n += attrSize(it, ks.Partition.Name) + attrSize(it, s.sortKey)
			if s.sortKey != ks.Sort.Name {
				n += attrSize(it, ks.Sort.Name)
			}
			for _, name := range s.include {
				n += attrSize(it, name)
			}
		}
		return n
	}
}

// hasLSIs reports whether the table has local secondary indexes. It takes
// no lock (see table.meta): BatchWriteItem calls it inside its storage
// transaction.
func (t *table) hasLSIs() bool { return len(t.meta.Load().LSIs) > 0 }

// collectionMetrics is the ItemCollectionMetrics member of a write's
// response: nil unless ret is SIZE and the table has local secondary
// indexes. key is the written key and ch the write's change record, which
// carries the collection's size after the write. A write that changed
// nothing (a DeleteItem of an absent item) still reports its collection.
func (t *table) collectionMetrics(ret string, key storage.Key, ch storage.Change) *ItemCollectionMetrics {
	if ret != returnMetricsSize || !t.hasLSIs() {
		return nil
	}
	return &ItemCollectionMetrics{
		ItemCollectionKey:   wire.WireItem{t.schema.Partition.Name: key.Partition},
		SizeEstimateRangeGB: sizeEstimateRangeGB(ch.CollectionSize),
	}
}

// sizeEstimateRangeGB turns a collection size in bytes into the range AWS
// reports: the whole numbers of GB on either side of the size, so
// [0.0, 1.0] for anything under 1 GB, as in the developer guide's example
// response for an item collection (local secondary indexes, "item
// collections": the size "is between 0 and 1 GB"), then [1.0, 2.0] from
// 1 GB, and so on. AWS documents no rule above 1 GB (the estimate "is
// subject to change over time"); bracketing by whole GB is our reading.
func sizeEstimateRangeGB(bytes int64) []float64 {
	lo := math.Floor(float64(bytes) / bytesPerGB)
	return []float64{lo, lo + 1}
}

// batchCollectionMetrics gathers one table's part of BatchWriteItem's
// ItemCollectionMetrics: one entry per collection the batch wrote to, in
// the order first written, with the size after the batch's last write to
// it. The zero value of a table that reports none ignores add.
type batchCollectionMetrics struct {
	t    *table
	seen map[string]int // keyID of the partition key -> index in list
	list []*ItemCollectionMetrics
}

// newBatchCollectionMetrics starts the metrics of table t for a batch that
// asked for ret.
func newBatchCollectionMetrics(t *table, ret string) batchCollectionMetrics {
	if ret != returnMetricsSize || !t.hasLSIs() {
		return batchCollectionMetrics{}
	}
	return batchCollectionMetrics{t: t, seen: make(map[string]int)}
}

// add records a write to key with change record ch.
func (m *batchCollectionMetrics) add(key storage.Key, ch storage.Change) {
	if m.t == nil {
		return
	}
	icm := m.t.collectionMetrics(returnMetricsSize, key, ch)
	id := keyID(storage.Key{Partition: key.Partition})
	if i, ok := m.seen[id]; ok {
		m.list[i] = icm
		return
	}
	m.seen[id] = len(m.list)
	m.list = append(m.list, icm)
}

// addTo adds the gathered metrics, if any, to out under the table's name
// and returns out (allocated on first use).
func (m *batchCollectionMetrics) addTo(out map[string][]*ItemCollectionMetrics) map[string][]*ItemCollectionMetrics {
	if len(m.list) == 0 {
		return out
	}
	if out == nil {
		out = make(map[string][]*ItemCollectionMetrics)
	}
	out[m.t.name] = m.list
	return out
}
