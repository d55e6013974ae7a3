package persist

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/stretchr/testify/require"
)

// TestSnapshotVersions: a DB written as a snapshot of version 3 (its
// items as commits) and of version 4 (chunks of stored records, index
// orders) loads back from either as the same DB, its indexes whole,
// and deferring the indexes changes nothing.
func TestSnapshotVersions(t *testing.T) {
	db := storage.NewDB(nil)
	m := newModel()
	runWorkload(t, db, m, 7, 0, 600)
	want := m.render()
	require.Equal(t, want, renderDB(db))
	entries := 0
	for _, tb := range db.Tables() {
		for _, x := range tb.Snapshot().Indexes() {
			n, _, err := tb.IndexStats(x.Name)
			require.NoError(t, err)
			entries += n
		}
	}
	require.Positive(t, entries, "the workload made index entries")
	for _, v := range []uint32{versionSealed, versionChunks} {
		path := filepath.Join(t.TempDir(), "snap")
		f, err := os.Create(path)
		require.NoError(t, err)
		a := &appender{f: f, hdr: fileHeader{version: v}}
		require.NoError(t, a.writeAll(db.Snapshot(nil), 9, nil))
		require.NoError(t, f.Close())
		for _, deferIdx := range []bool{false, true} {
			got := storage.NewDB(nil)
			if deferIdx {
				got.DeferIndexes()
			}
			h, _, err := loadSnapshot(got, path, deferIdx, nil)
			require.NoError(t, err)
			require.Equal(t, v, h.version)
			if deferIdx {
				got.FillIndexes()
			}
			require.Equal(t, want, renderDB(got), "version %d", v)
			checkIndexes(t, got)
		}
	}
}
