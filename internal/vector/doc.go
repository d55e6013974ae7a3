// Package vector keeps and searches the entries of DynamoDB's vector
// indexes (VECTOR_SPEC.md is their written spec, with AWS's sources).
//
// # Basics
//
// Storage keeps a vector index's definition (storage.VectorIndexDef) in
// its table's catalog and calls the index's entries inside its one write
// path; this package makes those entries: Options is the
// storage.VectorIndexer a storage DB or table is given
// (storage.DB.SetVectorIndexer). For every item whose vector attribute is
// a list of exactly Dimensions numbers, each a finite 32-bit float once
// rounded (Float32OfNumber), an index keeps that vector as float32 in flat
// slabs, per value of the definition's optional HASH attribute (a search
// scans one partition), with up to storage.MaxVectorInlineFilters more
// attributes beside each vector for equality filtering (INLINE_FILTER), and
// where the table stores the item (storage.ItemRef), so projections are
// the reader's to apply.
//
// Search returns the TopK items nearest a query by COSINE, EUCLIDEAN or
// DOT_PRODUCT, exactly (every vector scored, in AVX2/FMA assembly on
// amd64), ties in the table's scan order; an index built with
// Options{Approximate: true} also keeps an HNSW graph per partition and
// searches it instead, for large data sets. CheckItem is the check AWS
// makes of a write to a table with vector indexes, for the emulator to
// word.
//
// # Caveats
//
// An index takes no lock of its own: its table calls it under its write
// lock for changes and its read lock for searches. The approximate graph
// is the emulator's option, not AWS's definition, so nothing of it is
// recorded: a table given other Options builds its indexes anew.
//
// # Files
//
//   - options.go: Options, the storage.VectorIndexer.
//   - index.go: the slabs and their upkeep (the storage.VectorIndex).
//   - parse.go: numbers to float32, the write-side item check (CheckItem).
//   - kernel.go, kernel_amd64.go, kernel_amd64.s, kernel_other.go: the
//     distance loops, in AVX2/FMA assembly where the CPU has it.
//   - search.go, topk.go: Search, the exact search and its bounded heap.
//   - hnsw.go: the optional approximate index.
//   - check.go: invariant checks for tests (storage's checks call them).
package vector

import "github.com/dynamoemu/dynamoemu/internal/storage"

var (
	_ storage.VectorIndexer = Options{}
	_ storage.VectorIndex   = (*index)(nil)
)
