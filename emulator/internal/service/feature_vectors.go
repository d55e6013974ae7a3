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

// Search runs fn in the request's search of the vector index x, through
// the request pipeline's stages (pipeline.go): the key guards, each
// stage's Begin, fn, and the stages' End, whatever fn does (useSearch).
// hash is the value of the search's HASH element (invalid: none). Call
// it once the request is validated; fn searches and reports what it
// consumed (Searching.Searched).
func (c Call) Search(x VectorIndexView, hash storage.Value, fn func(s Searching) error) error {
	return c.c.useSearch(x.t, x.VectorIndexDef, hash, func(u *searchUse) error { return fn(Searching{u: u}) })
}

// Searching is a search of a vector index, inside Call.Search.
type Searching struct{ u *searchUse }

// Searched reports what the search consumed (VectorSearchRequestBytes,
// whether or not the request asked for them) and the items it returned:
// the stages' End is told when the search ends.
func (s Searching) Searched(bytes float64, returned int) { s.u.searched(bytes, returned) }
