package storage

import (
	"errors"
	"fmt"
	"slices"
)

// Vector indexes: DynamoDB's third kind of index. A table keeps their
// definitions in its catalog (TableDef, its records, snapshots and
// restores) and their entries in step inside its one write path
// (putItemLocked), so single writes, transactions (their undo included),
// TTL deletions, backfills and compaction keep them; but what a vector is
// and how entries hold and search it are a VectorIndexer's (package
// internal/vector, VECTOR_SPEC.md there the written spec). Storage holds
// no vector math: it hands an index each write's item and where the item
// is stored (ItemRef), and finds the item again from it.
//
//   - vector.go: definitions, limits, errors; the VectorIndexer seam.
//   - vector_index.go: a table's vector indexes and their upkeep.

// DistanceFunction is a vector index's distance function.
type DistanceFunction uint8

// Distance functions. Scores (internal/vector/VECTOR_SPEC.md): COSINE is 1 - cosine
// similarity, in [0, 2], smallest first; EUCLIDEAN the Euclidean distance,
// smallest first; DOT_PRODUCT the dot product, largest first.
const (
	Cosine DistanceFunction = iota + 1
	Euclidean
	DotProduct
)

var distanceNames = [...]string{Cosine: "COSINE", Euclidean: "EUCLIDEAN", DotProduct: "DOT_PRODUCT"}

// String returns the wire name (COSINE, EUCLIDEAN, DOT_PRODUCT).
func (d DistanceFunction) String() string {
	if d >= Cosine && d <= DotProduct {
		return distanceNames[d]
	}
	return fmt.Sprintf("DistanceFunction(%d)", d)
}

// ParseDistanceFunction returns the distance function of a wire name.
func ParseDistanceFunction(s string) (DistanceFunction, bool) {
	for d := Cosine; d <= DotProduct; d++ {
		if distanceNames[d] == s {
			return d, true
		}
	}
	return 0, false
}

// Vector index limits (internal/vector/VECTOR_SPEC.md gives the sources).
const (
	MaxVectorIndexes       = 5    // per table
	MaxVectorDimensions    = 4096 // Dimensions is 1..MaxVectorDimensions
	MaxVectorInlineFilters = 18   // INLINE_FILTER elements per index
)

// Vector index errors. Like the other storage sentinels they mark misuse of
// the API; the emulator validates requests with AWS's wording first.
var (
	// ErrNoVectorIndex: the table has no vector index of that name.
	ErrNoVectorIndex = errors.New("storage: no such vector index")
	// ErrVectorIndexExists: AddVectorIndex was given a name the table has.
	ErrVectorIndexExists = errors.New("storage: vector index already exists")
	// ErrInvalidVectorIndex: a VectorIndexDef fails Validate.
	ErrInvalidVectorIndex = errors.New("storage: invalid vector index definition")
	// ErrNoVectorIndexer: the table's vector index holds no entries, as
	// the table has no VectorIndexer (SetVectorIndexer).
	ErrNoVectorIndexer = errors.New("storage: vector index without entries (no VectorIndexer)")
)

// VectorIndexDef defines one vector index.
type VectorIndexDef struct {
	Name       string
	Attribute  string // the vector attribute (VectorAttribute.AttributeName)
	Dimensions int
	Distance   DistanceFunction
	// Hash is the search schema's HASH element (Name == "" for none): the
	// index is partitioned by its value, and a search names one partition.
	// An item without it (or with it of another kind) is not indexed.
	Hash KeyAttr
	// Filters are the INLINE_FILTER elements: attributes kept beside each
	// vector for equality filtering. An item may lack them (it is indexed,
	// and an equality filter on a missing attribute never matches it).
	Filters    []KeyAttr
	Projection Projection
}

// Validate checks the definition's shape: a name and a vector attribute,
// Dimensions within 1..MaxVectorDimensions, a known distance function,
// search schema attributes named, of kinds S, N or B, distinct from each
// other and from the vector attribute, and at most MaxVectorInlineFilters
// filters. Errors wrap ErrInvalidVectorIndex.
func (d VectorIndexDef) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidVectorIndex, fmt.Sprintf(format, args...))
	}
	switch {
	case d.Name == "":
		return bad("no name")
	case d.Attribute == "":
		return bad("no vector attribute")
	case d.Dimensions < 1 || d.Dimensions > MaxVectorDimensions:
		return bad("%d dimensions", d.Dimensions)
	case d.Distance < Cosine || d.Distance > DotProduct:
		return bad("distance function %d", d.Distance)
	case len(d.Filters) > MaxVectorInlineFilters:
		return bad("%d inline filters", len(d.Filters))
	}
	seen := []string{d.Attribute}
	for _, a := range d.SchemaAttrs() {
		if a.Name == "" || !a.Kind.IsScalarKey() {
			return bad("search schema attribute %q of kind %s", a.Name, a.Kind)
		}
		if slices.Contains(seen, a.Name) {
			return bad("attribute %q twice", a.Name)
		}
		seen = append(seen, a.Name)
	}
	return nil
}

// HasHash reports whether the search schema has a HASH element.
func (d VectorIndexDef) HasHash() bool { return d.Hash.Name != "" }

// SchemaAttrs returns the search schema: the HASH element (if any) then
// the filters.
func (d VectorIndexDef) SchemaAttrs() []KeyAttr {
	if !d.HasHash() {
		return d.Filters
	}
	return append([]KeyAttr{d.Hash}, d.Filters...)
}

// clone returns d with its slices copied, so the caller's cannot change it.
func (d VectorIndexDef) clone() VectorIndexDef {
	d.Filters = slices.Clone(d.Filters)
	d.Projection.NonKey = slices.Clone(d.Projection.NonKey)
	return d
}

// A VectorIndexer makes the entries of vector indexes: package
// internal/vector's Options is the one the emulator uses. A table without
// one keeps its vector indexes' definitions and no entries, until it is
// given one (SetVectorIndexer builds them then). Indexers are compared
// with ==, so the dynamic type must be comparable.
type VectorIndexer interface {
	// NewVectorIndex returns the empty entries of an index defined by
	// def (which passed Validate) on a table of key schema ks.
	NewVectorIndex(ks KeySchema, def VectorIndexDef) VectorIndex
}

// A VectorIndex is one vector index's entries. Its table calls it under
// its write lock for changes (a VectorIndex takes no lock of its own)
// and under its read lock for searches (Table.ReadVectorIndex).
type VectorIndex interface {
	// Reads returns the attributes of an item Put needs (a backfill
	// decodes only these); the caller does not change it.
	Reads() []string
	// Put files the item stored at at, holding at least Reads; a nil
	// item takes the entry of at's key away (at then names the key only).
	Put(at ItemRef, item Item)
	// Moved points the entry of at's key, if it has one, at at: the same
	// record, moved by compaction.
	Moved(at ItemRef)
	// Stats returns the index's figures.
	Stats() VectorStats
	// Check verifies the index against its own bookkeeping and against
	// the items stored: refill fills an index it is given (of the same
	// definition and key schema) from them, as a backfill does. For tests.
	Check(refill func(VectorIndex)) error
}

// VectorStats are a vector index's figures.
type VectorStats struct {
	// Count is the items indexed, Size the index's size as
	// VectorIndexStats reports it.
	Count int
	Size  int64
	// Lists is the sum of ValueSize of the indexed items' vector
	// attributes, which BilledSizeBytes bills four bytes a dimension instead.
	Lists int64
}

// ItemRef is where a table stores one item: its partition key's Str and
// the stored record. A VectorIndex keeps one an entry to find the item
// again (Table.ItemAt); it stays good while the index is told of the
// item's writes and moves.
type ItemRef struct {
	pk string
	e  entry
}

// PartitionKey returns the item's partition key as its Value's Str.
func (r ItemRef) PartitionKey() string { return r.pk }

// SortKey returns the item's encoded sort key ("" without one): equal
// sort keys have equal encodings.
func (r ItemRef) SortKey() string { return r.e.sortKey() }

// Size returns the item's size (ItemSize).
func (r ItemRef) Size() int { return int(r.e.size) }

// ScanBefore reports whether r's item comes before o's in the table's
// scan order (Scan): partitions by hash of the key, then key; items by
// sort key.
func (r ItemRef) ScanBefore(o ItemRef) bool {
	if r.pk != o.pk { // ties are rare: hashing the keys here costs nothing measurable
		return scanLess(partitionHash(r.pk), r.pk, partitionHash(o.pk), o.pk)
	}
	return r.e.sortKey() < o.e.sortKey()
}

// Same reports whether r and o are the same stored record (not only
// equal bytes): for checks.
func (r ItemRef) Same(o ItemRef) bool {
	return r.pk == o.pk && sameString(r.e.rec, o.e.rec) && r.e.size == o.e.size
}
