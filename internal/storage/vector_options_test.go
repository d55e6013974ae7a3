package storage

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestSetVectorIndexOptions turns a table's exact vector indexes
// approximate (the emulator's flag) and back: the indexes are rebuilt from
// the items, nothing is recorded, and later indexes get the options too.
func TestSetVectorIndexOptions(t *testing.T) {
	const n, dims = 2000, 16
	r := rand.New(rand.NewPCG(5, 7))
	rec := &recHook{}
	db := NewDB(rec)
	tbl, err := db.CreateTable(TableDef{Name: "t", ID: "id-t", Schema: schemaS,
		VectorIndexes: []VectorIndexDef{{Name: "vx", Attribute: "v", Dimensions: dims, Distance: Euclidean, Projection: Projection{All: true}}}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		put(t, tbl, benchVectorItem(r, fmt.Sprint("k", i), dims))
	}
	approximate := func(name string) bool {
		tbl.mu.RLock()
		defer tbl.mu.RUnlock()
		return tbl.vindexLocked(name).opts.Approximate
	}
	if approximate("vx") {
		t.Fatal("a new index is approximate")
	}
	before := len(rec.recs)
	tbl.SetVectorIndexOptions(VectorIndexOptions{Approximate: true})
	if got := len(rec.recs); got != before {
		t.Errorf("SetVectorIndexOptions recorded %d records, want none", got-before)
	}
	if !approximate("vx") {
		t.Fatal("vx is not approximate after SetVectorIndexOptions")
	}
	if count, _, _ := tbl.VectorIndexStats("vx"); count != n {
		t.Errorf("rebuilt index holds %d vectors, want %d", count, n)
	}
	queries := make([]VectorQuery, 30)
	for i := range queries {
		queries[i] = VectorQuery{Vector: benchVectorQuery(r, dims), TopK: 10}
	}
	if got := recallAt(t, tbl, "vx", queries); got < 0.9 {
		t.Errorf("recall@10 %.3f, want at least 0.9", got)
	}
	if err := tbl.AddVectorIndex(VectorIndexDef{Name: "vy", Attribute: "v", Dimensions: dims, Distance: Cosine, Projection: Projection{All: true}}); err != nil {
		t.Fatal(err)
	}
	if !approximate("vy") {
		t.Error("an index added after SetVectorIndexOptions is not approximate")
	}
	tbl.SetVectorIndexOptions(VectorIndexOptions{})
	if approximate("vx") || approximate("vy") {
		t.Error("indexes stay approximate after the options are cleared")
	}
	if got := recallAt(t, tbl, "vx", queries); got != 1 {
		t.Errorf("exact again: recall %.3f, want 1", got)
	}
}

// TestDBVectorIndexOptions: a DB's options reach every table it makes
// (CreateTable, RestoreTable, Apply) so each vector index is built once,
// approximate from the start; setting the same options again keeps the
// indexes as they are, without a rebuild.
func TestDBVectorIndexOptions(t *testing.T) {
	const n, dims = 1500, 8
	r := rand.New(rand.NewPCG(9, 3))
	def := VectorIndexDef{Name: "vx", Attribute: "v", Dimensions: dims, Distance: Euclidean, Projection: Projection{All: true}}
	approx := VectorIndexOptions{Approximate: true}
	index := func(tbl *Table) *vindex {
		tbl.mu.RLock()
		defer tbl.mu.RUnlock()
		return tbl.vindexLocked("vx")
	}

	exact := NewDB(nil)
	src, err := exact.CreateTable(TableDef{Name: "src", ID: "id-src", Schema: schemaS, VectorIndexes: []VectorIndexDef{def}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		put(t, src, benchVectorItem(r, fmt.Sprint("k", i), dims))
	}
	if index(src).opts.Approximate {
		t.Fatal("a table of a DB without options has an approximate index")
	}

	rec := &recHook{}
	db := NewDB(rec)
	db.SetVectorIndexOptions(approx)
	created, err := db.CreateTable(TableDef{Name: "c", ID: "id-c", Schema: schemaS, VectorIndexes: []VectorIndexDef{def}})
	if err != nil {
		t.Fatal(err)
	}
	restored, err := db.RestoreTable("r", "id-r", src.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	replica := NewDB(nil)
	replica.SetVectorIndexOptions(approx)
	for _, r := range rec.recs {
		if err := replica.Apply(r, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		tbl  *Table
		want int
	}{
		{"CreateTable", created, 0},
		{"RestoreTable", restored, n},
		{"Apply(create)", replica.Table("c"), 0},
		{"Apply(restore)", replica.Table("r"), n},
	} {
		x := index(tc.tbl)
		if !x.opts.Approximate {
			t.Errorf("%s: index not approximate", tc.name)
		}
		if got, _, _ := tc.tbl.VectorIndexStats("vx"); got != tc.want {
			t.Errorf("%s: %d vectors, want %d", tc.name, got, tc.want)
		}
		db.SetVectorIndexOptions(approx)
		replica.SetVectorIndexOptions(approx)
		tc.tbl.SetVectorIndexOptions(VectorIndexOptions{Approximate: true, M: 16})
		if got := index(tc.tbl); got != x {
			t.Errorf("%s: the same options again rebuilt the index", tc.name)
		}
	}
	db.SetVectorIndexOptions(VectorIndexOptions{})
	if index(restored).opts.Approximate || index(created).opts.Approximate {
		t.Error("DB.SetVectorIndexOptions did not reach the tables it has")
	}
}
