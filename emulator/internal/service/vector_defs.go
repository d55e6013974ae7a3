package service

import "github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"

// Vector index definitions (storage/VECTOR_SPEC.md is the
// spec): CreateTable's VectorIndexes and UpdateTable's VectorIndexUpdates
// Create are validated here, in AWS's model-constraint form first, then
// one rule at a time (tablespec); the result is a VectorIndexDef in the
// table's definition and a storage.VectorIndexDef in its storage, which
// keeps the index inside the one write path. This file reads a table's.

// VectorStats is vector index x's entry count and size (tablespec.Stats);
// ok is false for a table that holds no items (tests make some).
func (t *table) VectorStats(x *tablespec.VectorIndexDef) (count, size int64, ok bool) {
	if t.data == nil {
		return 0, 0, false
	}
	if n, sz, err := t.data.VectorIndexStats(x.Name); err == nil {
		count, size = int64(n), sz
	}
	return count, size, true
}

// vectorIndexes returns the table's vector index definitions, which the
// caller must not modify. It takes no lock (see table.meta).
func (t *table) vectorIndexes() []*tablespec.VectorIndexDef { return t.meta.Load().Vectors }

// vectorIndex returns the table's vector index called name, or nil.
func (t *table) vectorIndex(name string) *tablespec.VectorIndexDef {
	for _, x := range t.vectorIndexes() {
		if x.Name == name {
			return x
		}
	}
	return nil
}
