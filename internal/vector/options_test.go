package vector

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// indexOf returns the entries of tbl's vector index called name.
func indexOf(t testing.TB, tbl *storage.Table, name string) *index {
	t.Helper()
	var x *index
	if err := tbl.ReadVectorIndex(name, func(vi storage.VectorIndex) { x = vi.(*index) }); err != nil {
		t.Fatal(err)
	}
	return x
}

// TestSetVectorIndexer turns a table's exact vector indexes approximate
// (the emulator's flag) and back: the indexes are rebuilt from the items,
// nothing is recorded, and later indexes get the options too.
func TestSetVectorIndexer(t *testing.T) {
	const n, dims = 2000, 16
	r := rand.New(rand.NewPCG(5, 7))
	rec := &logHook{}
	db := newDB(t, rec, Options{})
	tbl, err := db.CreateTable(storage.TableDef{Name: "t", ID: "id-t", Schema: schemaS,
		VectorIndexes: []storage.VectorIndexDef{{Name: "vx", Attribute: "v", Dimensions: dims, Distance: storage.Euclidean, Projection: storage.Projection{All: true}}}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		put(t, tbl, benchVectorItem(r, fmt.Sprint("k", i), dims))
	}
	approximate := func(name string) bool { return indexOf(t, tbl, name).opts.Approximate }
	if approximate("vx") {
		t.Fatal("a new index is approximate")
	}
	before := rec.records()
	tbl.SetVectorIndexer(Options{Approximate: true})
	if got := rec.records(); got != before {
		t.Errorf("SetVectorIndexer recorded %d records, want none", got-before)
	}
	if !approximate("vx") {
		t.Fatal("vx is not approximate after SetVectorIndexer")
	}
	if count, _, _ := tbl.VectorIndexStats("vx"); count != n {
		t.Errorf("rebuilt index holds %d vectors, want %d", count, n)
	}
	queries := make([]Query, 30)
	for i := range queries {
		queries[i] = Query{Vector: benchVectorQuery(r, dims), TopK: 10}
	}
	if got := recallAt(t, tbl, "vx", queries); got < 0.9 {
		t.Errorf("recall@10 %.3f, want at least 0.9", got)
	}
	if err := tbl.AddVectorIndex(storage.VectorIndexDef{Name: "vy", Attribute: "v", Dimensions: dims, Distance: storage.Cosine, Projection: storage.Projection{All: true}}); err != nil {
		t.Fatal(err)
	}
	if !approximate("vy") {
		t.Error("an index added after SetVectorIndexer is not approximate")
	}
	tbl.SetVectorIndexer(Options{})
	if approximate("vx") || approximate("vy") {
		t.Error("indexes stay approximate after the options are cleared")
	}
	if got := recallAt(t, tbl, "vx", queries); got != 1 {
		t.Errorf("exact again: recall %.3f, want 1", got)
	}
}

// TestDBVectorIndexer: a DB's options reach every table it makes
// (CreateTable, RestoreTable, Apply) so each vector index is built once,
// approximate from the start; setting the same options again keeps the
// indexes as they are, without a rebuild.
func TestDBVectorIndexer(t *testing.T) {
	const n, dims = 1500, 8
	r := rand.New(rand.NewPCG(9, 3))
	def := storage.VectorIndexDef{Name: "vx", Attribute: "v", Dimensions: dims, Distance: storage.Euclidean, Projection: storage.Projection{All: true}}
	approx := Options{Approximate: true}
	index := func(tbl *storage.Table) *index { return indexOf(t, tbl, "vx") }

	exact := newDB(t, nil, Options{})
	src, err := exact.CreateTable(storage.TableDef{Name: "src", ID: "id-src", Schema: schemaS, VectorIndexes: []storage.VectorIndexDef{def}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		put(t, src, benchVectorItem(r, fmt.Sprint("k", i), dims))
	}
	if index(src).opts.Approximate {
		t.Fatal("a table of a DB without options has an approximate index")
	}

	rec := &logHook{}
	db := newDB(t, rec, Options{})
	db.SetVectorIndexer(approx)
	created, err := db.CreateTable(storage.TableDef{Name: "c", ID: "id-c", Schema: schemaS, VectorIndexes: []storage.VectorIndexDef{def}})
	if err != nil {
		t.Fatal(err)
	}
	restored, err := db.RestoreTable("r", "id-r", src.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	replica := newDB(t, nil, approx)
	for _, b := range rec.log {
		r, err := storage.ParseRecord(b)
		if err != nil {
			t.Fatal(err)
		}
		if err := replica.Apply(r, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		tbl  *storage.Table
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
		db.SetVectorIndexer(approx)
		replica.SetVectorIndexer(approx)
		tc.tbl.SetVectorIndexer(approx)
		if got := index(tc.tbl); got != x {
			t.Errorf("%s: the same options again rebuilt the index", tc.name)
		}
	}
	db.SetVectorIndexer(Options{})
	if index(restored).opts.Approximate || index(created).opts.Approximate {
		t.Error("DB.SetVectorIndexer did not reach the tables it has")
	}
}
