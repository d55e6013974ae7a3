package storage

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSnapshotGivenAgain: a DB snapshot taken of tables and metadata that
// have not changed since the last one is that same snapshot (forks of one
// base share it); any change (a write, an index or vector index, table or
// DB metadata, a table created or dropped) makes the next one new, and
// every snapshot still holds what the DB held when it was taken.
func TestSnapshotGivenAgain(t *testing.T) {
	db := newDB(t, nil)
	src := restoreFixture(t, db)
	first := db.Snapshot(nil)
	want := dumpSnap(first)
	require.Same(t, first, db.Snapshot(nil), "nothing changed: the same snapshot")

	var called bool
	require.Same(t, first, db.Snapshot(func() { called = true }), "a callback's snapshot too")
	require.True(t, called, "the callback runs on a snapshot given again")

	// Two tables restored from the shared snapshot write apart.
	a, err := db.RestoreTable("a", "a", first.Table("src"))
	require.NoError(t, err)
	afterRestore := db.Snapshot(nil)
	require.NotSame(t, first, afterRestore, "a table was added")
	require.Same(t, afterRestore, db.Snapshot(nil))
	put(t, a, benchItem(t, schemaSN, 1000, 0))
	require.Equal(t, 301, a.ItemCount())
	require.Equal(t, 300, src.ItemCount())

	vdef := VectorIndexDef{Name: "vx", Attribute: "vec", Dimensions: 2, Distance: Euclidean, Projection: Projection{All: true}}
	changes := map[string]func(){
		"write": func() { put(t, src, benchItem(t, schemaSN, 2000, 0)) },
		"add index": func() {
			require.NoError(t, src.AddIndex(IndexDef{Name: "by2", Schema: emailIndex.Schema, Projection: Projection{All: true}}))
		},
		"drop index":        func() { require.NoError(t, src.DropIndex("by2")) },
		"add vector index":  func() { require.NoError(t, src.AddVectorIndex(vdef)) },
		"drop vector index": func() { require.NoError(t, src.DropVectorIndex("vx")) },
		"table meta":        func() { require.NoError(t, src.SetMeta("m", []byte("w"))) },
		"db meta":           func() { require.NoError(t, db.SetMeta("k", []byte("v"))) },
		"drop table":        func() { require.NoError(t, db.DropTable("a")) },
	}
	prev := db.Snapshot(nil)
	for _, name := range []string{"write", "add index", "drop index", "add vector index", "drop vector index", "table meta", "db meta", "drop table"} {
		taken := dumpSnap(prev)
		changes[name]()
		next := db.Snapshot(nil)
		require.NotSame(t, prev, next, "after a change (%s) the snapshot is new", name)
		require.Equal(t, taken, dumpSnap(prev), "the earlier snapshot is as it was (%s)", name)
		require.Same(t, next, db.Snapshot(nil), "nothing changed since %s", name)
		prev = next
	}
	require.Equal(t, want, dumpSnap(first), "the first snapshot holds what the DB held then")
	require.Equal(t, 300, first.Table("src").ItemCount())
}
