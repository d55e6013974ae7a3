package persist

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Compaction folds the log into a new snapshot once the log written since
// the last one outgrows a quarter of it (Options.CompactBytes,
// CompactRatio):
//
//  1. DB.Snapshot freezes every table (copy-on-write, O(1) per table and
//     index) with every lock held, and marks the log there: the snapshot
//     holds every record up to that LSN and none after. This is the only
//     pause writers see.
//  2. The log moves on to a new segment, so the records before the mark
//     end up in segments of their own.
//  3. The snapshot is written in the background, to a temporary file made
//     durable and renamed into place (snapfile.go).
//  4. Older files go: the snapshots before it and the segments whose
//     records are all in it. One snapshot is kept: a copy of the whole
//     namespace at every compaction doubles what the directory holds
//     (two of 270 MB for a million items), and a snapshot is checked
//     whole (checksums, counts) when it is loaded, not trusted blindly.
//
// A failed compaction (a full disk) leaves the files as they were; it is
// logged and tried again after a pause that doubles up to a minute.

// Stats are a namespace's figures.
type Stats struct {
	LastLSN     uint64 // the last record logged
	SnapshotLSN uint64 // the newest snapshot holds every record up to this
	Snapshots   int    // snapshot files kept
	LogBytes    int64  // logged since the newest snapshot's mark
	Compactions int    // compactions done since the namespace was opened
	// LastPause is how long the last compaction held the DB's locks
	// (DB.Snapshot); LastWrite how long writing its file took.
	LastPause, LastWrite time.Duration
	LastError            string // the last compaction's failure, "" after a success
}

// kickCompaction asks the compactor for a compaction, without waiting.
func (ns *namespace) kickCompaction() {
	select {
	case ns.kick <- struct{}{}:
	default:
	}
}

func (ns *namespace) compactLoop() {
	defer close(ns.done)
	var backoff time.Duration
	for {
		select {
		case <-ns.kick:
		case <-ns.stop:
			return
		}
		if err := ns.compact(); err != nil {
			ns.opts.Logger.Error("persist: compaction failed; the log goes on growing", "namespace", ns.name, "err", err)
			backoff = min(max(2*backoff, time.Second), time.Minute)
			select {
			case <-time.After(backoff):
			case <-ns.stop:
				return
			}
			continue
		}
		backoff = 0
	}
}

// compact writes a new snapshot of the DB and removes the files it makes
// unnecessary; see above.
func (ns *namespace) compact() error {
	ns.compactMu.Lock()
	defer ns.compactMu.Unlock()
	start := time.Now()
	var lsn uint64
	var before int64
	var side func(emit func([]byte) error) error
	snap := ns.db.Snapshot(func() {
		lsn, before = ns.wal.mark()
		if ns.side != nil {
			side = ns.side.Capture()
		}
	})
	pause := time.Since(start)
	if n := len(ns.snaps); n > 0 && ns.snaps[n-1].lsn == lsn {
		return nil // nothing logged since the last one
	}
	// Room for a snapshot the size of the last and the log since, and
	// the reserve after it (space.go).
	ns.wal.mu.Lock()
	need := ns.wal.snapSize + before
	ns.wal.mu.Unlock()
	err := ns.opts.spaceFor(ns.dir, need)
	if err == nil {
		err = ns.wal.rotate()
	}
	var name string
	var size int64
	if err == nil {
		name, size, err = writeSnapshot(ns.opts, ns.dir, snap, lsn, ns.id, side)
	}
	ns.stats.LastPause, ns.stats.LastWrite = pause, time.Since(start)-pause
	if err != nil {
		ns.wal.unmark(before)
		ns.stats.LastError = err.Error()
		if ns.compactFailedSince.IsZero() {
			ns.compactFailedSince = time.Now()
		}
		return err
	}
	ns.stats.LastError = ""
	ns.compactFailedSince = time.Time{}
	ns.stats.Compactions++
	ns.snaps = append(ns.snaps, snapFile{name: name, lsn: lsn, size: size})
	ns.wal.setSnapSize(size)
	ns.opts.Logger.Info("persist: compacted", "namespace", ns.name, "snapshot", name, "bytes", size,
		"pause", pause, "write", ns.stats.LastWrite)
	return ns.cleanupLocked()
}

// cleanupLocked removes the snapshots but the newest and the segments
// whose records are all in it (never the last segment: a snapshot is
// followed by the segment holding the record after it, or the log is
// missing a segment). ns.compactMu is held.
func (ns *namespace) cleanupLocked() error {
	if n := len(ns.snaps); n > 1 {
		for _, s := range ns.snaps[:n-1] {
			if err := os.Remove(filepath.Join(ns.dir, s.name)); err != nil && !os.IsNotExist(err) {
				return err
			}
		}
		ns.snaps = ns.snaps[n-1:]
	}
	if len(ns.snaps) == 1 {
		segs, _, err := listDir(ns.dir)
		if err != nil {
			return err
		}
		keepFrom := ns.snaps[0].lsn
		for i := 0; i+1 < len(segs); i++ {
			if segs[i+1].first-1 > keepFrom {
				break
			}
			if err := os.Remove(filepath.Join(ns.dir, segs[i].name)); err != nil && !os.IsNotExist(err) {
				return err
			}
		}
	}
	if err := syncDir(ns.dir); err != nil {
		return fmt.Errorf("persist: namespace %s: %w", ns.name, err)
	}
	return nil
}

// statsNow returns the namespace's figures.
func (ns *namespace) statsNow() Stats {
	ns.compactMu.Lock()
	st := ns.stats
	st.Snapshots = len(ns.snaps)
	if n := len(ns.snaps); n > 0 {
		st.SnapshotLSN = ns.snaps[n-1].lsn
	}
	ns.compactMu.Unlock()
	ns.wal.mu.Lock()
	st.LastLSN, st.LogBytes = ns.wal.next-1, ns.wal.sinceSnap
	ns.wal.mu.Unlock()
	return st
}
