package persist

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCompactionThreshold checks when the log is folded into a snapshot:
// past CompactBytes and past CompactRatio times the last snapshot's size,
// the ratio a quarter unless set, so that a start after a crash replays a
// log of at most about a quarter of what it loads from the snapshot.
func TestCompactionThreshold(t *testing.T) {
	def, err := Options{}.withDefaults()
	require.NoError(t, err)
	require.Equal(t, 0.25, def.CompactRatio)
	require.Equal(t, int64(32<<20), def.CompactBytes)

	for _, tc := range []struct {
		name            string
		opts            Options
		snapSize, since int64
		want            bool
	}{
		{"under both", Options{CompactBytes: 1 << 10}, 100 << 10, 10 << 10, false},
		{"at a quarter", Options{CompactBytes: 1 << 10}, 100 << 10, 25 << 10, false},
		{"past a quarter", Options{CompactBytes: 1 << 10}, 100 << 10, 25<<10 + 1, true},
		{"past the ratio, under the bytes", Options{}, 100 << 20, 30 << 20, false},
		{"past both, the bytes larger", Options{}, 100 << 20, 32<<20 + 1, true},
		{"past the bytes, under the ratio", Options{}, 200 << 20, 40 << 20, false},
		{"no snapshot yet", Options{CompactBytes: 1 << 10}, 0, 1<<10 + 1, true},
		{"a ratio of its own", Options{CompactBytes: 1 << 10, CompactRatio: 1}, 100 << 10, 60 << 10, false},
		{"compaction off", Options{CompactBytes: -1}, 100 << 10, 1 << 30, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts, err := tc.opts.withDefaults()
			require.NoError(t, err)
			w := &wal{opts: &opts, compact: func() {}, snapSize: tc.snapSize, sinceSnap: tc.since}
			require.Equal(t, tc.want, w.needsCompactionLocked(), "snapshot %d bytes, %d logged since", tc.snapSize, tc.since)
		})
	}
}
