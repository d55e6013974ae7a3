package tablespec

import (
	"math"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// An item collection's size (the items of one partition key value of a
// table with local secondary indexes, with their index entries: what
// ReturnItemCollectionMetrics reports and the 10 GB limit bounds), as a
// function of the table's definition. What the emulator counts:
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

// lsiEntryOverhead is the overhead DynamoDB counts per index entry.
const lsiEntryOverhead = 100

// bytesPerGB is the unit of SizeEstimateRangeGB.
const bytesPerGB = 1 << 30

// lsiSizer is what LSIEntriesSize needs of one local secondary index.
type lsiSizer struct {
	sortKey string
	all     bool
	include []string // projected non-key attributes, key attributes left out
}

// LSIEntriesSize returns the function that gives the bytes an item's
// local secondary index entries (lsis, of a table of key schema ks) add
// to its collection (see above).
func LSIEntriesSize(ks storage.KeySchema, lsis []*IndexDef) func(storage.Item) int64 {
	sizers := make([]lsiSizer, 0, len(lsis))
	for _, x := range lsis {
		s := lsiSizer{sortKey: x.Schema.Sort.Name, all: x.Projection.Type == ProjectionAll}
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

// SizeEstimateRangeGB turns a collection size in bytes into the range AWS
// reports: the whole numbers of GB on either side of the size, so
// [0.0, 1.0] for anything under 1 GB, as in the developer guide's example
// response for an item collection (local secondary indexes, "item
// collections": the size "is between 0 and 1 GB"), then [1.0, 2.0] from
// 1 GB, and so on. AWS documents no rule above 1 GB (the estimate "is
// subject to change over time"); bracketing by whole GB is our reading.
func SizeEstimateRangeGB(bytes int64) []float64 {
	lo := math.Floor(float64(bytes) / bytesPerGB)
	return []float64{lo, lo + 1}
}
