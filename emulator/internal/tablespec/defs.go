package tablespec

import (
	"slices"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Throughput is a table's (or GSI's) provisioned throughput with the
// history DescribeTable reports.
type Throughput struct {
	Read, Write    int64
	LastIncrease   time.Time // zero if never
	LastDecrease   time.Time // zero if never
	DecreasesToday int64
}

// IndexDef is a secondary index definition as DescribeTable reports it.
// Its entries live in the table's storage under its name.
type IndexDef struct {
	Name       string
	ARN        string // <table arn>/index/<name>
	Local      bool   // a local secondary index
	KeySchema  []KeyElem
	Schema     storage.KeySchema // the first HASH and RANGE attributes
	PartAttrs  []storage.KeyAttr // every HASH attribute, in order
	SortAttrs  []storage.KeyAttr // every RANGE attribute, in order
	ActiveAt   time.Time         // a GSI added by UpdateTable is CREATING until then
	GoneAt     time.Time         // a deleted GSI is DELETING until then
	Projection IndexProjection
	Throughput *Throughput // GSI on a PROVISIONED table only
	OnDemand   *OnDemandThroughput
	Warm       Warm // a GSI's warm throughput floor (WarmOf); zero: its default
}

// WarmNow is a GSI's warm throughput (WarmOf its floor and capacity).
func (x *IndexDef) WarmNow() Warm { return WarmOf(x.Warm, x.Throughput) }

// KeyElem is one KeySchema element; keyType is HASH or RANGE.
type KeyElem struct{ Name, KeyType string }

// AttrDef is one AttributeDefinitions element; typ is S, N or B.
type AttrDef struct{ Name, Type string }

// Projection is an index's Projection.
type IndexProjection struct {
	Type   string // ALL, KEYS_ONLY or INCLUDE
	NonKey []string
}

// ProjectionAll is the ProjectionType that copies the whole item.
const ProjectionAll = "ALL"

// StorageDef is the storage definition of the index.
func (x *IndexDef) StorageDef() storage.IndexDef {
	d := storage.IndexDef{
		Name:       x.Name,
		Schema:     storage.IndexSchema{Partition: x.PartAttrs, Sort: x.SortAttrs},
		Projection: storage.Projection{All: x.Projection.Type == ProjectionAll},
	}
	if x.Projection.Type == ProjectionInclude {
		d.Projection.NonKey = x.Projection.NonKey
	}
	return d
}

// ProjectionType values other than ALL.
const (
	ProjectionKeysOnly = "KEYS_ONLY"
	ProjectionInclude  = "INCLUDE"
)

// SetAttrs fills the index's key attribute lists from its key schema and
// the table's attribute definitions.
func (x *IndexDef) SetAttrs(defs []AttrDef) {
	kind := func(name string) storage.Kind {
		for _, d := range defs {
			if d.Name == name {
				return storage.KindFromString(d.Type)
			}
		}
		return storage.KindInvalid
	}
	x.PartAttrs, x.SortAttrs = nil, nil
	for _, k := range x.KeySchema {
		a := storage.KeyAttr{Name: k.Name, Kind: kind(k.Name)}
		if k.KeyType == "HASH" {
			x.PartAttrs = append(x.PartAttrs, a)
		} else {
			x.SortAttrs = append(x.SortAttrs, a)
		}
	}
}

// KeyNames returns the index's key attribute names followed by the
// table's key attributes that are not among them: the attributes of an
// index page's LastEvaluatedKey and of every projection.
func (x *IndexDef) KeyNames(ks storage.KeySchema) []string {
	return x.KeyNamesInto(make([]string, 0, 6), ks)
}

// KeyNamesInto is keyNames, in buf's array while it has room.
func (x *IndexDef) KeyNamesInto(buf []string, ks storage.KeySchema) []string {
	names := buf[:0]
	for _, a := range x.PartAttrs {
		names = append(names, a.Name)
	}
	for _, a := range x.SortAttrs {
		names = append(names, a.Name)
	}
	for _, n := range []string{ks.Partition.Name, ks.Sort.Name} {
		if n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// Projected returns the attributes the index holds, keys included; nil
// when it holds every attribute (ALL).
func (x *IndexDef) Projected(ks storage.KeySchema) []string {
	if x.Projection.Type == ProjectionAll {
		return nil
	}
	names := x.KeyNames(ks)
	for _, n := range x.Projection.NonKey {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// IsKeyAttr reports whether name is one of the index's key attributes.
func (x *IndexDef) IsKeyAttr(name string) bool {
	for _, list := range [2][]storage.KeyAttr{x.PartAttrs, x.SortAttrs} {
		for _, a := range list {
			if a.Name == name {
				return true
			}
		}
	}
	return false
}

// StorageDefs returns the storage definitions of indexes.
func StorageDefs(defs []*IndexDef) []storage.IndexDef {
	out := make([]storage.IndexDef, len(defs))
	for i, x := range defs {
		out[i] = x.StorageDef()
	}
	return out
}

// InIndex reports whether an item image (nil: none) is in the index: it
// has every index key attribute with its kind (storage places items by
// the same rule).
func (x *IndexDef) InIndex(it storage.Item) bool {
	if it == nil {
		return false
	}
	for _, list := range [2][]storage.KeyAttr{x.PartAttrs, x.SortAttrs} {
		for _, a := range list {
			if v, ok := it[a.Name]; !ok || v.Kind() != a.Kind {
				return false
			}
		}
	}
	return true
}

// EntrySize is the size of item's entry in the index: the projected
// attributes (all of them for ALL).
func (x *IndexDef) EntrySize(ks storage.KeySchema, it storage.Item) int {
	names := x.Projected(ks)
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

// SameEntry reports whether the index entries of old and nu (both in the
// index) are the same: same key and same projected attributes, so writing
// nu leaves the index untouched.
func (x *IndexDef) SameEntry(ks storage.KeySchema, old, nu storage.Item) bool {
	names := x.Projected(ks)
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

// SameKey reports whether old and nu (both in the index) have the same
// index key.
func (x *IndexDef) SameKey(old, nu storage.Item) bool {
	for _, list := range [2][]storage.KeyAttr{x.PartAttrs, x.SortAttrs} {
		for _, a := range list {
			if !storage.Equal(old[a.Name], nu[a.Name]) {
				return false
			}
		}
	}
	return true
}

// IndexStatus values.
const (
	IndexActive   = "ACTIVE"
	IndexCreating = "CREATING"
	IndexDeleting = "DELETING"
)

// StatusAt is the IndexStatus of GSI x at now.
func (x *IndexDef) StatusAt(now time.Time) string {
	if now.Before(x.ActiveAt) {
		return IndexCreating
	}
	return IndexActive
}

// Apply sets new provisioned throughput, keeping the
// increase/decrease history DescribeTable reports.
func (tp *Throughput) Apply(read, write int64, now time.Time) {
	if read > tp.Read || write > tp.Write {
		tp.LastIncrease = now
	}
	if read < tp.Read || write < tp.Write {
		if !sameUTCDay(tp.LastDecrease, now) {
			tp.DecreasesToday = 0
		}
		tp.LastDecrease = now
		tp.DecreasesToday++
	}
	tp.Read, tp.Write = read, write
}

// MultiAttrKeySchema reports whether a GSI key schema goes beyond one
// HASH and one RANGE element.
func MultiAttrKeySchema(ks []KeySchemaElement) bool {
	if len(ks) > 2 {
		return true
	}
	return len(ks) == 2 && *ks[0].KeyType == "HASH" && *ks[1].KeyType == "HASH"
}

// CheckMultiKeySchema validates a multi-attribute GSI key schema: every
// attribute defined, HASH elements first, at most four of each, names
// distinct.
func CheckMultiKeySchema(ks []KeySchemaElement, defNames []string) ([]KeyElem, error) {
	keys := make([]KeyElem, len(ks))
	names := make([]string, len(ks))
	for i, e := range ks {
		keys[i] = KeyElem{Name: *e.AttributeName, KeyType: *e.KeyType}
		names[i] = *e.AttributeName
	}
	for _, n := range names {
		if !slices.Contains(defNames, n) {
			return nil, apierr.Validation(apierr.MsgKeysNotDefined(names, defNames))
		}
	}
	hashes, ranges := 0, 0
	for i, k := range keys {
		if k.KeyType == "HASH" {
			if ranges > 0 {
				return nil, apierr.Validation(apierr.MsgMultiKeyOrder)
			}
			hashes++
		} else {
			ranges++
		}
		if slices.Contains(names[:i], k.Name) {
			return nil, apierr.Validation(apierr.MsgMultiSameName)
		}
	}
	switch {
	case hashes == 0:
		return nil, apierr.Validation(apierr.MsgMultiNoHash)
	case hashes > storage.MaxIndexPartitionAttrs:
		return nil, apierr.Validation(apierr.MsgTooManyPartitionKeys)
	case ranges > storage.MaxIndexSortAttrs:
		return nil, apierr.Validation(apierr.MsgTooManySortKeys)
	}
	return keys, nil
}

// Multi reports whether the index keys on more than one partition or sort
// Key attribute.
func (x *IndexDef) Multi() bool { return len(x.PartAttrs) > 1 || len(x.SortAttrs) > 1 }

func sameUTCDay(a, b time.Time) bool {
	ay, am, ad := a.UTC().Date()
	by, bm, bd := b.UTC().Date()
	return ay == by && am == bm && ad == bd
}
