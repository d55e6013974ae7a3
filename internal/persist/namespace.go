package persist

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// namespace is one namespace's directory: its DB, its log, its
// snapshots and their compaction.
type namespace struct {
	name, dir string
	opts      *Options
	db        *storage.DB
	id        uint64 // the database id its files carry (frame.go)
	wal       *wal
	rec       Recovery
	logEnd    uint64  // while loading: the last record found in the log
	logV      uint32  // while loading: the format version of the last segment read
	logSealed bool    // while loading: the last segment read is sealed
	logSeg    string  // while loading: the last segment read, its header whole
	side      Sidecar // nil: none (sidecar.go)

	// compactMu makes compactions one at a time; it guards snaps and stats.
	compactMu sync.Mutex
	snaps     []snapFile // the snapshots kept, oldest first
	stats     Stats
	// compactFailedSince is when compactions began to fail (zero: the
	// last one did not).
	compactFailedSince time.Time
	kick               chan struct{}
	stop               chan struct{}
	done               chan struct{}
}

// Recovery says how a namespace was loaded.
type Recovery struct {
	// Snapshot is the snapshot file loaded ("" for none), which holds
	// every record up to SnapshotLSN.
	Snapshot    string
	SnapshotLSN uint64
	// Skipped lists the snapshots passed over, newest first, with why;
	// each was renamed with the suffix ".corrupt".
	Skipped []string
	// Records is the number of log records replayed after the snapshot,
	// up to LastLSN.
	Records int
	LastLSN uint64
	// Cut says what was cut off the end of the log and why ("" when
	// nothing was); the bytes are kept beside it.
	Cut string
	// Lost says what Options.AcceptLoss let go ("" when nothing): the
	// records of missing segments, those after them, and files of
	// another database, each set aside under its name.
	Lost string
	// Items is the number of items loaded, Took how long it all took.
	Items int64
	Took  time.Duration
}

// ErrIncomplete: a namespace's files do not hold its whole history (a
// log segment is missing, there is a gap between the snapshot and the
// log, a file belongs to another database). The namespace is refused
// unless Options.AcceptLoss.
var ErrIncomplete = errors.New("persist: the database's files are incomplete")

// segFile and snapFile are a segment and a snapshot on disk.
type segFile struct {
	name  string
	first uint64
}

type snapFile struct {
	name string
	lsn  uint64
	size int64
}

// listDir returns the segments and snapshots in dir, each in LSN order,
// and removes unfinished snapshots (*.tmp).
func listDir(dir string) ([]segFile, []snapFile, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	var segs []segFile
	var snaps []snapFile
	for _, e := range ents {
		n := e.Name()
		var lsn uint64
		switch {
		case strings.HasSuffix(n, ".tmp"):
			os.Remove(filepath.Join(dir, n))
		case len(n) == len("wal-0000000000000000.log") && scanHex(n, "wal-%016x.log", &lsn) && segName(lsn) == n:
			segs = append(segs, segFile{name: n, first: lsn})
		case len(n) == len("snap-0000000000000000.snap") && scanHex(n, "snap-%016x.snap", &lsn) && snapName(lsn) == n:
			info, err := e.Info()
			if err != nil {
				return nil, nil, err
			}
			snaps = append(snaps, snapFile{name: n, lsn: lsn, size: info.Size()})
		}
	}
	sort.Slice(segs, func(i, j int) bool { return segs[i].first < segs[j].first })
	sort.Slice(snaps, func(i, j int) bool { return snaps[i].lsn < snaps[j].lsn })
	return segs, snaps, nil
}

func scanHex(s, format string, v *uint64) bool {
	_, err := fmt.Sscanf(s, format, v)
	return err == nil
}

// openNamespace loads (or creates) the namespace in dir: the newest
// snapshot that loads, then the log after it; see doc.go, Recovery.
func openNamespace(name, dir string, opts *Options) (*namespace, error) {
	start := time.Now()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("persist: namespace %s: %w", name, err)
	}
	segs, snaps, err := listDir(dir)
	if err != nil {
		return nil, fmt.Errorf("persist: namespace %s: %w", name, err)
	}
	w := &wal{dir: dir, opts: opts, loading: true}
	ns := &namespace{name: name, dir: dir, opts: opts, wal: w}
	if opts.Sidecar != nil {
		ns.side = opts.Sidecar(name)
	}
	fail := func(err error) (*namespace, error) {
		return nil, fmt.Errorf("persist: namespace %s: %w", name, err)
	}

	// Whose files these are.
	if segs, snaps, err = ns.ownFiles(segs, snaps); err != nil {
		return fail(err)
	}

	// The newest snapshot that loads.
	deferIdx := deferIndexes(dir, segs, snaps)
	base, err := ns.loadNewestSnapshot(snaps, deferIdx)
	if err != nil {
		return fail(err)
	}

	// The log after it.
	last, err := ns.replay(segs, base)
	if err != nil {
		return fail(err)
	}
	if deferIdx {
		ns.db.FillIndexes()
	}
	ns.rec.LastLSN, ns.rec.Items = last, countItems(ns.db)
	w.db = ns.id
	if err := ns.openActive(last); err != nil {
		return fail(err)
	}
	ns.startWriting()
	ns.rec.Took = time.Since(start)
	if len(snaps) > 0 || len(segs) > 0 {
		opts.Logger.Info("persist: namespace loaded", "namespace", name, "snapshot", ns.rec.Snapshot,
			"records", ns.rec.Records, "lsn", last, "took", ns.rec.Took)
	}
	if ns.rec.Lost != "" {
		opts.Logger.Error("persist: namespace loaded WITHOUT records it is missing, as AcceptLoss asked", "namespace", name, "lost", ns.rec.Lost)
	}
	return ns, nil
}

// loadNewestSnapshot loads into ns.db the newest of snaps that loads
// (renaming corrupt ones aside), or makes an empty database when none
// does, and its sidecar's state; it returns the LSN the log goes on
// after.
func (ns *namespace) loadNewestSnapshot(snaps []snapFile, deferIdx bool) (uint64, error) {
	var base uint64
	var pieces [][]byte
	newDB := func() *storage.DB {
		db := storage.NewDB(ns.wal)
		db.SetVectorIndexer(ns.opts.VectorIndexes)
		if deferIdx {
			db.DeferIndexes()
		}
		return db
	}
	for i := len(snaps) - 1; i >= 0 && ns.db == nil; i-- {
		db := newDB()
		h, pcs, err := loadSnapshot(db, filepath.Join(ns.dir, snaps[i].name), deferIdx, ns.progress("snapshot", snaps[i].name, snaps[i].size))
		switch {
		case err == nil:
			ns.db, base, pieces = db, h.base, pcs
			ns.snaps = snaps[:i+1]
			ns.rec.Snapshot, ns.rec.SnapshotLSN = snaps[i].name, h.base
			ns.wal.snapSize = snaps[i].size
		case errors.Is(err, ErrNewerFormat):
			return 0, fmt.Errorf("%s: %w", snaps[i].name, err)
		case errors.Is(err, ErrCorrupt):
			ns.rec.Skipped = append(ns.rec.Skipped, fmt.Sprintf("%s: %v", snaps[i].name, err))
			ns.opts.Logger.Warn("persist: snapshot unusable, trying an older one", "namespace", ns.name, "snapshot", snaps[i].name, "err", err)
			if err := os.Rename(filepath.Join(ns.dir, snaps[i].name), filepath.Join(ns.dir, snaps[i].name+".corrupt")); err != nil {
				return 0, err
			}
		default:
			return 0, fmt.Errorf("%s: %w", snaps[i].name, err)
		}
	}
	if ns.db == nil {
		ns.db = newDB()
	}
	if ns.side != nil {
		if err := ns.side.Load(ns.db, pieces); err != nil {
			return 0, fmt.Errorf("%s: its sidecar state: %w", ns.rec.Snapshot, err)
		}
	}
	return base, nil
}

// startWriting ends ns's load: the log takes writes, the syncer and the
// compaction loop start, and a long log is folded at once.
func (ns *namespace) startWriting() {
	w := ns.wal
	w.loading = false
	w.compact = ns.kickCompaction
	w.startSyncer()
	ns.kick, ns.stop, ns.done = make(chan struct{}, 1), make(chan struct{}), make(chan struct{})
	go ns.compactLoop()
	ns.compactMu.Lock()
	ns.cleanupLocked()
	ns.compactMu.Unlock()
	w.mu.Lock()
	if w.needsCompactionLocked() || w.worthSnapshotLocked() {
		// A long log is folded now, not at the next write; a log
		// replayed at all is folded so that the next start reads a
		// snapshot instead.
		ns.kickCompaction()
	}
	w.mu.Unlock()
}

// deferIndexes reports whether a load of dir had better leave the
// secondary indexes' entries to the end (storage.DB.DeferIndexes) than
// keep them as it goes: when the log after the newest snapshot is at
// least restartLogBytes and at least the snapshot's size. Replaying a
// log inserts each write's entries into the index trees one at a time;
// rebuilding them at the end walks every item and sorts every entry,
// throwing away the order a format-4 snapshot loads them in: loading
// the 1M-item states BenchmarkRestart leaves at kill -9 (a 117 MB log
// after a 134 MB snapshot, and 66 MB after 178 MB) took more work
// deferring than keeping the entries. With no
// snapshot, or a log longer than it, most entries come from the log and
// there is little order to keep: those loads still defer.
func deferIndexes(dir string, segs []segFile, snaps []snapFile) bool {
	var base uint64
	var snapBytes, logBytes int64
	if n := len(snaps); n > 0 {
		base, snapBytes = snaps[n-1].lsn, snaps[n-1].size
	}
	for i, s := range segs {
		if i+1 < len(segs) && segs[i+1].first <= base+1 {
			continue // all in the snapshot
		}
		if st, err := os.Stat(filepath.Join(dir, s.name)); err == nil {
			logBytes += st.Size()
		}
	}
	return logBytes >= deferMinBytes && logBytes >= snapBytes
}

// deferMinBytes is the least log deferIndexes defers for; tests set it
// to 0 to defer on every load.
var deferMinBytes int64 = restartLogBytes

// ownFiles settles the namespace's database id, from its files' headers
// (frame.go): the id most of them carry (ties: the newest snapshot's,
// then the earliest segment's), or a new one when none carries any. A
// file carrying another is a file of another database: refused
// (ErrIncomplete), or with Options.AcceptLoss renamed *.foreign and left
// out. It returns the segments and snapshots that remain.
func (ns *namespace) ownFiles(segs []segFile, snaps []snapFile) ([]segFile, []snapFile, error) {
	ids := map[string]uint64{}
	votes := map[uint64]int{}
	var order []uint64 // ids in the order of preference for a tie
	note := func(name string, kind byte) {
		h, err := readHeader(filepath.Join(ns.dir, name), kind)
		if err != nil || h.db == 0 {
			return // damage is the load's business
		}
		ids[name] = h.db
		if votes[h.db] == 0 {
			order = append(order, h.db)
		}
		votes[h.db]++
	}
	for i := len(snaps) - 1; i >= 0; i-- {
		note(snaps[i].name, kindSnapshot)
	}
	for _, s := range segs {
		note(s.name, kindSegment)
	}
	for _, id := range order {
		if ns.id == 0 || votes[id] > votes[ns.id] {
			ns.id = id
		}
	}
	if ns.id == 0 {
		ns.id = newDBID()
		return segs, snaps, nil
	}
	var foreign []string
	for name, id := range ids {
		if id != ns.id {
			foreign = append(foreign, fmt.Sprintf("%s (database %016x)", name, id))
		}
	}
	if len(foreign) == 0 {
		return segs, snaps, nil
	}
	slices.Sort(foreign)
	what := fmt.Sprintf("files of another database than this one (%016x): %s", ns.id, strings.Join(foreign, ", "))
	if !ns.opts.AcceptLoss {
		return nil, nil, fmt.Errorf("%w: %s; refusing to open it with them (remove them, or accept the loss)", ErrIncomplete, what)
	}
	var keptSegs []segFile
	var keptSnaps []snapFile
	for _, s := range segs {
		if id, ok := ids[s.name]; !ok || id == ns.id {
			keptSegs = append(keptSegs, s)
		} else if err := os.Rename(filepath.Join(ns.dir, s.name), filepath.Join(ns.dir, s.name+".foreign")); err != nil {
			return nil, nil, err
		}
	}
	for _, s := range snaps {
		if id, ok := ids[s.name]; !ok || id == ns.id {
			keptSnaps = append(keptSnaps, s)
		} else if err := os.Rename(filepath.Join(ns.dir, s.name), filepath.Join(ns.dir, s.name+".foreign")); err != nil {
			return nil, nil, err
		}
	}
	ns.lost(what + ", set aside as *.foreign")
	return keptSegs, keptSnaps, syncDir(ns.dir)
}

// lost adds what to Recovery.Lost.
func (ns *namespace) lost(what string) {
	if ns.rec.Lost != "" {
		ns.rec.Lost += "; "
	}
	ns.rec.Lost += what
}

// readHeader reads the header of the file at path, of kind kind.
func readHeader(path string, kind byte) (fileHeader, error) {
	f, err := os.Open(path)
	if err != nil {
		return fileHeader{}, err
	}
	defer f.Close()
	hb := make([]byte, headerSize)
	if _, err := io.ReadFull(f, hb); err != nil {
		return fileHeader{}, fmt.Errorf("%w: header: %v", ErrCorrupt, err)
	}
	return parseHeader(hb, kind)
}

// newDBID draws a database id: random, never 0.
func newDBID() uint64 {
	for {
		if id := rand.Uint64(); id != 0 {
			return id
		}
	}
}

// countItems returns the number of items in db's tables.
func countItems(db *storage.DB) int64 {
	var n int64
	for _, t := range db.Tables() {
		n += int64(t.ItemCount())
	}
	return n
}

// progress returns the function that reports a phase's progress to
// Options.Progress, every ProgressBytes and at its end.
func (ns *namespace) progress(phase, name string, total int64) func(read, total, items int64) {
	if ns.opts.Progress == nil {
		return nil
	}
	next := int64(0)
	return func(read, _, items int64) {
		if read < next && read < total {
			return
		}
		next = read + ns.opts.ProgressBytes
		p := Progress{Namespace: ns.name, Phase: phase, File: name, Bytes: read, Total: total, Done: read >= total}
		if phase == "snapshot" {
			p.Items = items
		} else {
			p.Records = items
		}
		ns.opts.Progress(p)
	}
}

// replay applies the records of segs after base to the DB and returns
// the LSN of the last record the DB holds. The log must go on from the
// snapshot without a gap: a segment holding record base+1 (or, with no
// snapshot, record 1), each segment followed by the one its seal names
// (frame.go), no sealed segment last. What is missing is refused
// (missing). A damaged or torn frame, or a gap after a segment that is
// not sealed (its end lost in a crash before it reached the disk, with
// nothing acknowledged after it), ends the log there (cutLog). A record
// that does not parse although its checksum is right, or that does not
// apply, is an error.
func (ns *namespace) replay(segs []segFile, base uint64) (uint64, error) {
	// The last segment that may hold record base+1.
	first := -1
	for i := range segs {
		if segs[i].first <= base+1 {
			first = i
		}
	}
	if first < 0 {
		var reason string
		switch {
		case base == 0 && len(segs) == 0 && len(ns.rec.Skipped) == 0:
			return 0, nil // a new namespace
		case base == 0:
			why := "no snapshot"
			if len(ns.rec.Skipped) > 0 {
				why = "no usable snapshot (" + strings.Join(ns.rec.Skipped, "; ") + ")"
			}
			if len(segs) == 0 {
				reason = why + " and no log"
			} else {
				reason = fmt.Sprintf("%s and the log starts at record %d (%s): records 1 to %d are missing, %s among them",
					why, segs[0].first, segs[0].name, segs[0].first-1, segName(1))
			}
		case len(segs) == 0:
			reason = fmt.Sprintf("snapshot %s holds the records up to %d and no log segment follows it: %s, which the records after it went to, is missing",
				ns.rec.Snapshot, base, segName(base+1))
		default:
			reason = fmt.Sprintf("snapshot %s holds the records up to %d and the log goes on at record %d (%s): records %d to %d are missing",
				ns.rec.Snapshot, base, segs[0].first, segs[0].name, base+1, segs[0].first-1)
		}
		return base, ns.missing(nil, 0, reason, base+1, segs)
	}
	last := base
	var rec storage.Record // each record parsed into, reusing its writes' array
	var sealNext uint64    // the seal of the segment before: the first record of the next (0: none)
	var sealAt int64       // where that seal begins
	for i := first; i < len(segs); i++ {
		seg := segs[i]
		if from := max(ns.logEnd, base) + 1; i > first && seg.first > from {
			prev := &segs[i-1]
			if sealNext != 0 {
				reason := fmt.Sprintf("log segment %s is sealed: the log goes on in %s, which is missing, and resumes at record %d (%s): records %d to %d are missing",
					prev.name, segName(sealNext), seg.first, seg.name, from, seg.first-1)
				return last, ns.missing(prev, sealAt, reason, from, segs[i:])
			}
			reason := fmt.Errorf("segment %s starts at record %d, after record %d: the records between are missing", seg.name, seg.first, ns.logEnd)
			st, err := os.Stat(filepath.Join(ns.dir, prev.name))
			if err != nil {
				return 0, err
			}
			return last, ns.cutLog(prev, st.Size(), reason, segs[i:])
		}
		end, at, next, torn, err := ns.replaySegment(seg, base, &last, &rec)
		if err != nil {
			return 0, err
		}
		if end >= headerSize {
			ns.logSeg, ns.logSealed = seg.name, next != 0
		}
		if torn != nil {
			return last, ns.cutLog(&seg, end, torn, segs[i+1:])
		}
		sealNext, sealAt = next, at
	}
	if sealNext != 0 {
		seg := &segs[len(segs)-1]
		reason := fmt.Sprintf("log segment %s is sealed: the log goes on in %s, which is missing (records from %d on)", seg.name, segName(sealNext), sealNext)
		if err := ns.missing(seg, sealAt, reason, sealNext, nil); err != nil {
			return last, err
		}
		ns.logSealed = false // its seal is cut
	}
	return last, nil
}

// missing deals with records the log lacks from record from on, reason
// saying which: refused (ErrIncomplete), or with Options.AcceptLoss the
// log ends there (cutLog at byte off of seg, nil for before every
// segment; a seal there is cut with the rest), the later segments,
// whose records cannot follow the missing ones, are set aside, and
// Recovery.Lost and the log say what was lost.
func (ns *namespace) missing(seg *segFile, off int64, reason string, from uint64, later []segFile) error {
	if !ns.opts.AcceptLoss {
		return fmt.Errorf("%w: %s; refusing to open the database without them (restore the missing files, accept the loss, or move the directory aside to start it empty)", ErrIncomplete, reason)
	}
	what := fmt.Sprintf("%s: every record from %d on is lost", reason, from)
	if n := len(later); n > 0 {
		if to, ok := lastRecord(filepath.Join(ns.dir, later[n-1].name)); ok {
			what += fmt.Sprintf(" (the log went on to record %d)", to)
		}
	}
	ns.lost(what)
	if seg == nil && len(later) == 0 {
		return nil
	}
	return ns.cutLog(seg, off, errors.New(reason), later)
}

// lastRecord returns the LSN of the last whole record of the segment at
// path; false when it holds none.
func lastRecord(path string) (uint64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, false
	}
	hb := make([]byte, headerSize)
	if _, err := io.ReadFull(f, hb); err != nil {
		return 0, false
	}
	if _, err := parseHeader(hb, kindSegment); err != nil {
		return 0, false
	}
	fr := &frameReader{r: bufio.NewReaderSize(f, 1<<20), off: headerSize, size: st.Size()}
	var last uint64
	for {
		seq, _, err := fr.next()
		if err != nil {
			return last, last != 0
		}
		if seq != 0 {
			last = seq
		}
	}
}

// replaySegment applies the records of seg after base (and *last),
// advancing *last, each parsed into r (storage.ParseRecordInto) and
// applied by storage.DB.Replay. It returns where the segment's good
// frames end, where its seal begins and what it names (0: not sealed),
// and, if it ends in damage rather than at its end, why.
func (ns *namespace) replaySegment(seg segFile, base uint64, last *uint64, r *storage.Record) (end, sealAt int64, sealNext uint64, torn, err error) {
	f, st, h, torn, err := ns.openSegment(seg)
	if f != nil {
		defer f.Close()
	}
	if torn != nil || err != nil {
		return 0, 0, 0, torn, err
	}
	ns.logV = h.version
	report := ns.progress("log", seg.name, st.Size())
	fr := &frameReader{r: bufio.NewReaderSize(f, 1<<20), off: headerSize, size: st.Size()}
	want := seg.first
	ns.logEnd = seg.first - 1
	for {
		at := fr.off
		seq, payload, err := fr.next()
		if err == io.EOF {
			if report != nil {
				report(st.Size(), st.Size(), int64(ns.rec.Records))
			}
			return fr.off, 0, 0, nil, nil
		}
		if err != nil {
			return at, 0, 0, err, nil
		}
		if seq == 0 && h.version >= versionSealed {
			next, ok := parseSeal(payload)
			if !ok || next != want {
				return at, 0, 0, fmt.Errorf("a seal naming record %d where %d comes next", next, want), nil
			}
			end := fr.off
			if _, _, err := fr.next(); err != io.EOF {
				return at, 0, 0, errors.New("frames after its seal"), nil // the seal is cut with them
			}
			if report != nil {
				report(st.Size(), st.Size(), int64(ns.rec.Records))
			}
			return end, at, next, nil, nil
		}
		if seq != want {
			return at, 0, 0, fmt.Errorf("record numbered %d where %d belongs", seq, want), nil
		}
		want++
		ns.logEnd = seq
		if seq <= *last {
			continue // in the snapshot
		}
		if err := ns.applyFrame(seg, h.version, seq, at, payload, r); err != nil {
			return 0, 0, 0, nil, err
		}
		*last = seq
		ns.rec.Records++
		ns.wal.sinceSnap += frameHeader + int64(len(payload))
		if report != nil {
			report(fr.off, st.Size(), int64(ns.rec.Records))
		}
	}
}

// openSegment opens seg and reads its header. torn says why the
// segment's header is damaged (the segment holds nothing); err is an
// error of the file system or a newer format. f, when not nil, is for
// the caller to close.
func (ns *namespace) openSegment(seg segFile) (f *os.File, st os.FileInfo, h fileHeader, torn, err error) {
	f, err = os.Open(filepath.Join(ns.dir, seg.name))
	if err != nil {
		return nil, nil, h, nil, err
	}
	if st, err = f.Stat(); err != nil {
		return f, nil, h, nil, err
	}
	hb := make([]byte, headerSize)
	if _, err := io.ReadFull(f, hb); err != nil {
		return f, st, h, fmt.Errorf("header: %v", err), nil
	}
	h, err = parseHeader(hb, kindSegment)
	if errors.Is(err, ErrNewerFormat) {
		return f, st, h, nil, fmt.Errorf("%s: %w", seg.name, err)
	}
	if err != nil {
		return f, st, h, err, nil
	}
	if h.base != seg.first {
		return f, st, h, fmt.Errorf("header says first record %d", h.base), nil
	}
	return f, st, h, nil, nil
}

// applyFrame applies record seq, at byte at of seg (a segment of format
// version), whose frame holds payload, parsing it into r.
func (ns *namespace) applyFrame(seg segFile, version uint32, seq uint64, at int64, payload []byte, r *storage.Record) error {
	var when time.Time
	body := payload
	if version >= versionTimes {
		ms, k := binary.Varint(payload)
		if k <= 0 {
			return fmt.Errorf("log segment %s, record %d at byte %d: its checksum is right but its time does not parse (a bug)", seg.name, seq, at)
		}
		when, body = time.UnixMilli(ms), payload[k:]
	}
	// Most records are commits of item writes that storage copies as
	// it stores them: those are parsed as views of the frame's
	// buffer (ReplayView), any other parsed again with its own copy.
	// A copy each was 46 MB of new memory for the 46 MB log of
	// BenchmarkRestart's 1M kill state: its start through the
	// server went from 1.61-1.63 to 1.41-1.42 s without it, the 100k
	// state's (a log alone) from 323-347 to 275-281 ms. A commit
	// ReplayView declines (a table whose stream observes it) goes
	// through the sidecar twice, the first time applying nothing.
	viewed := false
	if storage.ParseRecordView(body, r) == nil && r.Kind == storage.RecordCommit {
		apply := func() (err error) {
			viewed, err = ns.db.ReplayView(r)
			return err
		}
		if err := ns.replayWith(r, when, apply); err != nil {
			return fmt.Errorf("log segment %s, record %d at byte %d (%s): does not apply: %w", seg.name, seq, at, r.Kind, err)
		}
		if viewed && poisonViews {
			for i := range body {
				body[i] = 0xEE
			}
		}
	}
	if viewed {
		return nil
	}
	if err := storage.ParseRecordInto(body, r); err != nil {
		return fmt.Errorf("log segment %s, record %d at byte %d: its checksum is right but it does not parse (written by a newer version, or a bug): %w", seg.name, seq, at, err)
	}
	if err := ns.replayWith(r, when, func() error { return ns.db.Replay(r) }); err != nil {
		return fmt.Errorf("log segment %s, record %d at byte %d (%s): does not apply: %w", seg.name, seq, at, r.Kind, err)
	}
	return nil
}

// replayWith runs apply, which applies r, through the sidecar's Replay
// when there is one (its streams observe the writes at when).
func (ns *namespace) replayWith(r *storage.Record, when time.Time, apply func() error) error {
	if ns.side != nil {
		return ns.side.Replay(r, when, apply)
	}
	return apply()
}

// poisonViews, set by tests, overwrites the bytes of a record applied as
// a view once it is applied (ReplayView), so that anything that kept a
// view of them reads garbage rather than what the next frame happens to
// leave there.
var poisonViews bool

// cutLog ends the log at byte off of seg (nil: before every segment),
// where damage was found (reason): the bytes from there on are kept in a
// file beside it (<segment>.cut-<offset>), the segment is truncated, and
// the segments after it are renamed <name>.cut. The log then ends with
// the last whole record before the damage: every transaction in it is
// whole.
func (ns *namespace) cutLog(seg *segFile, off int64, reason error, later []segFile) error {
	var msg string
	if seg != nil {
		path := filepath.Join(ns.dir, seg.name)
		st, err := os.Stat(path)
		if err != nil {
			return err
		}
		kept := ""
		switch {
		case st.Size() == 0: // created, not yet written: nothing to keep
		case off < headerSize:
			// Emptied rather than removed: the segment before may be
			// sealed naming it, and openActive starts the log in it
			// again (a crash before that must not look like a missing
			// segment).
			kept = seg.name + ".cut"
			if err := saveTail(path, 0, filepath.Join(ns.dir, kept)); err != nil {
				return fmt.Errorf("keeping the damaged %s: %w", seg.name, err)
			}
			if err := truncateSync(path, 0); err != nil {
				return err
			}
		case off < st.Size():
			kept = fmt.Sprintf("%s.cut-%d", seg.name, off)
			if err := saveTail(path, off, filepath.Join(ns.dir, kept)); err != nil {
				return fmt.Errorf("keeping the damaged end of %s: %w", seg.name, err)
			}
			if err := truncateSync(path, off); err != nil {
				return err
			}
		}
		msg = fmt.Sprintf("%s at byte %d: %v; %d bytes cut", seg.name, off, reason, st.Size()-off)
		if kept != "" {
			msg += ", kept in " + kept
		}
	} else {
		msg = reason.Error()
	}
	var dropped []string
	for _, s := range later {
		if err := os.Rename(filepath.Join(ns.dir, s.name), filepath.Join(ns.dir, s.name+".cut")); err != nil {
			return err
		}
		dropped = append(dropped, s.name)
	}
	if err := syncDir(ns.dir); err != nil {
		return err
	}
	if len(dropped) > 0 {
		msg += fmt.Sprintf("; later segments set aside as *.cut: %s", strings.Join(dropped, ", "))
	}
	ns.rec.Cut = msg
	ns.opts.Logger.Warn("persist: log cut at damage; the namespace holds every whole record before it", "namespace", ns.name, "cut", msg)
	return nil
}

// saveTail copies the bytes of path from off on into a new file, durably.
func saveTail(path string, off int64, to string) error {
	src, err := os.Open(path)
	if err != nil {
		return err
	}
	defer src.Close()
	if _, err := src.Seek(off, io.SeekStart); err != nil {
		return err
	}
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = io.Copy(dst, src)
	if err == nil {
		err = dst.Sync()
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	return err
}

func truncateSync(path string, size int64) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	err = f.Truncate(size)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// openActive opens the last segment to append to, or creates one, so
// that the next record is last+1. It creates one when the log ends
// before last: a snapshot may hold records the log lost (they were
// written, not yet synced, when the system crashed), and a segment's
// records follow each other without a gap.
func (ns *namespace) openActive(last uint64) error {
	w := ns.wal
	w.next = last + 1
	segs, _, err := listDir(ns.dir)
	if err != nil {
		return err
	}
	// The log goes on in the last segment read if it ends the log and
	// the DB; not in one of an earlier format version (a segment is of
	// one version throughout), nor in a sealed one.
	if n := len(segs); n > 0 && segs[n-1].name == ns.logSeg && ns.logEnd == last && ns.logV == segmentVersion && !ns.logSealed {
		s := segs[n-1]
		f, err := ns.opts.newFile(filepath.Join(ns.dir, s.name), os.O_RDWR)
		if err != nil {
			return err
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return err
		}
		w.f, w.fname, w.off = f, s.name, st.Size()
		return nil
	}
	f, name, err := w.createSegment(last+1, true)
	if err != nil {
		return err
	}
	w.f, w.fname, w.off = f, name, headerSize
	if err := f.Sync(); err != nil {
		return err
	}
	return syncDir(ns.dir)
}

// close stops the namespace's compaction, folds the log into a snapshot
// when that makes the next start-up faster (worthSnapshotLocked) and
// closes the log.
func (ns *namespace) close() error {
	close(ns.stop)
	<-ns.done
	ns.wal.mu.Lock()
	worth := ns.wal.worthSnapshotLocked() && ns.wal.broken == nil
	ns.wal.mu.Unlock()
	var err error
	if worth {
		if err = ns.compact(); err != nil {
			ns.opts.Logger.Error("persist: the snapshot at close failed; the next start replays the log", "namespace", ns.name, "err", err)
			err = nil
		}
	}
	return errors.Join(err, ns.wal.close())
}
