package persist

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// testSeed returns the seed of this run, from PERSIST_SEED if set.
func testSeed(t testing.TB) uint64 {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("PERSIST_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (rerun with PERSIST_SEED=%d)", seed, seed)
	return seed
}

// small are options that rotate segments and compact often.
func small(d Durability) Options {
	return Options{Durability: d, SegmentBytes: 4 << 10, CompactBytes: 8 << 10, CompactRatio: 0.5}
}

func mustOpen(t testing.TB, dir string, opts Options) (*Store, *storage.DB) {
	t.Helper()
	s, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	db, err := s.DB(SharedNamespace)
	if err != nil {
		s.Close()
		t.Fatal(err)
	}
	return s, db
}

// TestReopen: the workload runs in rounds, each on the store reopened,
// compacting as it goes; after each reopen the DB is the model, indexes
// included, whatever the durability.
func TestReopen(t *testing.T) {
	seed := testSeed(t)
	const deferred = None + 1
	for _, d := range []Durability{Sync, Group, None, deferred} {
		name := d.String()
		if d == deferred {
			// Loads leave the index entries to the end (deferIndexes),
			// which only long logs do otherwise.
			d, name = None, "deferred indexes"
			deferMinBytes = 0
			t.Cleanup(func() { deferMinBytes = restartLogBytes })
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			m := newModel()
			for round := range 4 {
				s, db := mustOpen(t, dir, small(d))
				if got, want := renderDB(db), m.render(); got != want {
					t.Fatalf("round %d: reopened DB differs:\n%s\nwant\n%s", round, got, want)
				}
				checkIndexes(t, db)
				runWorkload(t, db, m, seed, round*400, (round+1)*400)
				if round == 2 {
					if err := s.Compact(SharedNamespace); err != nil {
						t.Fatal(err)
					}
				}
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
			}
			// Files: two snapshots at most, segments only after the older.
			_, snaps, _ := listDir(filepath.Join(dir, SharedNamespace))
			if len(snaps) == 0 || len(snaps) > 2 {
				t.Errorf("%d snapshots kept, want 1 or 2", len(snaps))
			}
		})
	}
}

// TestAutoCompaction: once the log outgrows the thresholds a compaction
// runs by itself, and the log and snapshot files stay bounded.
func TestAutoCompaction(t *testing.T) {
	dir := t.TempDir()
	s, db := mustOpen(t, dir, small(None))
	defer s.Close()
	m := newModel()
	runWorkload(t, db, m, 1, 0, 1500)
	deadline := time.Now().Add(20 * time.Second) // a bound on waiting, not a measurement
	for {
		st, _ := s.Stats(SharedNamespace)
		if st.Compactions >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no compaction: %+v", st)
		}
		time.Sleep(10 * time.Millisecond)
	}
	segs, snaps, _ := listDir(filepath.Join(dir, SharedNamespace))
	if len(snaps) > 2 || len(segs) > 200 {
		t.Errorf("%d snapshots and %d segments kept", len(snaps), len(segs))
	}
	if got, want := renderDB(db), m.render(); got != want {
		t.Fatalf("DB differs from the model")
	}
}

// TestGroupCommitConcurrent: writers on several tables at once; every
// write acknowledged is there after a reopen, and commits shared syncs.
func TestGroupCommitConcurrent(t *testing.T) {
	for _, d := range []Durability{Sync, Group} {
		t.Run(d.String(), func(t *testing.T) {
			dir := t.TempDir()
			s, db := mustOpen(t, dir, Options{Durability: d, CompactBytes: -1})
			var wg sync.WaitGroup
			const writers, writes = 8, 50
			for w := range writers {
				tb, err := db.CreateTable(storage.TableDef{Name: fmt.Sprint("w", w), ID: fmt.Sprint("w", w), Schema: wlTables[0].ks})
				if err != nil {
					t.Fatal(err)
				}
				wg.Go(func() {
					for i := range writes {
						k := storage.Key{Partition: storage.S(fmt.Sprint(i))}
						if _, err := tb.Put(k, storage.Item{"pk": k.Partition}); err != nil {
							t.Error(err)
						}
					}
				})
			}
			wg.Wait()
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s, db = mustOpen(t, dir, Options{})
			defer s.Close()
			for w := range writers {
				if got := db.Table(fmt.Sprint("w", w)).ItemCount(); got != writes {
					t.Errorf("table w%d: %d items, want %d", w, got, writes)
				}
			}
		})
	}
}

// TestLock: a second Store on the same directory is refused, with the
// holder's pid; after Close it opens.
func TestLock(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(dir, Options{})
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Errorf("second Open: got %v, want ErrLocked naming pid %d", err, os.Getpid())
	}
	s.Close()
	s, err = Open(dir, Options{})
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	s.Close()
}

// TestUnusableDirectory: a path under a regular file, and (not as root)
// a directory without write permission, fail Open with a clear error.
func TestUnusableDirectory(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "file")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(filepath.Join(f, "data"), Options{}); err == nil || !strings.Contains(err.Error(), "cannot create the data directory") {
		t.Errorf("Open under a file: got %v", err)
	}
	if _, err := Open(f, Options{}); err == nil || !strings.Contains(err.Error(), "cannot create the data directory") {
		t.Errorf("Open of a file: got %v", err)
	}
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o500); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		t.Log("running as root: permissions do not stop root, the read-only directory case is not checked")
		return
	}
	if _, err := Open(ro, Options{}); err == nil || !strings.Contains(err.Error(), "not usable") {
		t.Errorf("Open of a read-only directory: got %v", err)
	}
}

// TestNamespaces: namespaces are directories named as DynamoDB Local names
// its files, escaped; each has its own DB; bad names are refused.
func TestNamespaces(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{SharedNamespace, NamespaceName("AKIDEXAMPLE", "us-east-1"), NamespaceName("a_b", "c"), NamespaceName("a", "b_c"), NamespaceName("../x", "é")}
	if got, want := names[1], "AKIDEXAMPLE_us-east-1"; got != want {
		t.Errorf("NamespaceName: got %q, want %q", got, want)
	}
	if names[2] == names[3] {
		t.Errorf("NamespaceName is ambiguous: %q", names[2])
	}
	for i, n := range names {
		db, err := s.DB(n)
		if err != nil {
			t.Fatalf("DB(%q): %v", n, err)
		}
		if err := db.SetMeta("n", []byte(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	for _, bad := range []string{"", "..", "a/b", ".hidden", "-x", strings.Repeat("a", 201)} {
		if _, err := s.DB(bad); !errors.Is(err, ErrBadName) {
			t.Errorf("DB(%q): got %v, want ErrBadName", bad, err)
		}
	}
	s.Close()
	s, err = Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.Namespaces()
	if err != nil || len(got) != len(names) {
		t.Fatalf("Namespaces: %v, %v", got, err)
	}
	for i, n := range names {
		db, err := s.DB(n)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(db.Meta("n")); got != fmt.Sprint(i) {
			t.Errorf("namespace %q: meta %q, want %d", n, got, i)
		}
	}
}

// TestClosedStore: after Close, writes fail and reads go on.
func TestClosedStore(t *testing.T) {
	s, db := mustOpen(t, t.TempDir(), Options{})
	tb, err := db.CreateTable(storage.TableDef{Name: "t", ID: "t", Schema: wlTables[0].ks})
	if err != nil {
		t.Fatal(err)
	}
	k := storage.Key{Partition: storage.S("a")}
	if _, err := tb.Put(k, storage.Item{"pk": k.Partition}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := tb.Put(storage.Key{Partition: storage.S("b")}, storage.Item{"pk": storage.S("b")}); !errors.Is(err, storage.ErrHookFailed) {
		t.Errorf("write after Close: got %v, want ErrHookFailed", err)
	}
	if _, ok := tb.Get(k); !ok || tb.ItemCount() != 1 {
		t.Errorf("read after Close: item %v, count %d", ok, tb.ItemCount())
	}
	if _, err := s.DB(SharedNamespace); err == nil {
		t.Error("DB after Close succeeded")
	}
}

// TestProgress: a load reports its progress through Options.Progress,
// each phase to its end.
func TestProgress(t *testing.T) {
	dir := t.TempDir()
	s, db := mustOpen(t, dir, Options{Durability: None, CompactBytes: -1})
	runWorkload(t, db, newModel(), 11, 0, 300)
	if err := s.Compact(SharedNamespace); err != nil {
		t.Fatal(err)
	}
	runWorkload(t, db, newModel(), 12, 0, 100)
	s.Close()
	var got []Progress
	s, _ = mustOpen(t, dir, Options{ProgressBytes: 1000, Progress: func(p Progress) { got = append(got, p) }})
	defer s.Close()
	done := map[string]bool{}
	var last Progress
	for _, p := range got {
		if p.Namespace != SharedNamespace || p.Bytes > p.Total || (p.Phase == last.Phase && p.File == last.File && p.Bytes < last.Bytes) {
			t.Errorf("progress %+v after %+v", p, last)
		}
		if p.Done {
			done[p.Phase] = true
		}
		last = p
	}
	if len(got) < 3 || !done["snapshot"] || !done["log"] || last.Records == 0 {
		t.Errorf("progress reports: %+v", got)
	}
}

func TestParseNamespaceName(t *testing.T) {
	for _, tc := range []struct{ key, region string }{
		{"AKIDEXAMPLE", "us-east-1"}, {"a_b", "c"}, {"a", "b_c"}, {"../x", "é"}, {"", ""}, {"%", "_%_"},
	} {
		key, region, shared, ok := ParseNamespaceName(NamespaceName(tc.key, tc.region))
		if !ok || shared || key != tc.key || region != tc.region {
			t.Errorf("ParseNamespaceName(NamespaceName(%q, %q)): got %q, %q, %v, %v", tc.key, tc.region, key, region, shared, ok)
		}
	}
	if _, _, shared, ok := ParseNamespaceName(SharedNamespace); !shared || !ok {
		t.Errorf("ParseNamespaceName(SharedNamespace): got shared %v, ok %v, want true, true", shared, ok)
	}
	for _, bad := range []string{"nounderscore", "a_b_c", "a%4_b", "a%zz_b", "a%41_b", "a_b%"} {
		if _, _, _, ok := ParseNamespaceName(bad); ok {
			t.Errorf("ParseNamespaceName(%q): got ok, want not ok", bad)
		}
	}
}

// TestSnapshotAtClose: a Close with a log worth folding (a MiB and an
// eighth of the snapshot) leaves one snapshot holding everything, which
// the next open loads without replaying; a load that replayed such a log
// folds it too, in the background.
func TestSnapshotAtClose(t *testing.T) {
	dir := t.TempDir()
	fill := func(db *storage.DB, from int) {
		tab := db.Table("t")
		if tab == nil {
			var err error
			tab, err = db.CreateTable(storage.TableDef{Name: "t", ID: "t", Schema: benchKS})
			require.NoError(t, err)
		}
		for i := from; i < from+3000; i++ {
			it := benchItem(i, 0)
			it["pad"] = storage.S(strings.Repeat("p", 400))
			_, err := tab.Put(benchKS.KeyOf(it), it)
			require.NoError(t, err)
		}
	}
	s, db := mustOpen(t, dir, Options{Durability: None, CompactBytes: -1})
	fill(db, 0)
	require.NoError(t, s.Close())
	_, snaps, err := listDir(nsDir(dir))
	require.NoError(t, err)
	require.Len(t, snaps, 1)
	s, db = mustOpen(t, dir, Options{Durability: None, CompactBytes: -1})
	rec, _ := s.Recovery(SharedNamespace)
	require.Zero(t, rec.Records)
	require.Equal(t, 3000, db.Table("t").ItemCount())

	// Killed (the store dropped without Close) after more writes: the
	// next load replays them and folds them in the background.
	fill(db, 3000)
	ns := s.namespace(SharedNamespace)
	close(ns.stop)
	<-ns.done
	ns.wal.mu.Lock()
	ns.wal.f.Close() // what a kill leaves: the log as written
	ns.wal.closed = true
	ns.wal.mu.Unlock()
	s.lock.Close()
	s, db = mustOpen(t, dir, Options{Durability: None, CompactBytes: -1})
	defer s.Close()
	rec, _ = s.Recovery(SharedNamespace)
	require.Equal(t, 3000, rec.Records)
	require.Equal(t, 6000, db.Table("t").ItemCount())
	require.Eventually(t, func() bool {
		st, _ := s.Stats(SharedNamespace)
		return st.Compactions == 1 && st.LogBytes == 0
	}, time.Minute, 10*time.Millisecond)
}
