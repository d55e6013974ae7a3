package pitr

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Point-in-time histories kept on disk (Config.Keep, with persistence),
// in the namespace's "pitr" side directory, in persist's formats:
//
//	<table ID>_<gen>.pitr            the history's base: a table file
//	                                 (the base snapshot) whose metadata
//	                                 says when recovery was enabled and
//	                                 the last log frame it holds
//	<table ID>_<gen>-<seq>.alog      its log: one frame per logged write,
//	                                 the clock at its commit (8 bytes,
//	                                 Unix nanoseconds) and the write as a
//	                                 storage RecordCommit
//
// gen tells a history from a later one of the same table (recovery
// disabled and enabled again, a rewind). Enabling recovery writes the
// base before UpdateContinuousBackups answers; each write the hook logs
// is appended to the log under the table's lock, after the namespace's
// own log has taken the commit (so the history never holds a write the
// table does not), and made durable with it (the hook's Wait); when
// writes that left the window have been folded into the base about as
// many times as the base has items, the base is written again in the
// background and the log segments it covers are removed, so the files
// hold about the window's writes plus the table. Disabling recovery,
// deleting the table or a new history removes the files.
//
// Loading a namespace reads every history back (loadPITR): the base, and
// the frames of the log after the ones it holds; its table claims it
// when the catalog is rebuilt (pitrRecorder.start), and histories no
// table claims are removed (dropUnclaimed). A crash leaves at most the
// write being committed out of its history: a process killed between
// the namespace's log append and the history's.

// metaKeyPITR is the metadata key of a base file's own fields.
const metaKeyPITR = "dynamoemu.pitr"

// pitrBaseSuffix ends the name of every base file.
const pitrBaseSuffix = ".pitr"

// pitrBaseRecord is a base file's own fields.
type pitrBaseRecord struct {
	Since   int64  `json:"since"`   // Unix nanoseconds
	Through uint64 `json:"through"` // the base holds every log frame up to this one
}

// pitrDisk is one history's files. Its fields are guarded by the
// history's pitrLog.mu, but for the fixed ones.
type pitrDisk struct {
	p      *pitrRecorder    // fixed
	prefix string           // "<table ID>_<gen>"; fixed
	log    service.FrameLog // fixed
	folded int              // writes folded into the base since its file was written
	busy   bool             // a base file is being written in the background
}

// openDisk starts the files of a new history of table id: an empty log.
// nil when it cannot (logged): the history is then in memory only.
func (p *pitrRecorder) openDisk(id string) *pitrDisk {
	prefix := id + "_" + fmt.Sprintf("%016x", time.Now().UnixNano())
	log, err := p.keep.OpenLog(prefix, 1, func(uint64, []byte) error { return nil })
	if err != nil {
		p.log.Error("point-in-time history kept in memory only", "table", id, "err", err)
		return nil
	}
	return &pitrDisk{p: p, prefix: prefix, log: log}
}

// writeBase writes the base file: base, enabled at since, holding the
// log's frames up to through.
func (d *pitrDisk) writeBase(base *storage.TableSnapshot, since time.Time, through uint64) error {
	v, err := json.Marshal(pitrBaseRecord{Since: since.UnixNano(), Through: through})
	if err != nil {
		return err
	}
	_, err = d.p.keep.WriteTable(d.prefix+pitrBaseSuffix, base, map[string][]byte{metaKeyPITR: v})
	return err
}

// writeFirstBase writes the base of history l, just started: every
// frame of the log is replayed over it (a write both in the base and in
// the log stores the image the base holds).
func (d *pitrDisk) writeFirstBase(l *pitrLog, base *storage.TableSnapshot, since time.Time) {
	if err := d.writeBase(base, since, 0); err != nil {
		d.p.log.Error("point-in-time history kept in memory only", "table", l.id, "err", err)
		l.mu.Lock()
		l.dropDiskLocked()
		l.mu.Unlock()
	}
}

// appendLocked logs write w of history l, committed at now, and returns
// its frame number; on failure (logged) the history goes on in memory
// only and its files are removed.
func (d *pitrDisk) appendLocked(l *pitrLog, now time.Time, w storage.Committed) uint64 {
	b := binary.LittleEndian.AppendUint64(make([]byte, 0, 64+w.New.Size()), uint64(now.UnixNano()))
	b, err := storage.AppendRecord(b, &storage.Record{Kind: storage.RecordCommit, Writes: []storage.ItemWrite{{Table: l.id, Committed: w}}})
	var seq uint64
	if err == nil {
		seq, err = d.log.Append(b)
	}
	if err != nil {
		if d.p.closed.Load() {
			l.disk = nil // shutting down: the files stay as they are
			return 0
		}
		d.p.log.Error("point-in-time history kept in memory only from now on", "table", l.id, "err", err)
		l.dropDiskLocked()
		return 0
	}
	return seq
}

// foldedLocked notes that n writes, up to frame through, were folded
// into l's base, and writes the base file again in the background once
// the folds since the last one reach the base's item count (at least
// pitrRollBatch): the log is then cut to about the window's writes,
// at a cost of about one write of the table per as many folded writes.
func (d *pitrDisk) foldedLocked(l *pitrLog, n int, through uint64) {
	d.folded += n
	if d.busy || d.folded < max(pitrRollBatch, l.base.ItemCount()) || through == 0 {
		return
	}
	d.busy = true
	base, since, folded := l.base, l.since, d.folded
	d.p.bg.Add(1)
	go func() {
		defer d.p.bg.Done()
		err := d.log.Rotate()
		if err == nil {
			err = d.writeBase(base, since, through)
		}
		if err == nil {
			err = d.log.DropThrough(through)
		}
		if err != nil {
			d.p.log.Warn("rewriting a point-in-time base file (the log is kept whole)", "table", l.id, "err", err)
		}
		l.mu.Lock()
		d.busy = false
		if err == nil {
			d.folded -= folded
		}
		l.mu.Unlock()
	}()
}

// dropDiskLocked stops keeping l on disk and removes its files.
func (l *pitrLog) dropDiskLocked() {
	d := l.disk
	if d == nil {
		return
	}
	l.disk = nil
	d.remove()
}

// remove removes d's files (a failure is logged: the next load removes
// what no table claims).
func (d *pitrDisk) remove() {
	err := errors.Join(d.log.Remove(), d.p.keep.Remove(d.prefix+pitrBaseSuffix))
	if err != nil {
		d.p.log.Warn("removing a point-in-time history's files", "history", d.prefix, "err", err)
	}
}

// forget removes l's files: it is no longer a table's history.
func (l *pitrLog) forget() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.dropDiskLocked()
}

// claim makes l, read back from disk, the history of its table again
// with a window of days; false if l was not read back or is claimed.
func (l *pitrLog) claim(days int) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.loaded {
		return false
	}
	l.loaded = false
	l.period = pitrPeriod(days)
	return true
}

// syncDisk makes the disk logs of every history durable (the hook's
// Wait). A failure is logged: the table's own change is durable.
func (p *pitrRecorder) syncDisk() {
	logs := p.logs.Load()
	if logs == nil {
		return
	}
	for _, l := range *logs {
		l.mu.Lock()
		d := l.disk
		l.mu.Unlock()
		if d == nil {
			continue
		}
		if err := d.log.Sync(); err != nil {
			p.log.Error("syncing a point-in-time history's log", "table", l.id, "err", err)
		}
	}
}

// loadPITR reads the histories kept on disk into p (each waits for its
// table to claim it) and removes the files of none.
func (p *pitrRecorder) loadPITR() {
	names, err := p.keep.List(pitrBaseSuffix)
	if err != nil {
		p.log.Error("cannot list the point-in-time histories", "err", err)
		return
	}
	// The newest history of each table (gen is fixed-width hex).
	newest := map[string]string{}
	for _, name := range names {
		prefix := strings.TrimSuffix(name, pitrBaseSuffix)
		id, _, ok := strings.Cut(prefix, "_")
		if !ok {
			continue
		}
		if old, seen := newest[id]; seen {
			if old > prefix {
				_ = p.keep.Remove(name)
				continue
			}
			_ = p.keep.Remove(old + pitrBaseSuffix)
		}
		newest[id] = prefix
	}
	kept := map[string]bool{}
	for id, prefix := range newest {
		l, err := p.readHistory(id, prefix)
		if err != nil {
			p.log.Error("a point-in-time history does not read back; the table's window starts again", "history", prefix, "err", err)
			_ = p.keep.Remove(prefix + pitrBaseSuffix)
			continue
		}
		kept[prefix] = true
		p.set(id, l)
	}
	// Log segments of no history (a crash before their base was written,
	// a history removed half way).
	segs, _ := p.keep.List(".alog")
	for _, s := range segs {
		if i := strings.LastIndexByte(s, '-'); i < 0 || !kept[s[:i]] {
			_ = p.keep.Remove(s)
		}
	}
}

// readHistory reads the history of table id whose files are prefix.
func (p *pitrRecorder) readHistory(id, prefix string) (*pitrLog, error) {
	base, meta, err := p.keep.ReadTable(prefix + pitrBaseSuffix)
	if err != nil {
		return nil, err
	}
	var rec pitrBaseRecord
	if err := json.Unmarshal(meta[metaKeyPITR], &rec); err != nil {
		return nil, fmt.Errorf("its base record: %w", err)
	}
	l := &pitrLog{id: id, since: time.Unix(0, rec.Since), base: base, loaded: true, period: pitrPeriod(defaultRecoveryPeriodDays)}
	log, err := p.keep.OpenLog(prefix, rec.Through+1, func(seq uint64, b []byte) error {
		if seq <= rec.Through {
			return nil
		}
		if len(b) < 8 {
			return fmt.Errorf("log frame %d of %d bytes", seq, len(b))
		}
		r, err := storage.ParseRecord(b[8:])
		if err != nil {
			return fmt.Errorf("log frame %d: %w", seq, err)
		}
		at := time.Unix(0, int64(binary.LittleEndian.Uint64(b)))
		for _, w := range r.Writes {
			l.writes = append(l.writes, pitrWrite{at: at, w: w.Committed, seq: seq})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	l.disk = &pitrDisk{p: p, prefix: prefix, log: log}
	return l, nil
}

// dropUnclaimed forgets (and removes the files of) the histories read
// back from disk that no table claimed when the catalog was rebuilt.
func (p *pitrRecorder) dropUnclaimed() {
	logs := p.logs.Load()
	if logs == nil {
		return
	}
	for id, l := range *logs {
		l.mu.Lock()
		loaded := l.loaded
		l.mu.Unlock()
		if loaded {
			p.set(id, nil)
		}
	}
}

// close waits for the base files being written and closes the logs.
func (p *pitrRecorder) close() {
	if p == nil || p.keep == nil {
		return
	}
	p.closed.Store(true)
	p.bg.Wait()
	if logs := p.logs.Load(); logs != nil {
		for _, l := range *logs {
			l.mu.Lock()
			if d := l.disk; d != nil {
				if err := d.log.Close(); err != nil {
					p.log.Error("closing a point-in-time history's log", "table", l.id, "err", err)
				}
			}
			l.mu.Unlock()
		}
	}
}

// keepPITR is the side directory of a namespace's point-in-time
// histories (Config.Keep's sub).
const keepPITR = "pitr"

// opened reads the point-in-time histories a namespace keeps beside its
// DB and keeps them there from now on.
func opened(s service.Space) {
	p := recorders.In(s).p
	k, err := s.Keep(keepPITR)
	if err != nil {
		s.Log().Error("the namespace's point-in-time histories are kept in memory only", "namespace", s.ID(), "err", err)
		return
	}
	if k == nil || p == nil {
		return // not kept on disk
	}
	p.keep, p.log = k, s.Log()
	p.loadPITR()
}

// loaded forgets the histories read back from disk that no table
// claimed once the namespace's tables are back.
func loaded(s service.Space, _ time.Time) {
	if p := recorders.In(s).p; p != nil {
		p.dropUnclaimed()
	}
}

// closed makes the namespace's history files durable and closes them.
func closed(s service.Space) {
	if p := recorders.In(s).p; p != nil {
		p.close()
	}
}
