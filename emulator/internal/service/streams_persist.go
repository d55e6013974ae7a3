package service

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/streamrec"
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
// StreamSidecar is a namespace's side of this (persist.Sidecar, by
// shape: the service does not import persist). The edge hands the store
// Service.StreamSidecar(id) for each namespace it opens; RebuildCatalog
// then takes the streams it rebuilt.
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

// StreamSidecar rebuilds and keeps the streams of one namespace for
// persistence (see above).
type StreamSidecar struct {
	svc *Service
	id  string // the namespace's ID
	// at is, while a record is being replayed, its commit time (Unix
	// nanoseconds): the clock of the streams being rebuilt. 0 otherwise.
	at atomic.Int64

	// mu guards the fields below. Capture takes it under storage's locks
	// (DB.Snapshot's callback), so it is below them in the lock order,
	// above streamrec.Set's lock and the streams' logs' (doc.go).
	mu      sync.Mutex
	db      *storage.DB
	loaded  bool                        // Load was called
	ns      *Namespace                  // set by attach: its streams has the streams from then on
	streams []streamrec.Stream          // until attached: the streams rebuilt, in creation order
	live    map[string]streamrec.Stream // until attached: each table's (by ID) enabled stream
}

// sidecarSet is a service's StreamSidecars, by namespace ID.
type sidecarSet struct {
	mu sync.Mutex // guards m; a leaf
	m  map[string]*StreamSidecar
}

// StreamSidecar returns the sidecar of namespace id, made on first use.
func (s *Service) StreamSidecar(id string) *StreamSidecar {
	s.sidecars.mu.Lock()
	defer s.sidecars.mu.Unlock()
	if s.sidecars.m == nil {
		s.sidecars.m = map[string]*StreamSidecar{}
	}
	sc := s.sidecars.m[id]
	if sc == nil {
		sc = &StreamSidecar{svc: s, id: id, live: map[string]streamrec.Stream{}}
		s.sidecars.m[id] = sc
	}
	return sc
}

// sidecar returns the sidecar of namespace id, or nil.
func (s *Service) sidecar(id string) *StreamSidecar {
	s.sidecars.mu.Lock()
	defer s.sidecars.mu.Unlock()
	return s.sidecars.m[id]
}

// now is the clock of the streams the sidecar rebuilds: the commit time
// of the record being replayed, else the emulator's.
func (sc *StreamSidecar) now() time.Time {
	if at := sc.at.Load(); at != 0 {
		return time.Unix(0, at)
	}
	return sc.svc.clock()
}

// Load makes the streams the snapshot's pieces describe and attaches the
// enabled ones to their tables in db, ready for the log's replay.
func (sc *StreamSidecar) Load(db *storage.DB, pieces [][]byte) error {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.db, sc.loaded = db, true
	captured, err := streamrec.ParsePieces(pieces, sc.svc.streamOptions(sc.now))
	if err != nil {
		return err
	}
	byTable := map[string]*streamrec.Captured{}
	for _, c := range captured {
		if c.DisabledAt().IsZero() {
			byTable[c.TableName()+"\x00"+c.Label()] = c
		}
	}
	for _, st := range db.Tables() {
		t, m, err := decodeTableRecord(st.Meta(metaKeyTable), st.KeySchema())
		if err != nil {
			return fmt.Errorf("table %s: %w", st.Name(), err)
		}
		if !m.streamOn() {
			continue
		}
		var s streamrec.Stream
		if c := byTable[t.name+"\x00"+m.streamLabel]; c != nil {
			s, c.Live = c.Stream, true
		} else {
			// A snapshot without this stream (of format version 1): its
			// records are gone; new ones are numbered after every number
			// it could have handed out.
			s = sc.newStream(t, m)
			s.SkipTo(uint64(time.Now().UnixNano()))
			sc.streams = append(sc.streams, s)
		}
		st.SetObserver(s.Observer())
		sc.live[st.ID()] = s
	}
	for _, c := range captured {
		sc.streams = append(sc.streams, c.Stream)
		if c.DisabledAt().IsZero() && !c.Live {
			// Its table, or its table's stream, was gone at the mark (a
			// DeleteTable or an UpdateTable caught between recording the
			// definition and closing the stream).
			c.Disable(c.At)
		}
	}
	return nil
}

// newStream is the stream definition m of t (decoded from its record)
// describes, with no records, on the sidecar's clock.
func (sc *StreamSidecar) newStream(t *table, m *tableMeta) streamrec.Stream {
	return sc.svc.newStream(t, streamIDOf(m), *m.stream.StreamViewType, sc.now)
}

// Replay applies one log record, the streams observing its writes at its
// commit time at, and follows the streams it turns on and off.
func (sc *StreamSidecar) Replay(r *storage.Record, at time.Time, apply func() error) error {
	if at.IsZero() {
		at = sc.svc.clock() // a log of format version 1
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
		if r.Kind == storage.RecordMeta && (r.Table == "" || r.Key != metaKeyTable) {
			return nil
		}
		st := sc.db.TableByID(r.Table)
		if st == nil {
			return fmt.Errorf("%w: ID %q", storage.ErrNoTable, r.Table)
		}
		t, m, err := decodeTableRecord(st.Meta(metaKeyTable), st.KeySchema())
		if err != nil {
			return err
		}
		cur := sc.live[r.Table]
		switch {
		case m.streamOn() && (cur.IsZero() || cur.Label() != m.streamLabel):
			if !cur.IsZero() {
				cur.Disable(at)
			}
			s := sc.newStream(t, m)
			sc.streams = append(sc.streams, s)
			sc.live[r.Table] = s
			st.SetObserver(s.Observer())
		case !m.streamOn() && !cur.IsZero():
			st.SetObserver(nil)
			cur.Disable(at)
			delete(sc.live, r.Table)
		}
	case storage.RecordDropTable:
		if cur := sc.live[r.Table]; !cur.IsZero() {
			cur.Disable(at)
			delete(sc.live, r.Table)
		}
	}
	return nil
}

// attach hands the streams rebuilt to ns, the namespace being made
// over the sidecar's DB, whose streamSet keeps them from now on, and
// returns them by table name and label (RebuildCatalog's tables take
// them up: restoreStream).
func (sc *StreamSidecar) attach(ns *Namespace) map[string]streamrec.Stream {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.ns != nil {
		return nil
	}
	out := map[string]streamrec.Stream{}
	for _, s := range sc.streams {
		ns.streams.Add(s)
		out[s.TableName()+"\x00"+s.Label()] = s
	}
	sc.ns, sc.streams, sc.live = ns, nil, nil
	if !sc.loaded {
		return nil // not loaded through the store: nothing rebuilt
	}
	return out
}

// Capture notes every stream of the namespace (enabled, or disabled
// within the retention) as it stands, and returns the function that
// writes them out (streamrec.Capture).
func (sc *StreamSidecar) Capture() func(emit func([]byte) error) error {
	now := sc.svc.clock()
	sc.mu.Lock()
	var streams []streamrec.Stream
	if sc.ns != nil {
		streams = sc.ns.streams.All(now)
	} else {
		streams = slices.Clone(sc.streams)
	}
	sc.mu.Unlock()
	return streamrec.Capture(streams, now)
}
