package service

import (
	"slices"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Write capacity on a table with vector indexes. AWS meters the writes a
// vector index receives apart from the table's write units: with
// ReturnConsumedCapacity INDEXES a write's ConsumedCapacity carries a
// VectorIndexes map, keyed by index name, of VectorWriteRequestBytes
// ("Monitoring vector index capacity",
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchMonitoring.html:
// PutItem, UpdateItem, DeleteItem, BatchWriteItem and TransactWriteItems;
// "Reported for write operations that modify attributes indexed by a
// vector index", API_VectorCapacity). The figures follow AWS's answers as
// recorded by paritysuite/dynamodb-conformance
// (tests/tier2/vectorSearch/consumedCapacity.test.ts, its captures of
// 2026-08-18 and 2026-10-09 in eu-west-2 and us-east-1): an entry written
// to an index costs its vector at four bytes a
// dimension, the vector attribute's name, and the projected non-vector
// attributes at their item size, at least 1024 bytes an entry and 1024
// an index; a write that leaves an index's entry as it was costs that
// index nothing and leaves it out of the map. The vector attribute itself
// counts four bytes a dimension toward the item's billed size, whatever
// numbers it holds (vectorBilledSize).

// minVectorWriteBytes is the least VectorWriteRequestBytes an index entry,
// and an index, is charged.
const minVectorWriteBytes = 1024

// VectorCapacity is one index's member of ConsumedCapacity.VectorIndexes.
type VectorCapacity struct {
	VectorWriteRequestBytes float64 `json:"VectorWriteRequestBytes"`
}

// inIndex reports whether an item image (nil: none) has an entry in x:
// its vector attribute is a list of x's dimensions and, when x has a HASH
// element, that attribute is there with its kind (storage places vectors
// by the same rule).
func (x *vectorIndexDef) inIndex(it storage.Item) bool {
	if it == nil {
		return false
	}
	v, ok := it[x.attr]
	if !ok || v.Kind() != storage.KindL || int64(len(v.List())) != x.dims {
		return false
	}
	if h := x.def.Hash; h.Name != "" {
		if hv, ok := it[h.Name]; !ok || hv.Kind() != h.Kind {
			return false
		}
	}
	return true
}

// entryBytes is the VectorWriteRequestBytes of writing item's entry to
// x: four bytes a dimension and the vector attribute's name, plus the
// projected attributes other than the vector at their item size, at
// least minVectorWriteBytes.
func (x *vectorIndexDef) entryBytes(ks storage.KeySchema, it storage.Item) int {
	n := 4*int(x.dims) + len(x.attr)
	if names := x.projected(ks); names != nil {
		for _, name := range names {
			if v, ok := it[name]; ok && name != x.attr {
				n += len(name) + storage.ValueSize(v)
			}
		}
	} else {
		for name, v := range it {
			if name != x.attr {
				n += len(name) + storage.ValueSize(v)
			}
		}
	}
	return max(minVectorWriteBytes, n)
}

// sameEntry reports whether old and nu (both in x) have the same entry:
// the same vector and the same projected attributes.
func (x *vectorIndexDef) sameEntry(ks storage.KeySchema, old, nu storage.Item) bool {
	names := x.projected(ks)
	if names == nil {
		return storage.ItemsEqual(old, nu)
	}
	if !storage.Equal(old[x.attr], nu[x.attr]) {
		return false
	}
	for _, n := range names {
		a, aok := old[n]
		b, bok := nu[n]
		if aok != bok || (aok && !storage.Equal(a, b)) {
			return false
		}
	}
	return true
}

// samePartition reports whether old and nu (both in x) are in the same
// partition of x: the same HASH value, or x has none.
func (x *vectorIndexDef) samePartition(old, nu storage.Item) bool {
	h := x.def.Hash.Name
	return h == "" || storage.Equal(old[h], nu[h])
}

// vectorWriteBytes returns the VectorWriteRequestBytes a change costs each
// vector index of xs it touches: the new entry, or the entry taken away;
// an entry moved to another HASH partition is both. ch.Old must be
// decoded (see needOld).
func vectorWriteBytes(ks storage.KeySchema, xs []*vectorIndexDef, ch storage.Change) map[string]float64 {
	var out map[string]float64
	for _, x := range xs {
		oldIn, newIn := x.inIndex(ch.Old), x.inIndex(ch.New)
		if oldIn && newIn && x.sameEntry(ks, ch.Old, ch.New) {
			continue
		}
		n := 0
		if oldIn && (!newIn || !x.samePartition(ch.Old, ch.New)) {
			n += x.entryBytes(ks, ch.Old)
		}
		if newIn {
			n += x.entryBytes(ks, ch.New)
		}
		if n == 0 {
			continue
		}
		if out == nil {
			out = make(map[string]float64)
		}
		out[x.name] += float64(max(minVectorWriteBytes, n))
	}
	return out
}

// vectorBilledSize is the billed size of an item image of size bytes on
// a table with vector indexes xs: each vector attribute that fits an
// index counts four bytes a dimension instead of its list's size.
func vectorBilledSize(xs []*vectorIndexDef, it storage.Item, size int) int {
	if it == nil {
		return size
	}
	var seen [4]string
	counted := seen[:0]
	for _, x := range xs {
		v, ok := it[x.attr]
		if !ok || v.Kind() != storage.KindL || int64(len(v.List())) != x.dims || slices.Contains(counted, x.attr) {
			continue
		}
		counted = append(counted, x.attr)
		size += 4*int(x.dims) - storage.ValueSize(v)
	}
	return size
}

// billedWriteSize is the size a write of sizeBytes (the larger of the old
// and new item) that made ch is billed at on t: sizeBytes, with each
// image's vectors at four bytes a dimension when t has vector indexes.
func billedWriteSize(t *table, sizeBytes int, ch storage.Change) int {
	xs := t.vectorIndexes()
	if len(xs) == 0 || sizeBytes != max(ch.OldSize, ch.NewSize) {
		return sizeBytes
	}
	old := ch.OldSize
	if ch.Old != nil {
		old = vectorBilledSize(xs, ch.Old, ch.OldSize)
	}
	nu := ch.NewSize
	if ch.New != nil && ch.NewSize > 0 {
		nu = vectorBilledSize(xs, ch.New, ch.NewSize)
	}
	return max(old, nu)
}

// addVectorBytes adds per-index bytes to cc's VectorIndexes (INDEXES mode).
func (cc *ConsumedCapacity) addVectorBytes(bytes map[string]float64) {
	for name, b := range bytes {
		if cc.VectorIndexes == nil {
			cc.VectorIndexes = make(map[string]VectorCapacity)
		}
		v := cc.VectorIndexes[name]
		v.VectorWriteRequestBytes += b
		cc.VectorIndexes[name] = v
	}
}

// addBytes adds per-index bytes b to sum, which it returns.
func addBytes(sum, b map[string]float64) map[string]float64 {
	for name, n := range b {
		if sum == nil {
			sum = make(map[string]float64)
		}
		sum[name] += n
	}
	return sum
}
