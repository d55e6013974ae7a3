package storage

import (
	"errors"
	"fmt"
	"slices"
)

// Vector indexes: DynamoDB's third kind of index (VECTOR_SPEC.md is the
// written spec, with AWS's sources). A vector index keeps, for every item
// whose vector attribute is a list of exactly Dimensions numbers, each a
// finite 32-bit float once rounded, that vector as float32 in flat slabs,
// so SearchVectors is a tight loop over contiguous memory. An optional
// search schema partitions the index by one attribute (the HASH element: a
// search scans one partition) and keeps up to MaxVectorInlineFilters more
// attributes beside each vector for equality filtering (INLINE_FILTER).
//
// Like secondary indexes (index.go), entries point at the table's stored
// record: projections are applied by the reader, and entries are kept
// inside the table's one write path (putItemLocked), so single writes,
// transactions (their undo included), TTL deletions and backfills keep
// them in step. The files:
//
//   - vector.go: definitions, limits, errors.
//   - vector_parse.go: numbers to float32, the write-side item check.
//   - vector_kernel.go, vector_kernel_amd64.{go,s}, vector_kernel_other.go:
//     the distance loops, in AVX2/FMA assembly where the CPU has it.
//   - vector_index.go: the slabs and their maintenance.
//   - vector_search.go, vector_topk.go: the exact search and its bounded heap.
//   - vector_hnsw.go: the optional approximate index (VectorIndexOptions).
//   - vector_check.go: invariant checks for tests.

// DistanceFunction is a vector index's distance function.
type DistanceFunction uint8

// Distance functions. Scores (VECTOR_SPEC.md): COSINE is 1 - cosine
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

// Vector index limits (VECTOR_SPEC.md gives the sources).
const (
	MaxVectorIndexes       = 5    // per table
	MaxVectorDimensions    = 4096 // Dimensions is 1..MaxVectorDimensions
	MaxVectorInlineFilters = 18   // INLINE_FILTER elements per index
	MaxTopK                = 100  // TopK is 1..MaxTopK
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
	// ErrVectorQuery: a VectorQuery does not fit its index (dimension, TopK,
	// a missing or extra HASH value, a filter on an attribute that is not
	// an INLINE_FILTER element).
	ErrVectorQuery = errors.New("storage: vector query does not fit the index")
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
	for _, a := range d.schemaAttrs() {
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

// schemaAttrs returns the HASH element (if any) then the filters.
func (d VectorIndexDef) schemaAttrs() []KeyAttr {
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
