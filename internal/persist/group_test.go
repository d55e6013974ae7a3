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
// covers about half of them: BenchmarkPut), and so do 8 writers in
// lockstep, each putting one item a round and waiting for the others
// (a client's parallel steps), whose gathers run out of window once, at
// the start: a round split in two once had the second half's leader
// wait the whole window for writers held at the end of the round, round
// after round (1 to 9 of 200 rounds in three runs; 5 of 5 in another).
// The windows are long enough that no writer misses one on a busy
// machine; the counts, not the time, are checked.
func TestGroupCommitGathers(t *testing.T) {
	const puts = 200 // each writer's
	for _, tc := range []struct {
		name     string
		d        Durability
		window   time.Duration
		writers  int
		lockstep bool    // the writers put one item each a round and wait for each other
		least    float64 // the fewest puts an fdatasync may cover on average
		most     float64
		timeouts int64 // the most gathers that may run out of window; -1: any
	}{
		{"lone group writer", Group, time.Hour, 1, false, 1, 1, 0},
		{"lone sync writer", Sync, 0, 1, false, 1, 1, 0},
		{"8 group writers", Group, time.Second, 8, false, 6, 8, -1},
		{"8 group writers in lockstep", Group, 200 * time.Millisecond, 8, true, 6, 8, 2},
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
			put := func(i, p int) bool {
				it := benchItem(i*puts+p, 0)
				_, errs[i] = tab.Put(benchKS.KeyOf(it), it)
				return errs[i] == nil
			}
			if tc.lockstep {
				for p := range puts {
					var wg sync.WaitGroup
					for i := range tc.writers {
						wg.Go(func() { put(i, p) })
					}
					wg.Wait()
					for _, err := range errs {
						require.NoError(t, err)
					}
				}
			} else {
				var wg sync.WaitGroup
				for i := range tc.writers {
					wg.Go(func() {
						for p := range puts {
							if !put(i, p) {
								return
							}
						}
					})
				}
				wg.Wait()
				for _, err := range errs {
					require.NoError(t, err)
				}
			}
			perSync := float64(puts*tc.writers) / float64(syncs()-before)
			require.GreaterOrEqual(t, perSync, tc.least)
			require.LessOrEqual(t, perSync, tc.most)
			if tc.timeouts >= 0 {
				w.syncMu.Lock()
				timeouts := w.timeouts
				w.syncMu.Unlock()
				require.LessOrEqual(t, timeouts, tc.timeouts, "gathers that ran out of window")
			}
		})
	}
}
