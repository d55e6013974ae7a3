package service

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablerec"
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
	// above streamSet.mu and stream.mu (doc.go).
	mu      sync.Mutex
	db      *storage.DB
	loaded  bool               // Load was called
	ns      *Namespace         // set by attach: its streamSet has the streams from then on
	streams []*stream          // until attached: the streams rebuilt, in creation order
	live    map[string]*stream // until attached: each table's (by ID) enabled stream
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
		sc = &StreamSidecar{svc: s, id: id, live: map[string]*stream{}}
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
	captured, err := sc.parsePieces(pieces)
	if err != nil {
		return err
	}
	byTable := map[string]*capturedStream{}
	for _, c := range captured {
		if _, _, disabled := c.s.log.Mark(); disabled.IsZero() {
			byTable[c.s.tableName+"\x00"+c.s.label] = c
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
		var s *stream
		if c := byTable[t.name+"\x00"+m.streamLabel]; c != nil {
			s, c.live = c.s, true
		} else {
			// A snapshot without this stream (of format version 1): its
			// records are gone; new ones are numbered after every number
			// it could have handed out.
			s = sc.newStream(t, m)
			s.log.SkipTo(uint64(time.Now().UnixNano()))
			sc.streams = append(sc.streams, s)
		}
		st.SetObserver(s)
		sc.live[st.ID()] = s
	}
	for _, c := range captured {
		sc.streams = append(sc.streams, c.s)
		if _, _, disabled := c.s.log.Mark(); disabled.IsZero() && !c.live {
			// Its table, or its table's stream, was gone at the mark (a
			// DeleteTable or an UpdateTable caught between recording the
			// definition and closing the stream).
			c.s.disable(c.at)
		}
	}
	return nil
}

// newStream is the stream definition m of t (decoded from its record)
// describes, with no records, on the sidecar's clock.
func (sc *StreamSidecar) newStream(t *table, m *tableMeta) *stream {
	s := sc.svc.newStream(t, streamID{label: m.streamLabel, shard: m.streamShard, region: m.streamRegion, created: m.streamCreated},
		*m.stream.StreamViewType)
	s.clock = sc.now
	return s
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
		case m.streamOn() && (cur == nil || cur.label != m.streamLabel):
			if cur != nil {
				cur.disable(at)
			}
			s := sc.newStream(t, m)
			sc.streams = append(sc.streams, s)
			sc.live[r.Table] = s
			st.SetObserver(s)
		case !m.streamOn() && cur != nil:
			st.SetObserver(nil)
			cur.disable(at)
			delete(sc.live, r.Table)
		}
	case storage.RecordDropTable:
		if cur := sc.live[r.Table]; cur != nil {
			cur.disable(at)
			delete(sc.live, r.Table)
		}
	}
	return nil
}

// attach hands the streams rebuilt to ns, the namespace being made
// over the sidecar's DB, whose streamSet keeps them from now on, and
// returns them by table name and label (RebuildCatalog's tables take
// them up: restoreStream).
func (sc *StreamSidecar) attach(ns *Namespace) map[string]*stream {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.ns != nil {
		return nil
	}
	out := map[string]*stream{}
	for _, s := range sc.streams {
		ns.streams.add(s)
		out[s.tableName+"\x00"+s.label] = s
	}
	sc.ns, sc.streams, sc.live = ns, nil, nil
	if !sc.loaded {
		return nil // not loaded through the store: nothing rebuilt
	}
	return out
}

// Capture notes every stream of the namespace (enabled, or disabled
// within the retention) as it stands, and returns the function that
// writes them out: per stream a header piece, then its records in pieces
// of up to captureBatch, read from the live log a batch at a time (so no
// lock is held long; records trimmed meanwhile are simply not written).
func (sc *StreamSidecar) Capture() func(emit func([]byte) error) error {
	now := sc.svc.clock()
	sc.mu.Lock()
	var streams []*stream
	if sc.ns != nil {
		streams = sc.ns.streams.all(now)
	} else {
		streams = slices.Clone(sc.streams)
	}
	sc.mu.Unlock()
	type mark struct {
		s           *stream
		first, next uint64
		disabled    time.Time
	}
	marks := make([]mark, len(streams))
	for i, s := range streams {
		first, next, disabled := s.log.Mark()
		marks[i] = mark{s, first, next, disabled}
	}
	return func(emit func([]byte) error) error {
		for _, m := range marks {
			if err := emit(encodeStreamPiece(m.s, m.next, m.disabled, now)); err != nil {
				return err
			}
			for from := m.first; from < m.next; {
				recs := m.s.log.Copy(from, m.next, captureBatch)
				if len(recs) == 0 {
					break
				}
				b, err := tablerec.EncodeRecordsPiece(recs)
				if err != nil {
					return err
				}
				if err := emit(b); err != nil {
					return err
				}
				from = recs[len(recs)-1].Seq + 1
			}
		}
		return nil
	}
}

// captureBatch is the number of records per piece.
const captureBatch = 1024

// encodeStreamPiece is the header piece of s at a snapshot's mark.
func encodeStreamPiece(s *stream, next uint64, disabled, at time.Time) []byte {
	schema := []storage.KeyAttr{s.schema.Partition}
	if s.schema.HasSort() {
		schema = append(schema, s.schema.Sort)
	}
	return tablerec.EncodeStreamPiece(&tablerec.StreamPiece{
		ARN: s.arn, Label: s.label, Table: s.tableName, Region: s.region, View: s.viewType,
		KeySchema: tablerec.KeyElemRecords(s.keySchema), Schema: tablerec.KeyAttrRecords(schema),
		Shard: s.shardID, Created: s.created, Next: next, DisabledAt: disabled, At: at,
	})
}

// capturedStream is a stream read back from a snapshot.
type capturedStream struct {
	s    *stream
	at   time.Time // the mark's time
	live bool      // Load found its table with it enabled
}

// parsePieces reads the streams of a snapshot's pieces.
func (sc *StreamSidecar) parsePieces(pieces [][]byte) ([]*capturedStream, error) {
	var out []*capturedStream
	err := tablerec.ParsePieces(pieces, func(p *tablerec.StreamPiece, recs []streamlog.Record) error {
		c, err := sc.restoreCaptured(p, recs)
		if err != nil {
			return err
		}
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// restoreCaptured makes the stream p describes, with records recs (those
// before a gap dropped: the log trimmed them while the snapshot was
// written, so they were past the retention).
func (sc *StreamSidecar) restoreCaptured(p *tablerec.StreamPiece, recs []streamlog.Record) (*capturedStream, error) {
	for i := len(recs) - 1; i > 0; i-- {
		if recs[i].Seq != recs[i-1].Seq+1 {
			recs = recs[i:]
			break
		}
	}
	schema := tablerec.KeyAttrs(p.Schema)
	if len(schema) == 0 {
		return nil, fmt.Errorf("%w: stream %s: no key schema", tablerec.ErrPiece, p.ARN)
	}
	ks := storage.KeySchema{Partition: schema[0]}
	if len(schema) > 1 {
		ks.Sort = schema[1]
	}
	s := &stream{
		arn: p.ARN, label: p.Label, tableName: p.Table, region: p.Region, viewType: p.View,
		keySchema: tablerec.KeyElems(p.KeySchema), schema: ks, shardID: p.Shard, created: p.Created,
		clock: sc.now, idPrefix: streamlog.EventIDPrefix(p.ARN),
	}
	// The images, parsed from records, get their key attributes back.
	kp := &s.schema
	for i := range recs {
		if recs[i].HasNew {
			recs[i].New = recs[i].New.WithKeySchema(kp)
		}
		if recs[i].HasOld {
			recs[i].Old = recs[i].Old.WithKeySchema(kp)
		}
	}
	log, err := streamlog.Restore(sc.svc.streamRetention(), p.Next, p.DisabledAt, recs)
	if err != nil {
		return nil, fmt.Errorf("%w: stream %s: %v", tablerec.ErrPiece, p.ARN, err)
	}
	s.log = log
	log.Attach(sc.svc.cfg.StreamBudget)
	return &capturedStream{s: s, at: p.At}, nil
}
