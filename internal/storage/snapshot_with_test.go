package storage

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSnapshotWith: With puts a table derived from a snapshot's in place
// of the one of its name, adds one it has not, in name order, and leaves
// the snapshot it was called on as it was.
func TestSnapshotWith(t *testing.T) {
	db := newDB(t, nil)
	for _, name := range []string{"a", "c"} {
		_, err := db.CreateTable(TableDef{Name: name, ID: name, Schema: schemaS, Meta: map[string][]byte{"m": []byte(name)}})
		require.NoError(t, err)
	}
	snap := db.Snapshot(nil)
	c, err := snap.Table("c").Derive(Derivation{Meta: map[string][]byte{"m": []byte("c2")}})
	require.NoError(t, err)
	b, err := snap.Table("a").Derive(Derivation{})
	require.NoError(t, err)
	b.name = "b"
	out := snap.With(c, b)
	var names []string
	for _, ts := range out.Tables() {
		names = append(names, ts.Name())
	}
	require.Equal(t, []string{"a", "b", "c"}, names)
	require.Equal(t, "c2", string(out.Table("c").Meta("m")))
	require.Equal(t, "c", string(snap.Table("c").Meta("m")), "With changed the snapshot")
	require.Len(t, snap.Tables(), 2)
}
