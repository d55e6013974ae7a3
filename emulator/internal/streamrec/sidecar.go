package streamrec

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Streams across restarts (-dbPath). A stream's records are a function
// of its table's committed changes, of when each was committed and of
// the stream's settings at the time, all of which the namespace's log
// holds: every committed storage transaction, every definition change,
// each stamped with its commit time on the emulator's clock (persist's
// Options.Clock). So nothing is logged for streams: at start-up the
// streams are rebuilt by watching the log being replayed, the stream of
// each table being its storage Observer exactly as when the writes were
// first made (the same writes observed, with the same old and new images
// and the same set-order rule, in the same order, so the records get the
// same sequence numbers), with the record's commit time as their clock.
// The log is folded into snapshots, after which it is gone: a snapshot
// therefore carries every stream of the namespace as it stood at the
// snapshot's mark (its identity, sequence numbers, whether and when it
// was disabled, and its records within the retention), written by
// Capture and read back by Load. This is why the records are rebuilt
// rather than logged: logging them would write every change twice (the
// item, then its record with both images) and add a second thing to
// keep in order with the first; rebuilding costs nothing on the write
// path, and the replay of a snapshot's tail is what persistence does
// anyway.
//
// Sidecar is a namespace's side of this (persist.Sidecar, by shape:
// neither this package nor the service imports persist). The edge hands
// the store the service's StreamSidecar(id) for each namespace it opens
// (a Sidecars' Get); the service then takes the streams it rebuilt
// (Attach) as it makes the namespace.
//
// What a restart does not give back exactly: a stream's
// ApproximateCreationDateTime comes from the log record's time, read
// from the clock a moment before the stream's own (storage calls the
// hook, then the observer), so it is the same second but for a write
// across a second's boundary, whose record comes back a second earlier; a write racing an UpdateTable that turns
// the stream on or off, between the definition being recorded and the
// stream being attached or detached, is observed on replay as the
// definition says, which may be one record more or less than was served
// (and so later sequence numbers one apart); and a stream disabled is
// disabled at its definition record's time. Files written before this
// (persist format version 1) have no times and snapshots with no
// streams: records replayed from them are stamped with the time of the
// load, and a stream in such a snapshot comes back with no records,
// numbering new ones after every number it could have handed out (the
// real time in nanoseconds, as before).

// SidecarConfig is what a Sidecar takes from its service: the streams'
// settings, the service's clock, the metadata key of a table's
// definition record, and the reading of that record.
type SidecarConfig struct {
	Options Options          // the streams' settings (Clock unused: the sidecar's)
	Clock   func() time.Time // the emulator's clock
	MetaKey string           // the storage metadata key of a table's definition
	// Def reads the stream a table's definition record (the value of
	// MetaKey, of a table of key schema ks) describes: its table, its
	// identity and view type, and whether it is enabled.
	Def func(meta []byte, ks storage.KeySchema) (Def, error)
	// OwnerDef is the definition record of a stream's Owner, kept with the
	// stream in a snapshot (nil: none), which Def reads back as its
	// Owner.
	OwnerDef func(owner any) []byte
}

// Def is the stream a table's definition describes.
type Def struct {
	Table Table
	ID    ID
	View  string
	On    bool // the stream is enabled
}

// Sidecar rebuilds and keeps the streams of one namespace for
// persistence (see above).
type Sidecar struct {
	cfg *SidecarConfig
	// at is, while a record is being replayed, its commit time (Unix
	// nanoseconds): the clock of the streams being rebuilt. 0 otherwise.
	at atomic.Int64

	// mu guards the fields below. Capture takes it under storage's locks
	// (DB.Snapshot's callback), so it is below them in the lock order,
	// above Set's lock and the streams' logs' (the service's doc.go).
	mu      sync.Mutex
	db      *storage.DB
	loaded  bool              // Load was called
	set     *Set              // set by Attach: the namespace's streams from then on
	streams []Stream          // until attached: the streams rebuilt, in creation order
	live    map[string]Stream // until attached: each table's (by ID) enabled stream
}

// Sidecars is a service's Sidecars, by namespace ID.
type Sidecars struct {
	mu sync.Mutex // guards m; a leaf
	m  map[string]*Sidecar
}

// Get returns the sidecar of namespace id, made on first use with cfg.
func (ss *Sidecars) Get(id string, cfg *SidecarConfig) *Sidecar {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.m == nil {
		ss.m = map[string]*Sidecar{}
	}
	sc := ss.m[id]
	if sc == nil {
		sc = &Sidecar{cfg: cfg, live: map[string]Stream{}}
		ss.m[id] = sc
	}
	return sc
}

// Lookup returns the sidecar of namespace id, or nil.
func (ss *Sidecars) Lookup(id string) *Sidecar {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.m[id]
}

// now is the clock of the streams the sidecar rebuilds: the commit time
// of the record being replayed, else the emulator's.
func (sc *Sidecar) now() time.Time {
	if at := sc.at.Load(); at != 0 {
		return time.Unix(0, at)
	}
	return sc.cfg.Clock()
}

// Load makes the streams the snapshot's pieces describe and attaches the
// enabled ones to their tables in db, ready for the log's replay.
func (sc *Sidecar) Load(db *storage.DB, pieces [][]byte) error {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.db, sc.loaded = db, true
	captured, err := ParsePieces(pieces, sc.options())
	if err != nil {
		return err
	}
	byTable := map[string]*Captured{}
	for _, c := range captured {
		if c.DisabledAt().IsZero() {
			byTable[c.TableName()+"\x00"+c.Label()] = c
		}
	}
	for _, st := range db.Tables() {
		d, err := sc.cfg.Def(st.Meta(sc.cfg.MetaKey), st.KeySchema())
		if err != nil {
			return fmt.Errorf("table %s: %w", st.Name(), err)
		}
		if !d.On {
			continue
		}
		var s Stream
		if c := byTable[d.Table.Name+"\x00"+d.ID.Label]; c != nil {
			s, c.Live = c.Stream, true
			s.SetOwner(d.Table.Owner)
		} else {
			// A snapshot without this stream (of format version 1): its
			// records are gone; new ones are numbered after every number
			// it could have handed out.
			s = sc.newStream(d)
			s.SkipTo(uint64(time.Now().UnixNano()))
			sc.streams = append(sc.streams, s)
		}
		st.SetObserver(s.Observer())
		sc.live[st.ID()] = s
	}
	for _, c := range captured {
		sc.streams = append(sc.streams, c.Stream)
		if !c.Live && c.Def != nil {
			// Its table as the snapshot knew it: the stream outlives it.
			if d, err := sc.cfg.Def(c.Def, c.s.schema); err == nil {
				c.SetOwner(d.Table.Owner)
			}
		}
		if c.DisabledAt().IsZero() && !c.Live {
			// Its table, or its table's stream, was gone at the mark (a
			// DeleteTable or an UpdateTable caught between recording the
			// definition and closing the stream).
			c.Disable(c.At)
		}
	}
	return nil
}

// options are the streams' settings on the sidecar's clock.
func (sc *Sidecar) options() Options {
	o := sc.cfg.Options
	o.Clock = sc.now
	return o
}

// newStream is the stream d describes, with no records, on the
// sidecar's clock.
func (sc *Sidecar) newStream(d Def) Stream { return New(d.Table, d.ID, d.View, sc.options()) }

// Replay applies one log record, the streams observing its writes at its
// commit time at, and follows the streams it turns on and off.
func (sc *Sidecar) Replay(r *storage.Record, at time.Time, apply func() error) error {
	if at.IsZero() {
		at = sc.cfg.Clock() // a log of format version 1
	}
	sc.at.Store(at.UnixNano())
	defer sc.at.Store(0)
	if err := apply(); err != nil {
		return err
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	switch r.Kind {
	case storage.RecordCreateTable, storage.RecordRestoreTable, storage.RecordMeta:
		if r.Kind == storage.RecordMeta && (r.Table == "" || r.Key != sc.cfg.MetaKey) {
			return nil
		}
		st := sc.db.TableByID(r.Table)
		if st == nil {
			return fmt.Errorf("%w: ID %q", storage.ErrNoTable, r.Table)
		}
		d, err := sc.cfg.Def(st.Meta(sc.cfg.MetaKey), st.KeySchema())
		if err != nil {
			return err
		}
		cur := sc.live[r.Table]
		switch {
		case d.On && (cur.IsZero() || cur.Label() != d.ID.Label):
			if !cur.IsZero() {
				cur.Disable(at)
			}
			s := sc.newStream(d)
			sc.streams = append(sc.streams, s)
			sc.live[r.Table] = s
			st.SetObserver(s.Observer())
		case !d.On && !cur.IsZero():
			st.SetObserver(nil)
			cur.Disable(at)
			delete(sc.live, r.Table)
		case d.On:
			cur.SetOwner(d.Table.Owner) // its table as defined now (its tags changed, say)
		}
	case storage.RecordDropTable:
		if cur := sc.live[r.Table]; !cur.IsZero() {
			cur.Disable(at)
			delete(sc.live, r.Table)
		}
	}
	return nil
}

// Attach hands the streams rebuilt to set, the streams of the namespace
// being made over the sidecar's DB, which keeps them from now on, and
// returns them by table name and label (the service's tables take them
// up as its catalog is rebuilt).
func (sc *Sidecar) Attach(set *Set) map[string]Stream {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.set != nil {
		return nil
	}
	out := map[string]Stream{}
	for _, s := range sc.streams {
		set.Add(s)
		out[s.TableName()+"\x00"+s.Label()] = s
	}
	sc.set, sc.streams, sc.live = set, nil, nil
	if !sc.loaded {
		return nil // not loaded through the store: nothing rebuilt
	}
	return out
}

// Capture notes every stream of the namespace (enabled, or disabled
// within the retention) as it stands, and returns the function that
// writes them out (Capture).
func (sc *Sidecar) Capture() func(emit func([]byte) error) error {
	now := sc.cfg.Clock()
	sc.mu.Lock()
	var streams []Stream
	if sc.set != nil {
		streams = sc.set.All(now)
	} else {
		streams = slices.Clone(sc.streams)
	}
	sc.mu.Unlock()
	return Capture(streams, now, sc.cfg.OwnerDef)
}
