package service

import (
	"slices"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Secondary index data: each index definition has its entries in the
// table's storage (storage.Table.AddIndex), maintained by storage inside
// every item write. This file maps definitions to storage and holds what
// reads and writes of an index share: its projection and its capacity.

// storageDef is the storage definition of the index.
func (x *indexDef) storageDef() storage.IndexDef {
	d := storage.IndexDef{
		Name:       x.name,
		Schema:     storage.IndexSchema{Partition: x.partAttrs, Sort: x.sortAttrs},
		Projection: storage.Projection{All: x.projection.typ == projectionAll},
	}
	if x.projection.typ == projectionInclude {
		d.Projection.NonKey = x.projection.nonKey
	}
	return d
}

// ProjectionType values other than ALL.
const (
	projectionKeysOnly = "KEYS_ONLY"
	projectionInclude  = "INCLUDE"
)

// setAttrs fills the index's key attribute lists from its key schema and
// the table's attribute definitions.
func (x *indexDef) setAttrs(defs []attrDef) {
	kind := func(name string) storage.Kind {
		for _, d := range defs {
			if d.name == name {
				return storage.KindFromString(d.typ)
			}
		}
		return storage.KindInvalid
	}
	x.partAttrs, x.sortAttrs = nil, nil
	for _, k := range x.keySchema {
		a := storage.KeyAttr{Name: k.name, Kind: kind(k.name)}
		if k.keyType == "HASH" {
			x.partAttrs = append(x.partAttrs, a)
		} else {
			x.sortAttrs = append(x.sortAttrs, a)
		}
	}
}

// keyNames returns the index's key attribute names followed by the
// table's key attributes that are not among them: the attributes of an
// index page's LastEvaluatedKey and of every projection.
func (x *indexDef) keyNames(ks storage.KeySchema) []string {
	return x.keyNamesInto(make([]string, 0, 6), ks)
}

// keyNamesInto is keyNames, in buf's array while it has room.
func (x *indexDef) keyNamesInto(buf []string, ks storage.KeySchema) []string {
	names := buf[:0]
	for _, a := range x.partAttrs {
		names = append(names, a.Name)
	}
	for _, a := range x.sortAttrs {
		names = append(names, a.Name)
	}
	for _, n := range []string{ks.Partition.Name, ks.Sort.Name} {
		if n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// projected returns the attributes the index holds, keys included; nil
// when it holds every attribute (ALL).
func (x *indexDef) projected(ks storage.KeySchema) []string {
	if x.projection.typ == projectionAll {
		return nil
	}
	names := x.keyNames(ks)
	for _, n := range x.projection.nonKey {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// isKeyAttr reports whether name is one of the index's key attributes.
func (x *indexDef) isKeyAttr(name string) bool {
	for _, list := range [2][]storage.KeyAttr{x.partAttrs, x.sortAttrs} {
		for _, a := range list {
			if a.Name == name {
				return true
			}
		}
	}
	return false
}

// storageDefs returns the storage definitions of indexes.
func storageDefs(defs []*indexDef) []storage.IndexDef {
	out := make([]storage.IndexDef, len(defs))
	for i, x := range defs {
		out[i] = x.storageDef()
	}
	return out
}

// inIndex reports whether an item image (nil: none) is in the index: it
// has every index key attribute with its kind (storage places items by
// the same rule).
func (x *indexDef) inIndex(it storage.Item) bool {
	if it == nil {
		return false
	}
	for _, list := range [2][]storage.KeyAttr{x.partAttrs, x.sortAttrs} {
		for _, a := range list {
			if v, ok := it[a.Name]; !ok || v.Kind() != a.Kind {
				return false
			}
		}
	}
	return true
}

// entrySize is the size of item's entry in the index: the projected
// attributes (all of them for ALL).
func (x *indexDef) entrySize(ks storage.KeySchema, it storage.Item) int {
	names := x.projected(ks)
	if names == nil {
		return storage.ItemSize(it)
	}
	n := 0
	for _, name := range names {
		if v, ok := it[name]; ok {
			n += len(name) + storage.ValueSize(v)
		}
	}
	return n
}

// sameEntry reports whether the index entries of old and nu (both in the
// index) are the same: same key and same projected attributes, so writing
// nu leaves the index untouched.
func (x *indexDef) sameEntry(ks storage.KeySchema, old, nu storage.Item) bool {
	names := x.projected(ks)
	if names == nil {
		return storage.ItemsEqual(old, nu)
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

// sameKey reports whether old and nu (both in the index) have the same
// index key.
func (x *indexDef) sameKey(old, nu storage.Item) bool {
	for _, list := range [2][]storage.KeyAttr{x.partAttrs, x.sortAttrs} {
		for _, a := range list {
			if !storage.Equal(old[a.Name], nu[a.Name]) {
				return false
			}
		}
	}
	return true
}

// indexWriteUnits returns the write units a change costs each index it
// touches, as AWS documents for secondary indexes: a new entry or a
// removed one is one write of its size, an entry whose key changes is a
// delete and a put, one whose projected attributes change is one write,
// and an unchanged entry costs nothing (and is not reported).
func indexWriteUnits(ks storage.KeySchema, defs []*indexDef, ch storage.Change) map[*indexDef]float64 {
	var out map[*indexDef]float64
	for _, x := range defs {
		oldIn, newIn := x.inIndex(ch.Old), x.inIndex(ch.New)
		var units float64
		switch {
		case oldIn && newIn && x.sameKey(ch.Old, ch.New):
			if !x.sameEntry(ks, ch.Old, ch.New) {
				units = writeUnits(max(x.entrySize(ks, ch.Old), x.entrySize(ks, ch.New)))
			}
		default:
			if oldIn {
				units += writeUnits(x.entrySize(ks, ch.Old))
			}
			if newIn {
				units += writeUnits(x.entrySize(ks, ch.New))
			}
		}
		if units > 0 {
			if out == nil {
				out = make(map[*indexDef]float64)
			}
			out[x] = units
		}
	}
	return out
}
