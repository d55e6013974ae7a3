package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A table's vector index as a feature that searches it sees it
// (SearchVectors); the request's expression compiler is exprparams'. The
// index is the core's: CreateTable and UpdateTable define it, DescribeTable
// shows it, and storage keeps its vectors on the one write path.

// VectorIndexView is one of a table's vector indexes: its definition
// (name, dimensions, vector attribute, SearchSchema, status; read it,
// never change it) and what a search needs of the table.
type VectorIndexView struct {
	*tablespec.VectorIndexDef
	t *table
}

// VectorIndex returns the table's vector index of that name, or false.
func (t Table) VectorIndex(name string) (VectorIndexView, bool) {
	x := t.t.vectorIndex(name)
	return VectorIndexView{t: t.t, VectorIndexDef: x}, x != nil
}

// BeginSearch opens the request's search of the vector index x through
// the request pipeline's stages (pipeline.go): the key guards, then
// each stage's Begin. hash is the value of the
// search's HASH element (invalid: none). Call it once the request is
// validated, before Search; Searched ends it.
func (c Call) BeginSearch(x VectorIndexView, hash storage.Value) error {
	return c.c.beginSearch(x.t, x.VectorIndexDef, hash)
}

// Searched reports what the search opened by BeginSearch consumed
// (VectorSearchRequestBytes, whether or not the request asked for them)
// and the items it returned: the stages' End is told.
func (c Call) Searched(bytes float64, returned int) { c.c.searched(bytes, returned) }
