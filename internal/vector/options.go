package vector

import "github.com/dynamoemu/dynamoemu/internal/storage"

// Options are the emulator's options for vector indexes, beyond AWS's
// definition: exact or approximate search. They are the VectorIndexer a
// storage table or DB is given (storage.DB.SetVectorIndexer), which
// builds every vector index it has with them; storage compares two by ==,
// so the same options given again rebuild nothing.
type Options struct {
	// Approximate makes Search walk an HNSW graph instead of scoring every
	// row, in partitions of at least approxMinRows rows, unless the query
	// asks for Exact. Writes then cost a graph insertion each.
	Approximate bool
	// M is the links a node keeps per level (twice that on level 0);
	// 16 when 0.
	M int
	// EfConstruction is the candidate list of an insertion; 64 when 0.
	EfConstruction int
	// EfSearch is the candidate list of a search, at least TopK; 100 when 0.
	EfSearch int
}

// NewVectorIndex returns the empty entries of the vector index def on a
// table of key schema ks, built with o: storage.VectorIndexer.
func (o Options) NewVectorIndex(ks storage.KeySchema, def storage.VectorIndexDef) storage.VectorIndex {
	return newIndex(ks, def, o)
}

// normal returns o as an index built with it keeps it: the defaults
// filled in when approximate, nothing else when exact.
func (o Options) normal() Options {
	if !o.Approximate {
		return Options{}
	}
	if o.M <= 1 {
		o.M = 16
	}
	if o.EfConstruction <= 0 {
		o.EfConstruction = 64
	}
	if o.EfSearch <= 0 {
		o.EfSearch = 100
	}
	return o
}
