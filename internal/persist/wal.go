package persist

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/lease"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The log: a namespace's storage.Hook. Commit appends one frame per
// record to the active segment with one write (pwrite) under the log's
// lock, so records are in the log in the order the DB commits them and a
// failed write is undone before anyone else appends; Wait waits for the
// syncer's fdatasync to cover the record (Sync and Group). A segment past
// Options.SegmentBytes (or at a compaction) is closed for a new one; the
// old one is sealed (frame.go), naming the new one, once the new one's
// directory entry is durable, then made durable and closed: by the
// syncer before any record of the new segment is acknowledged (Sync,
// Group), at once with None. A sealed segment whose successor is gone is
// therefore a missing segment, never a crash's torn end.

// errClosed: the store was closed; the DB accepts no more writes.
var errClosed = errors.New("persist: store closed")

// wal is a namespace's log and the hook of its DB.
type wal struct {
	dir  string
	opts *Options

	// mu guards the fields up to syncMu. Commit takes it under the locks
	// of the tables it commits (and the DB's catalog lock), so the lock
	// order is Table.mu, DB.mu, wal.mu; nothing holding mu calls into
	// the DB. No fsync runs under mu.
	mu        sync.Mutex
	db        uint64 // the database id segment headers carry
	f         file   // the active segment
	fname     string // its name
	off       int64  // its size: where the next frame goes
	next      uint64 // the LSN the next record gets
	loading   bool   // records are being loaded: Commit logs nothing
	closed    bool
	broken    error         // set when the log cannot go on; every Commit returns it
	full      *spaceProblem // the last append failed for lack of space (space.go); nil after one succeeds
	sinceSnap int64         // bytes logged since the last snapshot's mark
	snapSize  int64         // the last snapshot's size, for the compaction threshold
	closing   []rotated     // rotated segments the syncer has to seal, sync and close
	dirDirty  bool          // a segment was created since the directory was synced
	compact   func()        // asks for a compaction (non-blocking)

	// syncMu guards the fields below; syncCond signals a sync's end,
	// arrive a Wait's coming to a gathering leader (Wait).
	syncMu    sync.Mutex
	syncCond  *sync.Cond
	arrive    chan struct{}
	synced    uint64   // every record up to this LSN is durable
	syncErr   error    // the fdatasync that failed; every later Wait returns it
	syncing   bool     // a sync is under way (a Wait leads it, or close)
	waiters   int      // Waits not yet returned
	pending   []uint64 // the LSNs of the Waits no sync has covered yet
	lastBatch int      // the writers to wait for: Waits under way when the last sync ended (gatherLocked)
	prevBatch int      // and when the sync before it ended
	covered   int      // the pending Waits the last sync covered
	short     bool     // the gather of the sync under way ran out of window
	lastShort bool     // and the last sync's did
	syncs     int64    // syncs led by Waits, for benchmarks
	timeouts  int64    // Group gathers that ran out of window, for tests
}

// rotated is a segment the log moved on from: its file, name and size,
// and the first record of the segment after it (what its seal names).
type rotated struct {
	f    file
	name string
	end  int64
	next uint64
}

// segName is the file name of the segment whose first record is lsn.
func segName(lsn uint64) string { return fmt.Sprintf("wal-%016x.log", lsn) }

// frames are the buffers a record is framed in before it is written;
// one grown past 1 MB is left to the collector. Under the race detector
// a buffer given back is overwritten (lease's checked mode).
//
// The pool pays on every logged write. BenchmarkPut, writers=1/none,
// 20000x -count 5, medians, pool on -> off: 317 -> 4437 B/op, 0 -> 2
// allocs, 4.1 -> 11.8 us/op (writers=16: 318 -> 4438 B/op).
var frames = lease.NewPool(lease.Config[*[]byte]{
	New: func() *[]byte { b := make([]byte, 0, 4096); return &b },
	Reset: func(b *[]byte) bool {
		*b = (*b)[:0]
		return cap(*b) <= 1<<20
	},
	Poison: func(b *[]byte) {
		s := (*b)[:cap(*b)]
		for i := range s {
			s[i] = 0xdb
		}
	},
})

// Commit appends r to the log; see storage.Hook.
func (w *wal) Commit(r *storage.Record) (uint64, error) {
	if w.loading {
		// Set before the DB is handed out and cleared before: no lock
		// needed. Loading records what the files already hold.
		return 0, nil
	}
	bp := frames.Get()
	buf := append((*bp)[:0], make([]byte, frameHeader)...)
	buf = binary.AppendVarint(buf, w.opts.Clock().UnixMilli())
	buf, err := storage.AppendRecord(buf, r)
	if err == nil && len(buf)-frameHeader > maxFrame {
		err = fmt.Errorf("persist: a %s record of %d bytes is too large for the log (limit %d)", r.Kind, len(buf)-frameHeader, maxFrame)
	}
	var lsn uint64
	if err == nil {
		w.mu.Lock()
		lsn, err = w.appendLocked(buf)
		w.mu.Unlock()
	}
	*bp = buf
	frames.Put(bp) // appendLocked wrote buf out: nothing keeps it
	if err != nil || w.opts.Durability == None {
		return 0, err
	}
	return lsn, nil
}

// appendLocked writes frame (header space first) as the next record and
// returns its LSN. A failed write is cut off again, so
// the log never holds half a frame before a whole one; if that fails too
// the log is broken.
func (w *wal) appendLocked(frame []byte) (uint64, error) {
	switch {
	case w.broken != nil:
		return 0, w.broken
	case w.closed:
		return 0, errClosed
	}
	if w.off > headerSize && w.off+int64(len(frame)) > w.opts.SegmentBytes {
		if err := w.rotateLocked(); err != nil {
			return 0, w.failedLocked(err)
		}
	}
	lsn := w.next
	sealFrame(frame, lsn)
	if _, err := w.f.WriteAt(frame, w.off); err != nil {
		if terr := w.f.Truncate(w.off); terr != nil {
			w.broken = fmt.Errorf("persist: log segment %s: a failed append (%v) could not be undone (%v); no more writes are accepted until restart", w.fname, err, terr)
		}
		return 0, w.failedLocked(fmt.Errorf("persist: appending to log segment %s: %w", w.fname, err))
	}
	w.full = nil
	w.off += int64(len(frame))
	w.next++
	w.sinceSnap += int64(len(frame))
	if w.needsCompactionLocked() {
		w.compact()
	}
	return lsn, nil
}

// worthSnapshotLocked reports whether the log since the last snapshot
// is worth folding into a new one before the next start-up reads it (at
// a clean stop, after a load that replayed it): at least restartLogBytes
// and an eighth of the snapshot. Replaying a log costs more per byte
// than loading a snapshot.
func (w *wal) worthSnapshotLocked() bool {
	return w.sinceSnap >= restartLogBytes && w.sinceSnap*8 >= w.snapSize
}

// restartLogBytes is the least log worth a snapshot before a restart.
const restartLogBytes = 1 << 20

// failedLocked returns the error of an append that failed (err), naming
// a full disk as such, and remembers a full disk for Problems.
func (w *wal) failedLocked(err error) error {
	err = noSpace(w.dir, err)
	if errors.Is(err, ErrNoSpace) {
		if w.full == nil {
			w.full = &spaceProblem{since: time.Now()}
			w.opts.Logger.Error("persist: a write failed: no space left on the device holding the data directory; writes fail until there is room", "dir", w.dir, "err", err)
		}
		w.full.err = err
	}
	return err
}

// needsCompactionLocked reports whether the log since the last snapshot
// has outgrown the thresholds (Options.CompactBytes, CompactRatio).
func (w *wal) needsCompactionLocked() bool {
	return w.compact != nil && w.opts.CompactBytes >= 0 && w.sinceSnap > w.opts.CompactBytes &&
		float64(w.sinceSnap) > w.opts.CompactRatio*float64(w.snapSize)
}

// rotateLocked starts a new segment at the next LSN. The old one is left
// to the syncer (Sync, Group) to seal, make durable and close; with None
// it is sealed and closed now, after a sync of the directory (the seal
// must not reach the disk before the new segment's name: with None an
// operating system crash may lose the end of the log, never look like a
// missing segment).
func (w *wal) rotateLocked() error {
	f, name, err := w.createSegment(w.next, false)
	if err != nil {
		return err
	}
	old := rotated{f: w.f, name: w.fname, end: w.off, next: w.next}
	w.f, w.fname, w.off = f, name, headerSize
	if w.opts.Durability == None {
		if err := syncDir(w.dir); err == nil {
			w.seal(old)
		} else {
			w.opts.Logger.Warn("persist: log segment left unsealed: the directory could not be synced", "segment", old.name, "err", err)
		}
		old.f.Close()
		return nil
	}
	w.closing = append(w.closing, old) // sealed by the next sync
	w.dirDirty = true
	return nil
}

// seal writes the seal of segment r. A seal that cannot be written (a
// full disk) leaves the segment unsealed: the log is whole, only the
// loss of the segment after it would go unnoticed.
func (w *wal) seal(r rotated) {
	if _, err := r.f.WriteAt(appendSeal(nil, r.next), r.end); err != nil {
		r.f.Truncate(r.end)
		w.opts.Logger.Warn("persist: log segment left unsealed", "segment", r.name, "err", err)
	}
}

// rotate is rotateLocked for a caller without the lock (compaction), if
// the active segment holds any record.
func (w *wal) rotate() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.off == headerSize || w.broken != nil || w.closed {
		return nil
	}
	return w.rotateLocked()
}

// createSegment creates the segment file whose first record is first,
// with its header written (not yet synced). reuseEmpty lets it reuse an
// empty file of that name (one a cut emptied, openActive).
func (w *wal) createSegment(first uint64, reuseEmpty bool) (file, string, error) {
	name := segName(first)
	path := filepath.Join(w.dir, name)
	flag := os.O_RDWR | os.O_CREATE | os.O_EXCL
	if st, err := os.Stat(path); reuseEmpty && err == nil && st.Mode().IsRegular() && st.Size() == 0 {
		flag = os.O_RDWR // not removed and created again: it is never missing
	}
	f, err := w.opts.newFile(path, flag)
	if err != nil {
		return nil, "", fmt.Errorf("persist: creating log segment: %w", err)
	}
	hdr := appendHeader(nil, fileHeader{kind: kindSegment, version: segmentVersion, base: first, db: w.db})
	if _, err := f.WriteAt(hdr, 0); err != nil {
		f.Close()
		os.Remove(path)
		return nil, "", fmt.Errorf("persist: creating log segment %s: %w", name, err)
	}
	return f, name, nil
}

// mark is called in DB.Snapshot's callback, with no commit in flight: it
// returns the LSN the snapshot holds every record up to, and restarts the
// count of bytes logged since (returning the count before, for unmark).
func (w *wal) mark() (uint64, int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	before := w.sinceSnap
	w.sinceSnap = 0
	return w.next - 1, before
}

// unmark adds back the bytes a failed compaction's mark took away.
func (w *wal) unmark(before int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sinceSnap += before
}

// setSnapSize records the size of the newest snapshot.
func (w *wal) setSnapSize(size int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.snapSize = size
}

// Wait waits until record lsn is durable; see storage.Hook. The first
// Wait to find no sync under way leads one (syncPass), for itself and
// for every record written by then; the Waits that come meanwhile wait
// for it, and the first of them still not covered leads the next. No
// goroutine of the log's own is handed the work, and a lone writer
// syncs at once. With Group, a leader first waits for the writers that
// shared the last sync to join it (gatherLocked).
func (w *wal) Wait(lsn uint64) error {
	w.syncMu.Lock()
	defer w.syncMu.Unlock()
	w.waiters++
	defer func() { w.waiters-- }()
	if w.synced < lsn && w.syncErr == nil {
		w.pending = append(w.pending, lsn)
	}
	if w.syncing {
		select { // a gathering leader counts the Waits
		case w.arrive <- struct{}{}:
		default:
		}
	}
	for w.synced < lsn && w.syncErr == nil {
		if w.syncing {
			w.syncCond.Wait()
			continue
		}
		w.syncing = true
		w.syncs++
		w.gatherLocked()
		w.syncMu.Unlock()
		target, err := w.syncPass()
		w.syncMu.Lock()
		w.syncedLocked(target, err)
	}
	if w.synced >= lsn {
		return nil
	}
	return w.syncErr
}

// gatherLocked, in a Group leader, waits (up to Options.GroupWindow)
// until as many Waits wait for a sync as were under way when the last
// sync ended: the writers that shared it, back for the next. A lone
// writer shared it with nobody and waits for nobody: it costs what Sync
// costs. Only Waits no sync has covered count (pending): the writers the
// last one covered are still under way until they return, and counting
// them made the leader go at once, every sync covering about half of
// the writers while the other half wrote (BenchmarkPut, 8 and 16
// writers: 4.5 and 8.4 puts a sync, as Sync).
//
// The count is the larger of the last two syncs' (lastBatch,
// prevBatch): when a round of writers that wait for each other (a
// client's parallel steps) was split between two syncs, the last sync's
// count is the second half's, and a leader that went on it alone split
// the next round the same way, the second half's leader then waiting
// the whole window for writers held until that half was done, round
// after round (TestGroupCommitGathers, lockstep). A second half's
// leader that ran out of window counts the round as both halves' writers
// (syncedLocked): counted as the Waits under way at the first half's
// end, the round was smaller than it is whenever some of its writers
// came after that sync ended, and the next round split again (on a disk
// whose fdatasync is short, round after round). A writer left alone
// after others stop waits out the window at most twice: two gathers out
// of window running count only the Waits under way.
func (w *wal) gatherLocked() {
	want := max(w.lastBatch, w.prevBatch)
	if w.opts.Durability != Group || want <= 1 || len(w.pending) >= want {
		return
	}
	timer := time.NewTimer(w.opts.GroupWindow)
	defer timer.Stop()
	for len(w.pending) < want {
		w.syncMu.Unlock()
		select {
		case <-w.arrive:
			w.syncMu.Lock()
		case <-timer.C:
			w.syncMu.Lock()
			w.timeouts++
			w.short = true
			return
		}
	}
}

// syncedLocked ends a sync that made the records up to target durable,
// or failed with err, and wakes the Waits.
func (w *wal) syncedLocked(target uint64, err error) {
	w.syncing = false
	if err != nil && w.syncErr == nil {
		w.syncErr = err
	} else if err == nil && target > w.synced {
		w.synced = target
	}
	before := len(w.pending)
	if w.syncErr != nil {
		w.pending = w.pending[:0]
	} else {
		w.pending = slices.DeleteFunc(w.pending, func(lsn uint64) bool { return lsn <= w.synced })
	}
	covered := before - len(w.pending)
	batch := w.waiters
	switch {
	case w.short && w.lastShort: // fewer writers than counted
		w.prevBatch = batch
	case w.short: // a round split in two: both halves come back together
		batch = max(batch, w.covered+covered)
		w.prevBatch = w.lastBatch
	default:
		w.prevBatch = w.lastBatch
	}
	w.lastBatch, w.covered = batch, covered
	w.lastShort, w.short = w.short, false
	w.syncCond.Broadcast()
}

// startSyncer readies the log for Wait.
func (w *wal) startSyncer() {
	w.syncCond = sync.NewCond(&w.syncMu)
	w.arrive = make(chan struct{}, 1)
}

// syncPass makes every record written so far durable: the rotated
// segments, the active one, the directory when a segment was created.
// A failure breaks the log: after a failed fdatasync the kernel may have
// dropped the pages it could not write, so nothing later can be trusted
// to follow them.
func (w *wal) syncPass() (uint64, error) {
	w.mu.Lock()
	target, cur, closing, dirty := w.next-1, w.f, w.closing, w.dirDirty
	w.closing, w.dirDirty = nil, false
	w.mu.Unlock()
	var err error
	if dirty { // the new segments' names first: then the seals naming them
		err = syncDir(w.dir)
	}
	for _, r := range closing {
		if err == nil {
			w.seal(r)
			err = r.f.Sync()
		}
		r.f.Close()
	}
	if err == nil && cur != nil {
		err = cur.Sync()
	}
	if err != nil {
		err = fmt.Errorf("persist: syncing the log: %w; no more writes are accepted until restart", err)
		w.mu.Lock()
		if w.broken == nil {
			w.broken = err
		}
		w.mu.Unlock()
	}
	return target, err
}

// close stops the log: no more commits, everything written made durable
// (whatever the mode) and the files closed.
func (w *wal) close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	w.mu.Unlock()
	// A last sync, led here: after the one under way, if any.
	w.syncMu.Lock()
	for w.syncing {
		w.syncCond.Wait()
	}
	w.syncing = true
	w.syncMu.Unlock()
	if w.opts.Durability != None {
		target, err := w.syncPass()
		w.syncMu.Lock()
		w.syncedLocked(target, err)
		w.syncing = true // no more: the files close
		w.syncMu.Unlock()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	err := syncDir(w.dir)
	for _, r := range w.closing { // left by a failed pass
		if err == nil && w.broken == nil {
			w.seal(r)
		}
		if e := r.f.Sync(); e != nil && err == nil && w.broken == nil {
			err = e
		}
		r.f.Close()
	}
	w.closing = nil
	if e := w.f.Sync(); e != nil && err == nil && w.broken == nil {
		err = e
	}
	w.f.Close()
	return err
}
