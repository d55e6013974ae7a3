package persist

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// faultFS makes the store's files fail as a full or failing disk does.
type faultFS struct {
	mu           sync.Mutex
	budget       int64 // bytes that may still be written; < 0: no limit
	partial      bool  // a write past the budget writes what fits first
	failTruncate bool
	failSync     bool
}

type faultFile struct {
	file
	fs *faultFS
}

func (fs *faultFS) open(name string, flag int) (file, error) {
	f, err := openOSFile(name, flag)
	if err != nil {
		return nil, err
	}
	return faultFile{f, fs}, nil
}

func (fs *faultFS) set(fn func(*faultFS)) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fn(fs)
}

func (f faultFile) WriteAt(b []byte, off int64) (int, error) {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	if f.fs.budget >= 0 && int64(len(b)) > f.fs.budget {
		n := 0
		if f.fs.partial {
			n, _ = f.file.WriteAt(b[:f.fs.budget], off)
		}
		f.fs.budget -= int64(n)
		return n, &writeErr{syscall.ENOSPC}
	}
	if f.fs.budget >= 0 {
		f.fs.budget -= int64(len(b))
	}
	return f.file.WriteAt(b, off)
}

func (f faultFile) Truncate(size int64) error {
	f.fs.mu.Lock()
	fail := f.fs.failTruncate
	f.fs.mu.Unlock()
	if fail {
		return syscall.EIO
	}
	return f.file.Truncate(size)
}

func (f faultFile) Sync() error {
	f.fs.mu.Lock()
	fail := f.fs.failSync
	f.fs.mu.Unlock()
	if fail {
		return syscall.EIO
	}
	return f.file.Sync()
}

type writeErr struct{ errno syscall.Errno }

func (e *writeErr) Error() string { return "write: " + e.errno.Error() }
func (e *writeErr) Unwrap() error { return e.errno }

// TestFullDisk: with the disk full, a write fails (ErrHookFailed, the
// cause ENOSPC) and leaves nothing, in memory or on disk, even when the
// disk took part of its record; reads go on; once there is room again,
// writes go on; a compaction that cannot write its snapshot leaves the
// files as they were.
func TestFullDisk(t *testing.T) {
	for _, partial := range []bool{false, true} {
		t.Run(fmt.Sprint("partial=", partial), func(t *testing.T) {
			dir := t.TempDir()
			fs := &faultFS{budget: -1}
			opts := Options{Durability: Sync, CompactBytes: -1}
			opts.newFile = fs.open
			s, db := mustOpen(t, dir, opts)
			m := newModel()
			runWorkload(t, db, m, 7, 0, 200)
			want := renderDB(db)
			fs.set(func(fs *faultFS) { fs.budget, fs.partial = 20, partial })
			failed := 0
			for i := 200; i < 260; i++ {
				err := runOp(db, genOp(7, i), i)
				if err == nil {
					continue // an op that writes nothing
				}
				failed++
				if !errors.Is(err, storage.ErrHookFailed) || !errors.Is(err, syscall.ENOSPC) || !errors.Is(err, ErrNoSpace) {
					t.Fatalf("op %d: got %v, want ErrHookFailed, ErrNoSpace and ENOSPC", i, err)
				}
				require.ErrorContains(t, err, "no space left on the device holding the data directory ("+nsDir(dir)+")")
			}
			if failed == 0 {
				t.Fatal("no write failed")
			}
			probs := s.Problems()
			require.Len(t, probs, 1)
			require.True(t, probs[0].WritesFail)
			require.Contains(t, probs[0].Err, "no space left")
			require.False(t, probs[0].Since.IsZero())
			if got := renderDB(db); got != want {
				t.Fatalf("failed writes left changes:\n%s\nwant\n%s", got, want)
			}
			checkIndexes(t, db)
			// Room for a new segment's header, not for a snapshot.
			fs.set(func(fs *faultFS) { fs.budget = headerSize + 8 })
			if err := s.Compact(SharedNamespace); err == nil || !errors.Is(err, syscall.ENOSPC) {
				t.Errorf("a compaction on a full disk: got %v, want ENOSPC", err)
			}
			if st, _ := s.Stats(SharedNamespace); !strings.Contains(st.LastError, "snapshot") || st.Snapshots != 0 {
				t.Errorf("stats after a failed compaction: %+v", st)
			}
			if ents, _ := os.ReadDir(nsDir(dir)); slices.ContainsFunc(ents, func(e os.DirEntry) bool { return strings.Contains(e.Name(), "snap") }) {
				t.Errorf("a failed compaction left files: %v", ents)
			}
			fs.set(func(fs *faultFS) { fs.budget = -1 })
			runWorkload(t, db, m, 7, 300, 350)
			want = renderDB(db)
			for _, p := range s.Problems() { // the compaction's failure stays until one succeeds
				require.False(t, p.WritesFail, "%+v after writes went through", p)
			}
			if err := s.Compact(SharedNamespace); err != nil {
				t.Fatal(err)
			}
			s.Close()
			s, db = mustOpen(t, dir, Options{})
			defer s.Close()
			if got := renderDB(db); got != want {
				t.Fatalf("after a reopen:\n%s\nwant\n%s", got, want)
			}
			if rec, _ := s.Recovery(SharedNamespace); rec.Cut != "" {
				t.Errorf("a failed write was not undone on disk: %s", rec.Cut)
			}
		})
	}
}

// TestBrokenLog: a failed write that cannot be undone (its truncate
// fails too), or a failed fdatasync, stops the log: that write fails (or
// is not durable, ErrNotDurable), every later write fails with the
// cause, reads go on; a reopen cuts the half record and holds every
// acknowledged write.
func TestBrokenLog(t *testing.T) {
	for _, how := range []string{"truncate", "fdatasync"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			fs := &faultFS{budget: -1}
			opts := Options{Durability: Sync, CompactBytes: -1}
			opts.newFile = fs.open
			s, db := mustOpen(t, dir, opts)
			m := newModel()
			runWorkload(t, db, m, 9, 0, 100)
			want := renderDB(db)
			if how == "truncate" {
				fs.set(func(fs *faultFS) { fs.budget, fs.partial, fs.failTruncate = 10, true, true })
			} else {
				fs.set(func(fs *faultFS) { fs.failSync = true })
			}
			var first error
			i := 100
			for ; first == nil; i++ {
				first = runOp(db, genOp(9, i), i)
				if how == "fdatasync" && first != nil {
					if !errors.Is(first, storage.ErrNotDurable) {
						t.Fatalf("got %v, want ErrNotDurable", first)
					}
				}
			}
			fs.set(func(fs *faultFS) { fs.budget, fs.failSync, fs.failTruncate = -1, false, false })
			next := runOp(db, dbMetaOp(), i)
			if next == nil || !strings.Contains(next.Error(), "no more writes are accepted until restart") {
				t.Errorf("a write after the log broke: got %v", next)
			}
			if got := db.Tables(); len(got) == 0 {
				t.Error("reads stopped")
			}
			probs := s.Problems()
			require.Len(t, probs, 1)
			require.True(t, probs[0].WritesFail)
			require.Contains(t, probs[0].Err, "no more writes are accepted until restart")
			s.Close()
			s, db = mustOpen(t, dir, Options{})
			defer s.Close()
			got := renderDB(db)
			if how == "truncate" && got != want {
				t.Errorf("after a reopen:\n%s\nwant\n%s", got, want)
			}
			if how == "fdatasync" {
				// The write whose fdatasync failed may be there or not.
				m2 := m.clone()
				m2.apply(genOp(9, i-1), i-1)
				if got != want && got != m2.render() {
					t.Errorf("after a reopen: neither before nor after the unsynced write:\n%s", got)
				}
			}
		})
	}
}

// dbMetaOp returns an op that always writes: a DB metadata change.
func dbMetaOp() wlOp { return wlOp{kind: opDBMeta} }

// TestCompactionLeavesRoom: a compaction does not start when the file
// system would keep less than ReserveBytes free after a snapshot the
// size of the last (and the log since), and stops, its file removed,
// when the free space falls below the reserve while it writes; writes
// go on either way, and it goes through once there is room.
func TestCompactionLeavesRoom(t *testing.T) {
	dir := t.TempDir()
	var mu sync.Mutex
	free := int64(1 << 40)
	calls := 0
	opts := Options{Durability: None, CompactBytes: -1, ReserveBytes: 1 << 20}
	opts.freeBytes = func(string) (int64, bool) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		return free, true
	}
	setFree := func(n int64) {
		mu.Lock()
		free, calls = n, 0
		mu.Unlock()
	}
	s, db := mustOpen(t, dir, opts)
	defer s.Close()
	m := newModel()
	runWorkload(t, db, m, 9, 0, 300)
	require.NoError(t, s.Compact(SharedNamespace))
	runWorkload(t, db, m, 9, 300, 600)
	snapFiles := func() []string {
		var out []string
		ents, err := os.ReadDir(nsDir(dir))
		require.NoError(t, err)
		for _, e := range ents {
			if strings.Contains(e.Name(), "snap") {
				out = append(out, e.Name())
			}
		}
		return out
	}
	before := snapFiles()

	setFree(1<<20 + 100) // the reserve and a little: no room for a snapshot
	err := s.Compact(SharedNamespace)
	require.ErrorIs(t, err, ErrNoSpace)
	require.ErrorContains(t, err, "kept for writes")
	require.Equal(t, before, snapFiles())
	runWorkload(t, db, m, 9, 600, 650) // writes take no notice
	probs := s.Problems()
	require.Len(t, probs, 1)
	require.False(t, probs[0].WritesFail)
	require.Contains(t, probs[0].Err, "compaction failed")

	// Room at the start, gone as it writes.
	opts.freeBytes = nil
	ns := s.namespace(SharedNamespace)
	ns.opts.freeBytes = func(string) (int64, bool) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if calls > 1 {
			return 1 << 19, true
		}
		return 1 << 40, true
	}
	setFree(0)
	require.ErrorIs(t, s.Compact(SharedNamespace), ErrNoSpace)
	require.Equal(t, before, snapFiles(), "a stopped compaction left its file")
	runWorkload(t, db, m, 9, 650, 700)

	ns.opts.freeBytes = func(string) (int64, bool) { return 1 << 40, true }
	require.NoError(t, s.Compact(SharedNamespace))
	require.Empty(t, s.Problems())
	require.Equal(t, m.render(), renderDB(db))
}
