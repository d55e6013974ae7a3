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
// (a client's parallel steps), whose gathers run out of window a few
// times while the writers' goroutines start (1 to 3 of 200 rounds in 20
// race runs), then never: a round split in two once had the second
// half's leader wait the whole window for writers held at the end of the
// round, round after round (1 to 9 of 200 rounds in three runs; 5 of 5
// in another), and while a split round counted only the writers under
// way at its first half's end, a disk with a short fdatasync split round
// after round until stragglers happened to come during a sync (2 to 8
// rounds in 20 runs). The windows are long enough that no writer misses
// one on a busy machine (the lockstep case's was 200 ms, and a race run
// beside the other packages' saw 4 gathers run out of it); the counts,
// not the time, are checked.
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
		// In lockstep none may in the second half of the rounds: the count
		// settles in the first rounds, as the writers' goroutines start.
	}{
		{"lone group writer", Group, time.Hour, 1, false, 1, 1, 0},
		{"lone sync writer", Sync, 0, 1, false, 1, 1, 0},
		{"8 group writers", Group, time.Second, 8, false, 6, 8, -1},
		{"8 group writers in lockstep", Group, time.Second, 8, true, 6, 8, 5},
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
			var atHalf int64
			if tc.lockstep {
				for p := range puts {
					if p == puts/2 {
						w.syncMu.Lock()
						atHalf = w.timeouts
						w.syncMu.Unlock()
					}
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
				if tc.lockstep {
					require.Equal(t, atHalf, timeouts, "gathers that ran out of window after the count settled (in the second half of the rounds)")
				}
			}
		})
	}
}

// TestGroupCountAfterSplitRound: the count a leader gathers for
// (gatherLocked) after syncs that covered a round of writers in two
// parts, the second part's leader having run out of window: the round is
// both parts' writers, however few of them were under way when the first
// part's sync ended; a second gather out of window running counts only
// the Waits under way (a writer left alone).
func TestGroupCountAfterSplitRound(t *testing.T) {
	w := &wal{}
	w.startSyncer()
	sync := func(covered, waiters int, short bool) {
		for i := range covered {
			w.pending = append(w.pending, uint64(w.synced)+uint64(i)+1)
		}
		w.waiters, w.short = waiters, short
		w.syncedLocked(w.synced+uint64(covered), nil)
	}
	want := func() int { return max(w.lastBatch, w.prevBatch) }

	sync(6, 6, false) // the first part: 6 writers, the other 2 not yet come
	require.Equal(t, 6, want())
	sync(2, 2, true) // the second part's leader waited the window for 6
	require.Equal(t, 8, want(), "the next round is gathered whole")
	sync(8, 8, false)
	require.Equal(t, 8, want())

	// The others stop; a lone writer waits out the window twice at most.
	sync(1, 1, true)
	require.Equal(t, 9, want())
	sync(1, 1, true)
	require.Equal(t, 1, want(), "a lone writer no longer waits")
	sync(1, 1, false)
	require.Equal(t, 1, want())
}
