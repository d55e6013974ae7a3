package pitr

import (
	"errors"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Point-in-time recovery: the change history of each table that has it
// enabled, from which RestoreTableToPointInTime (restore.go) makes the
// table as it was at any instant of its recovery window.
//
// The history is a base snapshot of the table (storage.Table.Snapshot,
// O(1), copy-on-write) and the log of the item writes committed since,
// each with the emulator's clock at its commit. The log is fed by the
// namespace's commit hook (pitrRecorder wraps the DB's hook), so every
// write path (single items, batches, transactions, TTL, PartiQL) is in
// it and nothing makes a second pass over a table. The table as of T is
// the base rolled forward through the writes committed at or before T
// (storage.TableSnapshot.Derive), sharing with the base every node those
// writes do not touch.
//
// The window is [max(enabled, now - RecoveryPeriodInDays), now] on the
// emulator's clock: AWS's LatestRestorableDateTime is typically five
// minutes behind the current time, the emulator's is the current time,
// so a test can restore to the instant after its last write. Writes that
// leave the window are folded into the base in batches of pitrRollBatch
// (a Derive over them, inside the hook), so the log holds the window's
// writes and at most a batch more.
//
// Memory: the base shares the table's nodes until the table writes
// them (storage/snapshot.go); each logged write keeps its key (copied)
// and its new item record, which is the table's own record and costs
// nothing more until the item is overwritten or deleted, when it stays
// alive for the log. So a table's history costs about the records its
// writes replaced within the window, plus about 80 bytes per write.
//
// The history is not recorded in the namespace's DB: after a replay of
// a namespace's records a table's window starts again at the replay.
// With persistence (Config.Keep) each history is also kept on disk, a
// base file and a log of its writes (pitr_keep.go), and survives a
// restart.

// pitrRollBatch is how many writes older than the window the log
// gathers before it folds them into its base.
const pitrRollBatch = 1024

// pitrRecorder is a namespace's DB hook: it hands each record to the
// hook it wraps (persistence, or none), then logs the item writes of
// the tables with point-in-time recovery.
type pitrRecorder struct {
	inner storage.Hook     // nil: none
	clock func() time.Time // the emulator's clock
	// keep keeps the histories on disk (pitr_keep.go); nil: memory only.
	// Set before the namespace is handed out, with log.
	keep service.Keeper
	log  *slog.Logger
	bg   sync.WaitGroup // the base files being rewritten in the background
	// closed is set by close: a history whose append fails after it
	// keeps its files (the namespace is shutting down, not failing).
	closed atomic.Bool

	// mu serializes the changes of logs; a leaf of the lock order,
	// taken in the hook under storage's locks.
	mu sync.Mutex
	// logs maps table IDs to their history: an immutable map replaced
	// whole under mu, loaded without a lock by the hook (nil or empty:
	// no table has point-in-time recovery, and a commit pays one load).
	logs atomic.Pointer[map[string]*pitrLog]
}

// pitrLog is one table's history.
type pitrLog struct {
	// mu guards the fields below: a leaf of the lock order, taken in the
	// hook under the table's storage lock, nothing taken inside it.
	mu     sync.Mutex
	id     string                 // the table's ID
	since  time.Time              // when recovery was enabled: the window starts no earlier
	period time.Duration          // RecoveryPeriodInDays
	base   *storage.TableSnapshot // nil until enable has taken it
	writes []pitrWrite            // committed after (or while) base was taken, in commit order
	disk   *pitrDisk              // its files (pitr_keep.go); nil: memory only
	loaded bool                   // read from disk, not yet claimed by its table (claim)
}

// pitrWrite is one logged item write and the clock at its commit.
type pitrWrite struct {
	at  time.Time
	w   storage.Committed
	seq uint64 // its frame in the disk log (0: none)
}

// wrapPITR puts a recorder in front of db's hook (storage.DB.WrapHook).
func wrapPITR(db *storage.DB, clock func() time.Time) *pitrRecorder {
	p := &pitrRecorder{clock: clock}
	db.WrapHook(func(inner storage.Hook) storage.Hook { p.inner = inner; return p })
	return p
}

// Commit hands r to the wrapped hook, then logs r's writes to tables
// with a history. A refused record is not logged.
func (p *pitrRecorder) Commit(r *storage.Record) (uint64, error) {
	var wait uint64
	if p.inner != nil {
		w, err := p.inner.Commit(r)
		if err != nil {
			return 0, err
		}
		wait = w
	}
	switch r.Kind {
	case storage.RecordCommit:
		logs := p.logs.Load()
		if logs == nil || len(*logs) == 0 {
			return wait, nil
		}
		var now time.Time
		for _, w := range r.Writes {
			l := (*logs)[w.Table]
			if l == nil {
				continue
			}
			if now.IsZero() {
				now = p.clock()
			}
			l.add(now, w.Committed)
		}
	case storage.RecordDropTable:
		p.set(r.Table, nil)
	}
	return wait, nil
}

// Wait is the wrapped hook's; the histories' disk logs are made durable
// too, meanwhile (pitr_keep.go).
func (p *pitrRecorder) Wait(wait uint64) error {
	if logs := p.logs.Load(); p.keep != nil && logs != nil && len(*logs) > 0 {
		// The two fdatasyncs at once, not one after the other.
		done := make(chan struct{})
		go func() { p.syncDisk(); close(done) }()
		defer func() { <-done }()
	}
	if p.inner == nil {
		return nil
	}
	return p.inner.Wait(wait)
}

// set makes l the history of table id (nil: none).
func (p *pitrRecorder) set(id string, l *pitrLog) {
	p.mu.Lock()
	defer p.mu.Unlock()
	old := p.logs.Load()
	if (old == nil || (*old)[id] == nil) && l == nil {
		return
	}
	m := make(map[string]*pitrLog)
	if old != nil {
		for k, v := range *old {
			m[k] = v
		}
	}
	if l == nil {
		delete(m, id)
	} else {
		m[id] = l
	}
	p.logs.Store(&m)
	if old != nil {
		if prev := (*old)[id]; prev != nil && prev != l {
			prev.forget() // its files go with it
		}
	}
}

// get returns the history of table id, or nil.
func (p *pitrRecorder) get(id string) *pitrLog {
	if p == nil { // a namespace whose data could not be opened (newNamespace)
		return nil
	}
	if logs := p.logs.Load(); logs != nil {
		return (*logs)[id]
	}
	return nil
}

// start begins the history of st (the storage table of table id) with a
// window of days: the log is registered first, then the base taken, and
// the window starts after both, so every write the base misses is in
// the log and every write the log repeats from the base is older than
// the window's start (a repeated write changes nothing when rolled
// forward: it stores the image the base already holds).
func (p *pitrRecorder) start(id string, st *storage.Table, days int) {
	if l := p.get(id); l != nil && l.claim(days) {
		return // read back from disk: it goes on
	}
	l := &pitrLog{id: id, period: pitrPeriod(days)}
	if p.keep != nil {
		l.disk = p.openDisk(id)
	}
	p.set(id, l)
	base := st.Snapshot()
	now := p.clock()
	l.mu.Lock()
	l.base, l.since = base, now
	l.mu.Unlock()
	if l.disk != nil {
		l.disk.writeFirstBase(l, base, now)
	}
}

// pitrPeriod is a recovery period of days.
func pitrPeriod(days int) time.Duration { return time.Duration(days) * 24 * time.Hour }

// setPeriod changes the window of the history.
func (l *pitrLog) setPeriod(days int) {
	l.mu.Lock()
	l.period = pitrPeriod(days)
	l.mu.Unlock()
}

// add logs write w committed at now, and folds a batch of writes that
// have left the window into the base.
func (l *pitrLog) add(now time.Time, w storage.Committed) {
	w = w.Clone()
	w.Old, w.HadOld = storage.EncodedItem{}, false // not needed: let the replaced record go
	l.mu.Lock()
	defer l.mu.Unlock()
	var seq uint64
	if l.disk != nil {
		seq = l.disk.appendLocked(l, now, w)
	}
	l.writes = append(l.writes, pitrWrite{at: now, w: w, seq: seq})
	if l.base == nil || len(l.writes) < 2*pitrRollBatch {
		return
	}
	cutoff := now.Add(-l.period)
	n := 0
	for n < len(l.writes) && l.writes[n].at.Before(cutoff) {
		n++
	}
	if n < pitrRollBatch {
		return
	}
	ws := make([]storage.Committed, n)
	for i := range n {
		ws[i] = l.writes[i].w
	}
	base, err := l.base.Derive(storage.Derivation{Writes: ws})
	if err != nil {
		return // the writes stay in the log: the history is still whole
	}
	l.base = base
	through := l.writes[n-1].seq
	l.writes = append([]pitrWrite(nil), l.writes[n:]...)
	if l.disk != nil {
		l.disk.foldedLocked(l, n, through)
	}
}

// window returns the earliest and latest restorable times at now.
func (l *pitrLog) window(now time.Time) (earliest, latest time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	earliest = now.Add(-l.period)
	if earliest.Before(l.since) {
		earliest = l.since
	}
	return earliest, now
}

// at returns the table as of instant t (which the caller has checked is
// in the window), with derivation d's indexes and metadata.
func (l *pitrLog) at(t time.Time, d storage.Derivation) (*storage.TableSnapshot, error) {
	l.mu.Lock()
	base := l.base
	for _, w := range l.writes {
		if !w.at.After(t) {
			d.Writes = append(d.Writes, w.w)
		}
	}
	l.mu.Unlock()
	if base == nil {
		return nil, errPITRStarting
	}
	return base.Derive(d)
}

// errPITRStarting: a restore raced the enabling of the history.
var errPITRStarting = errors.New("emulator: point-in-time recovery is being enabled")

// defined starts, changes or stops the history of the table whose
// definition d is published (old: the one before), when a definition is
// published by a change or a replay.
func defined(old, d service.Definition) {
	p := recorders.In(d.Table().Space()).p
	if p == nil {
		return
	}
	r := d.Settings().Recovery
	on, days, wasOn := r.On, r.Days, old.Settings().Recovery.On
	id := d.Table().Info().ID
	switch {
	case on && !wasOn:
		p.start(id, d.Table().Storage(), days)
	case on:
		if l := p.get(id); l != nil {
			l.setPeriod(days)
		}
	case wasOn:
		p.set(id, nil)
	}
}
