package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// ItemCollectionMetrics is reported for tables with local secondary indexes
// when ReturnItemCollectionMetrics is SIZE.
type ItemCollectionMetrics struct {
	ItemCollectionKey   wire.WireItem `json:"ItemCollectionKey,omitempty"`
	SizeEstimateRangeGB []float64     `json:"SizeEstimateRangeGB,omitempty"`
}

// Item collections: the items of one partition key value in a table with
// local secondary indexes, together with their index entries. DynamoDB
// reports a collection's size when a write asks for
// ReturnItemCollectionMetrics=SIZE and refuses writes that grow one past
// 10 GB with ItemCollectionSizeLimitExceededException. Tables without local
// secondary indexes have no such limit and report no metrics.
//
// What the emulator counts as a collection's size (the storage table keeps
// it per partition, updated by each write; see storage.TrackCollections)
// is a function of the table's definition: tablespec.LSIEntriesSize
// (tablespec/collections.go) says what it is.

// maxItemCollectionBytes is the item collection size limit: 10 GB (taken
// as GiB, 10 * 2^30 bytes). A service starts with it
// (Service.itemCollectionBytes, which a test may lower); a table takes the
// service's when the table is created.
const maxItemCollectionBytes int64 = 10 << 30

// trackCollections makes the table's storage keep its item collection
// sizes and enforce the limit, if the table has local secondary indexes.
// createTable calls it before the table is visible.
func (t *table) trackCollections(lsis []*tablespec.IndexDef) {
	if len(lsis) == 0 {
		return
	}
	t.data.TrackCollections(tablespec.LSIEntriesSize(t.schema, lsis), t.ns.svc.itemCollectionBytes)
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
		SizeEstimateRangeGB: tablespec.SizeEstimateRangeGB(ch.CollectionSize),
	}
}

// batchCollectionMetrics gathers one table's part of BatchWriteItem's
// ItemCollectionMetrics: one entry per collection the batch wrote to, in
// the order first written, with the size after the batch's last write to
// it. The zero value of a table that reports none ignores add.
type batchCollectionMetrics struct {
	t    *table
	seen map[string]int // Key.ID of the partition key -> index in list
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
	id := storage.Key{Partition: key.Partition}.ID()
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
