package tablespec

import (
	"slices"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// MinVectorWriteBytes is the least VectorWriteRequestBytes an index entry,
// and an index, is charged.
const MinVectorWriteBytes = 1024

// InIndex reports whether an item image (nil: none) has an entry in x:
// its vector attribute is a list of x's dimensions and, when x has a HASH
// element, that attribute is there with its kind (storage places vectors
// by the same rule).
func (x *VectorIndexDef) InIndex(it storage.Item) bool {
	if it == nil {
		return false
	}
	v, ok := it[x.Attr]
	if !ok || v.Kind() != storage.KindL || int64(len(v.List())) != x.Dims {
		return false
	}
	if h := x.Def.Hash; h.Name != "" {
		if hv, ok := it[h.Name]; !ok || hv.Kind() != h.Kind {
			return false
		}
	}
	return true
}

// EntryBytes is the VectorWriteRequestBytes of writing item's entry to
// x: four bytes a dimension and the vector attribute's name, plus the
// Projected attributes other than the vector at their item size, at
// least minVectorWriteBytes.
func (x *VectorIndexDef) EntryBytes(ks storage.KeySchema, it storage.Item) int {
	n := 4*int(x.Dims) + len(x.Attr)
	if names := x.Projected(ks); names != nil {
		for _, name := range names {
			if v, ok := it[name]; ok && name != x.Attr {
				n += len(name) + storage.ValueSize(v)
			}
		}
	} else {
		for name, v := range it {
			if name != x.Attr {
				n += len(name) + storage.ValueSize(v)
			}
		}
	}
	return max(MinVectorWriteBytes, n)
}

// SameEntry reports whether old and nu (both in x) have the same entry:
// the same vector and the same projected attributes.
func (x *VectorIndexDef) SameEntry(ks storage.KeySchema, old, nu storage.Item) bool {
	names := x.Projected(ks)
	if names == nil {
		return storage.ItemsEqual(old, nu)
	}
	if !storage.Equal(old[x.Attr], nu[x.Attr]) {
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

// SamePartition reports whether old and nu (both in x) are in the same
// partition of x: the same HASH value, or x has none.
func (x *VectorIndexDef) SamePartition(old, nu storage.Item) bool {
	h := x.Def.Hash.Name
	return h == "" || storage.Equal(old[h], nu[h])
}

// VectorWriteBytes returns the VectorWriteRequestBytes a change costs each
// vector index of xs it touches: the new entry, or the entry taken away;
// an entry moved to another HASH partition is both. ch.Old must be
// decoded (see needOld).
func VectorWriteBytes(ks storage.KeySchema, xs []*VectorIndexDef, ch storage.Change) map[string]float64 {
	var out map[string]float64
	for _, x := range xs {
		oldIn, newIn := x.InIndex(ch.Old), x.InIndex(ch.New)
		if oldIn && newIn && x.SameEntry(ks, ch.Old, ch.New) {
			continue
		}
		n := 0
		if oldIn && (!newIn || !x.SamePartition(ch.Old, ch.New)) {
			n += x.EntryBytes(ks, ch.Old)
		}
		if newIn {
			n += x.EntryBytes(ks, ch.New)
		}
		if n == 0 {
			continue
		}
		if out == nil {
			out = make(map[string]float64)
		}
		out[x.Name] += float64(max(MinVectorWriteBytes, n))
	}
	return out
}

// VectorBilledSize is the billed size of an item image of size bytes on
// a table with vector indexes xs: each vector attribute that fits an
// index counts four bytes a dimension instead of its list's size.
func VectorBilledSize(xs []*VectorIndexDef, it storage.Item, size int) int {
	if it == nil {
		return size
	}
	var seen [4]string
	counted := seen[:0]
	for _, x := range xs {
		v, ok := it[x.Attr]
		if !ok || v.Kind() != storage.KindL || int64(len(v.List())) != x.Dims || slices.Contains(counted, x.Attr) {
			continue
		}
		counted = append(counted, x.Attr)
		size += 4*int(x.Dims) - storage.ValueSize(v)
	}
	return size
}

// AddBytes adds per-index bytes b to sum, which it returns.
func AddBytes(sum, b map[string]float64) map[string]float64 {
	for name, n := range b {
		if sum == nil {
			sum = make(map[string]float64)
		}
		sum[name] += n
	}
	return sum
}
