package service

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// DynamoDB Streams: a table's stream is the storage Observer of its data
// (storage/observe.go). Storage calls it under the table's write lock at
// commit with each item write that changed something, so records come
// from the one write path, in commit order, transactions and batches
// included (one record per item), and nothing re-reads a table. Observe
// only appends a record under the stream's own lock: the images are the
// table's own immutable stored records (storage.EncodedItem), kept without
// decoding or copying whatever the view type, and GetRecords writes them
// out as JSON straight from the records. The Streams API is a feature
// (emulator/internal/streamsapi) that reads the streams through
// feature_streams.go.
//
// A stream has one shard, open while the stream is enabled and closed
// (EndingSequenceNumber set) when it is disabled or its table deleted. A
// disabled stream stays readable, and listed, for the retention period
// (24 hours, as on AWS; Config.StreamRetention shortens it), after which
// it is forgotten. Records older than the retention are trimmed as new
// ones arrive and before every read, so a stream's memory is bounded by
// what its table wrote in one retention period. The emulator's clock
// (the facade's clock.go) is the stream's clock, so a test that advances
// it sees records trimmed and iterators expire.

// DefaultStreamRetention is how long records and disabled streams stay
// readable.
const DefaultStreamRetention = 24 * time.Hour

// StreamViewType values.
const (
	viewKeysOnly   = "KEYS_ONLY"
	viewNewImage   = "NEW_IMAGE"
	viewOldImage   = "OLD_IMAGE"
	viewNewAndOld  = "NEW_AND_OLD_IMAGES"
	streamEnabled  = "ENABLED"
	streamDisabled = "DISABLED"
)

// stream is one table's stream. The fields above mu never change.
type stream struct {
	arn, label string
	tableName  string
	region     string // awsRegion of the records
	viewType   string
	keySchema  []tablespec.KeyElem
	schema     storage.KeySchema
	shardID    string
	created    time.Time
	clock      func() time.Time
	idPrefix   string // the first half of every eventID
	// log is the stream's records (its lock is last in the lock order,
	// doc.go: Observe appends under storage's lock).
	log *streamlog.Log
	// hold holds the records back from GetRecords (a stage's,
	// stage_read.go: HoldStream); nil: none.
	hold atomic.Pointer[streamHold]
}

// streamID is what makes a stream itself: its label (and so its ARN),
// shard id, awsRegion and creation time. A table's definition keeps its
// latest stream's (tableMeta.streamLabel, streamShard, streamRegion,
// streamCreated), so a replay rebuilds the same stream.
type streamID struct {
	label, shard, region string
	created              time.Time
}

// newStream returns the stream id of t with view type view.
func (s *Service) newStream(t *table, id streamID, view string) *stream {
	return &stream{
		arn:       t.arn + "/stream/" + id.label,
		label:     id.label,
		tableName: t.name,
		region:    id.region,
		viewType:  view,
		keySchema: t.keySchema,
		schema:    t.schema,
		shardID:   id.shard,
		created:   id.created,
		clock:     s.clock,
		idPrefix:  streamlog.EventIDPrefix(t.arn + "/stream/" + id.label),
		log:       streamlog.NewIn(s.streamRetention(), s.cfg.StreamBudget),
	}
}

// Observe records one committed item write (storage.Observer).
func (s *stream) Observe(w storage.Committed) {
	now := s.clock()
	// The record lives for the stream's retention (a day): it keeps its
	// own copy of the key, which may be a view of the request's body
	// (and so may the images' own key; Clone repoints them).
	w = w.Clone()
	r := streamlog.Record{At: now.Unix(), Key: w.Key, Service: w.Origin == storage.OriginService}
	switch {
	case !w.HadOld:
		r.Event = streamlog.Insert
	case !w.HasNew:
		r.Event = streamlog.Remove
	default:
		r.Event = streamlog.Modify
	}
	if s.viewType == viewNewImage || s.viewType == viewNewAndOld {
		r.New, r.HasNew = w.New, w.HasNew
	}
	if s.viewType == viewOldImage || s.viewType == viewNewAndOld {
		r.Old, r.HasOld = w.Old, w.HadOld
	}
	if h := s.hold.Load(); h != nil {
		h.h.Stamp()
	}
	s.log.Append(r, now)
}

// disable closes the stream's shard at now.
func (s *stream) disable(now time.Time) { s.log.Disable(now) }

// state returns the stream's status, its last sequence number (0 while
// open, or when it never had a record) and whether it is past its
// retention (disabled that long ago: forgotten).
func (s *stream) state(now time.Time) (status string, last uint64, gone bool) {
	open, last, gone := s.log.State(now)
	if open {
		return streamEnabled, 0, false
	}
	return streamDisabled, last, gone
}

// read returns up to limit records starting at sequence number pos (at
// most maxBytes of SizeBytes, at least one record), the position after
// them and whether the shard is closed with nothing after them. A pos
// before the oldest record kept is TrimmedDataAccessException.
func (s *stream) read(pos uint64, limit, maxBytes int, now time.Time) ([]streamlog.Record, uint64, bool, error) {
	limit, visible := s.visibleLimit(pos, limit)
	if !visible {
		// Nothing the gate shows: no record, the position stays, and the
		// shard is not closed while records wait (Read with limit 0 says
		// only whether pos is trimmed).
		_, _, _, err := s.log.Read(pos, 0, maxBytes, now, s.sizeBytes)
		if err != nil {
			return nil, 0, false, apierr.New(apierr.ErrTrimmedDataAccess, apierr.MsgTrimmedData)
		}
		return nil, pos, false, nil
	}
	recs, next, closed, err := s.log.Read(pos, limit, maxBytes, now, s.sizeBytes)
	if err != nil {
		return nil, 0, false, apierr.New(apierr.ErrTrimmedDataAccess, apierr.MsgTrimmedData)
	}
	return recs, next, closed, nil
}

// sizeBytes is a record's SizeBytes: the key attributes plus the images it
// shows (AWS's and DynamoDB Local's measure).
func (s *stream) sizeBytes(r *streamlog.Record) int {
	n := len(s.schema.Partition.Name) + storage.ValueSize(r.Key.Partition)
	if s.schema.HasSort() {
		n += len(s.schema.Sort.Name) + storage.ValueSize(r.Key.Sort)
	}
	if r.HasNew {
		n += r.New.Size()
	}
	if r.HasOld {
		n += r.Old.Size()
	}
	return n
}

// streamSet is a namespace's streams, enabled or disabled within their
// retention, in creation order.
type streamSet struct {
	mu   sync.Mutex // guards list; held while all takes stream.mu (lock order in doc.go)
	list []*stream
}

// register adds the stream mk makes for the table called table. mk is
// given the stream's label: now, made later than prev and than the label
// of every stream of a table of that name in the set (nextStreamLabel).
// Labels are chosen and streams added under ss.mu, so a table deleted and
// created again within a millisecond, even by two requests at once, never
// gets its predecessor's stream ARN (AWS takes longer than that to create
// a table).
func (ss *streamSet) register(table, prev string, now time.Time, mk func(label string) *stream) *stream {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for _, s := range ss.list {
		if s.tableName == table && s.label > prev {
			prev = s.label
		}
	}
	s := mk(tablespec.NextStreamLabel(prev, now))
	ss.list = append(ss.list, s)
	return s
}

// add adds s, a stream rebuilt from a table's definition.
func (ss *streamSet) add(s *stream) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.list = append(ss.list, s)
}

// remove forgets s, a stream whose table never became visible.
func (ss *streamSet) remove(s *stream) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.list = slices.DeleteFunc(ss.list, func(x *stream) bool { return x == s })
}

// all returns the streams not yet forgotten at now, forgetting the others.
func (ss *streamSet) all(now time.Time) []*stream {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.list = slices.DeleteFunc(ss.list, func(s *stream) bool {
		_, _, gone := s.state(now)
		return gone
	})
	return slices.Clone(ss.list)
}

// find returns the stream with ARN arn, or nil.
func (ss *streamSet) find(arn string, now time.Time) *stream {
	for _, s := range ss.all(now) {
		if s.arn == arn {
			return s
		}
	}
	return nil
}

// registerStream creates t's new stream with view type view and
// registers it in the namespace, and keeps its identity in m, t's new
// definition. Its label is now, made later than prev (t's previous
// label) and than the label of every stream of a table of t's name
// (streamSet.register). It sees no writes until attachStreamLocked makes
// it t's observer; a stream whose definition is not recorded is
// forgotten again (forgetStream).
func (t *table) registerStream(c *call, m *tableMeta, view, prev string) *stream {
	now := c.Now()
	s := c.ns.streamSet().register(t.name, prev, now, func(label string) *stream {
		return c.svc.newStream(t, streamID{label: label, shard: tablespec.NewShardID(now), region: c.region, created: now}, view)
	})
	m.streamLabel, m.streamShard, m.streamRegion, m.streamCreated = s.label, s.shardID, s.region, s.created
	return s
}

// attachStreamLocked makes s t's stream, the observer of its data.
// Called with t.mu held (or before t is visible).
func (t *table) attachStreamLocked(s *stream) {
	t.data.SetObserver(s)
	t.liveStream = s
}

// stopStreamLocked detaches t's stream and closes its shard at now.
func (t *table) stopStreamLocked(now time.Time) {
	if t.liveStream == nil {
		return
	}
	t.data.SetObserver(nil)
	t.liveStream.disable(now)
	t.liveStream = nil
}

// streamOn reports whether definition m has its stream enabled.
func (m *tableMeta) streamOn() bool { return m.stream != nil && *m.stream.StreamEnabled }

// prepareStreamLocked registers the stream an UpdateTable from old to m
// starts (nil when it starts none), keeping its identity in m. Called
// with t.mu held.
func (t *table) prepareStreamLocked(c *call, old *tableMeta, m *tableMeta) *stream {
	if m.streamOn() && !old.streamOn() {
		return t.registerStream(c, m, *m.stream.StreamViewType, old.streamLabel)
	}
	return nil
}

// syncStreamLocked starts s (registered by prepareStreamLocked; nil:
// none) or stops t's stream when a recorded change of the definition
// turned it on or off. Called with t.mu held.
func (t *table) syncStreamLocked(old, m *tableMeta, s *stream, now time.Time) {
	switch {
	case s != nil:
		t.attachStreamLocked(s)
	case old.streamOn() && !m.streamOn():
		t.stopStreamLocked(now)
	}
}

// streamRetention is StreamRetention, or DefaultStreamRetention when 0.
func (s *Service) streamRetention() time.Duration {
	if s.cfg.StreamRetention > 0 {
		return s.cfg.StreamRetention
	}
	return DefaultStreamRetention
}

// streamSet returns the namespace's streams (the registered namespace's,
// when ns is a namespace nobody had created anything in: see
// Namespace.home; it is registered now).
func (ns *Namespace) streamSet() *streamSet {
	if ns.home != nil {
		ns = ns.home.get(ns.homeKey)
	}
	return &ns.streams
}
