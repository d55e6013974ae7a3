package storage

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRestoredTableSharesIndexes: a table restored from a snapshot holds
// the snapshot's frozen indexes, not copies, until its first change
// (a write, an index added, a lag set), and no write state (slab,
// arena, buffers) until its first write, however much it is read; a
// snapshot of it taken before then holds the same indexes. The change
// gives it copies of its own, and the snapshot and a sibling restored
// from it see none of its writes.
func TestRestoredTableSharesIndexes(t *testing.T) {
	db := newDB(t, nil)
	snap := restoreFixture(t, db).Snapshot()
	var before strings.Builder
	dumpSnapshot(&before, snap)
	r1, err := db.RestoreTable("r1", "r1", snap)
	require.NoError(t, err)
	r2, err := db.RestoreTable("r2", "r2", snap)
	require.NoError(t, err)
	for _, r := range []*Table{r1, r2} {
		_, ok := r.Get(schemaSN.KeyOf(benchItem(t, schemaSN, 0, 0)))
		require.True(t, ok)
		require.NoError(t, r.QueryIndex(emailIndex.Name, IndexQuery{Partition: []Value{S("someone.0@example.com")}, Forward: true}, func(EncodedItem) bool { return true }))
		require.True(t, r.idxShared)
		require.Same(t, snap.indexes[0], r.indexes[0], "%s copied the index it only read", r.Name())
		require.Nil(t, r.scr, "%s made write state to be read", r.Name())
	}
	again := r1.Snapshot()
	require.Same(t, snap.indexes[0], again.indexes[0], "a snapshot of a table never changed copies its indexes")
	var againBefore strings.Builder
	dumpSnapshot(&againBefore, again)

	it := benchItem(t, schemaSN, 0, 0)
	it["email"] = S("changed@example.com")
	put(t, r1, it)
	require.NotNil(t, r1.scr)
	require.False(t, r1.idxShared)
	require.NotSame(t, snap.indexes[0], r1.indexes[0])
	require.True(t, r2.idxShared, "a sibling's write copied this table's indexes")
	require.NoError(t, r2.SetIndexLag(emailIndex.Name, nil))
	require.False(t, r2.idxShared, "setting a lag changes the index: it is copied first")

	count := func(r *Table) int {
		n := 0
		require.NoError(t, r.QueryIndex(emailIndex.Name, IndexQuery{Partition: []Value{S("changed@example.com")}, Forward: true}, func(EncodedItem) bool { n++; return true }))
		return n
	}
	require.Equal(t, 1, count(r1))
	require.Equal(t, 0, count(r2))
	var after, againAfter strings.Builder
	dumpSnapshot(&after, snap)
	require.True(t, before.String() == after.String(), "the snapshot changed")
	dumpSnapshot(&againAfter, again)
	require.True(t, againBefore.String() == againAfter.String(), "the snapshot of the unchanged table changed")
}

// TestTableByID: a DB finds its tables by ID whether it holds few (no
// map by ID: it looks through them by name) or more than byIDFrom (a
// map), and forgets dropped ones either way; an ID in use is refused.
func TestTableByID(t *testing.T) {
	db := newDB(t, nil)
	for i := range byIDFrom + 3 {
		name := string(rune('a' + i))
		_, err := db.CreateTable(TableDef{Name: name, ID: "id-" + name, Schema: schemaSN})
		require.NoError(t, err)
		require.Equal(t, i+1 > byIDFrom, db.byID != nil, "after %d tables", i+1)
		for j := range i + 1 {
			n := string(rune('a' + j))
			require.NotNil(t, db.TableByID("id-"+n), "table %s after %d tables", n, i+1)
			require.Equal(t, n, db.TableByID("id-"+n).Name())
		}
		_, err = db.CreateTable(TableDef{Name: "other", ID: "id-" + name, Schema: schemaSN})
		require.ErrorIs(t, err, ErrTableExists)
	}
	require.NoError(t, db.DropTable("b"))
	require.Nil(t, db.TableByID("id-b"))
	require.NotNil(t, db.TableByID("id-c"))

	small := newDB(t, nil)
	_, err := small.CreateTable(TableDef{Name: "x", ID: "id-x", Schema: schemaSN})
	require.NoError(t, err)
	require.NoError(t, small.DropTable("x"))
	require.Nil(t, small.TableByID("id-x"))
	require.Nil(t, small.byID)
}
