package storage

import (
	"fmt"
	"slices"
	"unsafe"
)

// Loading a DB from its own log: the records its hook wrote, applied to
// a DB nobody else uses yet (persist's replay of a log after a crash).
// Apply does that through the paths the changes first took, a commit as
// one WriteTx; most of a log is commits of item writes to tables that
// keep nothing a transaction must tell of (an observer, item collection
// sizes, vector indexes, lagging indexes), whose images Replay stores as
// they are, without a transaction's undo list, its Changes or the
// record its hook would be handed.

// ParseRecordInto is ParseRecord parsing into r, whose array of writes
// it reuses (a log's frames are parsed one after another into one
// Record), and leaving a commit's item images to be checked when the
// record is applied: Apply and Replay check each image they store, so a
// record parsed and applied has each image checked once. Like
// ParseRecord's, r's strings and images share one copy of b; a record
// parsed into r is valid until the next parse into r.
func ParseRecordInto(b []byte, r *Record) error {
	if _, err := parseRecordWith(string(b), false, r); err != nil {
		*r = Record{Writes: r.Writes[:0]}
		return err
	}
	return nil
}

// ParseRecordView is ParseRecordInto without its copy of b: r's strings
// and images view b, and are valid only while b is unchanged. It is for
// ReplayView, which keeps nothing of a record it applies, so that the
// buffer a log's frame is read into serves the next frame.
func ParseRecordView(b []byte, r *Record) error {
	if _, err := parseRecordWith(unsafe.String(unsafe.SliceData(b), len(b)), false, r); err != nil {
		*r = Record{Writes: r.Writes[:0]}
		return err
	}
	return nil
}

// ReplayView is Replay of r, parsed by ParseRecordView, when Replay
// keeps none of r's memory: a RecordCommit whose tables need no
// transaction, each image and key copied into its table's memory as it
// is stored (replayCommit). It returns false, applying nothing, for any
// other record: parse it again with ParseRecordInto and hand it to
// Replay.
func (db *DB) ReplayView(r *Record) (bool, error) {
	if r.Kind != RecordCommit {
		return false, nil
	}
	return db.replayCommit(r)
}

// Replay is Apply, without its callback, of r, a record of the log of
// db's own hook, to db while it is being loaded from that log: before
// anyone else reads or writes it. A RecordCommit whose tables keep no
// item collection sizes and have no observer, vector index or lagging
// index is stored write by write, not as a WriteTx: every write is
// checked first (its table, its key, its image and the image's size,
// checkImageWrite), then every write is stored, which cannot fail, so a
// record that does not apply applies nothing, as with Apply. db's hook
// is not called with such a commit: it wrote the record, and a hook
// being loaded from records nothing anew (a log skips its own records).
// Any other record goes through Apply; the errors are Apply's.
func (db *DB) Replay(r *Record) error {
	if r.Kind != RecordCommit {
		return db.Apply(r, nil)
	}
	ok, err := db.replayCommit(r)
	if ok || err != nil {
		return err
	}
	return db.applyCommit(r)
}

// replayedWrite is what checking one write of a commit being replayed
// found, for storing it: its encoded sort key, its item's size and the
// attributes the indexes read of it (nil: none kept, or not read yet).
type replayedWrite struct {
	sk   string
	size int
	nu   Item
}

// replayCommit is Replay of a RecordCommit; false (and no error) when a
// table of it needs a transaction, before anything is applied.
func (db *DB) replayCommit(r *Record) (bool, error) {
	tables := make([]*Table, len(r.Writes))
	db.mu.RLock()
	for i := range r.Writes {
		tables[i] = db.tableByIDLocked(r.Writes[i].Table)
	}
	db.mu.RUnlock()
	for i, t := range tables {
		if t == nil {
			return false, fmt.Errorf("%w: ID %q", ErrNoTable, r.Writes[i].Table)
		}
	}
	locked := lockOrder(tables)
	for _, t := range locked {
		t.mu.Lock()
	}
	defer func() {
		for i := len(locked) - 1; i >= 0; i-- {
			locked[i].mu.Unlock()
		}
	}()
	for _, t := range locked {
		if t.coll != nil || t.obs != nil || len(t.vindexes) > 0 || t.lagged != 0 {
			return false, nil
		}
	}
	for _, t := range locked {
		s := t.scratchLocked()
		s.replayAttrs = s.replayAttrs[:0]
	}
	checked := make([]replayedWrite, len(r.Writes))
	for i := range r.Writes {
		w, t := &r.Writes[i], tables[i]
		var err error
		if w.HasNew {
			c := &checked[i]
			if t.indexedLocked() {
				// Read as the image is checked, into a map of the
				// table's kept for the next commit.
				s := t.scr
				n := len(s.replayAttrs)
				s.replayAttrs = slices.Grow(s.replayAttrs, 1)[:n+1]
				c.nu = t.indexAttrMapLocked(&s.replayAttrs[n])
			}
			c.sk, c.size, err = t.checkImageWrite(w.Key, w.New, c.nu)
		} else {
			err = t.ks.checkKey(w.Key)
		}
		if err != nil {
			return false, fmt.Errorf("%w: write %d of the record: %w", ErrCorrupt, i, err)
		}
	}
	for i := range r.Writes {
		w, t := &r.Writes[i], tables[i]
		if w.HasNew {
			t.storeImageLocked(w.Key, checked[i].sk, w.New, checked[i].size, checked[i].nu)
			clear(checked[i].nu) // its values view r's memory
		} else if _, err := t.putItemLocked(w.Key, nil, false, nil); err != nil {
			// A delete from a table without item collection sizes
			// fails only for a key of the wrong kinds, checked above.
			panic("storage: replaying a checked delete: " + err.Error())
		}
	}
	return true, nil
}
