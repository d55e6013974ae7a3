package persist

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestGroupCommitGathers: a lone Group writer never waits for others
// (with a window of an hour its puts would not return) and each of its
// puts gets an fdatasync of its own, as with Sync; 8 writers writing
// one put after another each share fdatasyncs nearly whole (where Sync
// covers about half of them: BenchmarkPut). The window is long enough
// (a second) that no writer misses it on a busy machine; the counts,
// not the time, are checked.
func TestGroupCommitGathers(t *testing.T) {
	const puts = 50 // each writer's
	for _, tc := range []struct {
		name    string
		d       Durability
		window  time.Duration
		writers int
		least   float64 // the fewest puts an fdatasync may cover on average
		most    float64
	}{
		{"lone group writer", Group, time.Hour, 1, 1, 1},
		{"lone sync writer", Sync, 0, 1, 1, 1},
		{"8 group writers", Group, time.Second, 8, 6, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, db := mustOpen(t, t.TempDir(), Options{Durability: tc.d, GroupWindow: tc.window})
			defer s.Close()
			tab, err := db.CreateTable(storage.TableDef{Name: "t", ID: "t", Schema: benchKS})
			require.NoError(t, err)
			w := s.namespace(SharedNamespace).wal
			syncs := func() int64 {
				w.syncMu.Lock()
				defer w.syncMu.Unlock()
				return w.syncs
			}
			before := syncs()
			errs := make([]error, tc.writers)
			var wg sync.WaitGroup
			for i := range tc.writers {
				wg.Go(func() {
					for p := range puts {
						it := benchItem(i*puts+p, 0)
						if _, err := tab.Put(benchKS.KeyOf(it), it); err != nil {
							errs[i] = err
							return
						}
					}
				})
			}
			wg.Wait()
			for _, err := range errs {
				require.NoError(t, err)
			}
			perSync := float64(puts*tc.writers) / float64(syncs()-before)
			require.GreaterOrEqual(t, perSync, tc.least)
			require.LessOrEqual(t, perSync, tc.most)
		})
	}
}
