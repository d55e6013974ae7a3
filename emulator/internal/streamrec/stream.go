package streamrec

import (
	"sync/atomic"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// DefaultRetention is how long records and disabled streams stay
// readable (24 hours, as on AWS).
const DefaultRetention = 24 * time.Hour

// StreamViewType values, and the StreamStatus of an enabled stream
// (Enabled) and of a disabled one.
const (
	ViewKeysOnly  = "KEYS_ONLY"
	viewNewImage  = "NEW_IMAGE"
	viewOldImage  = "OLD_IMAGE"
	viewNewAndOld = "NEW_AND_OLD_IMAGES"
	Enabled       = "ENABLED"
	Disabled      = "DISABLED"
)

// stream is one table's stream. The fields above log never change.
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
	// the service's doc.go: Observe appends under storage's lock).
	log *streamlog.Log
	// hold holds the records back from Read (hold.go); nil: none.
	hold atomic.Pointer[streamHold]
	// changes hears the stream added to a set or taken out of one
	// (Options.Changes); nil: nobody.
	changes *streamlog.Signal
	// owner is the table the stream is of, as its service knows it
	// (Table.Owner, SetOwner; nil: not known, a stream rebuilt from its
	// sidecar before its table was read back).
	owner atomic.Pointer[owner]
}

// owner holds a stream's Owner.
type owner struct{ v any }

// Stream is a table's stream, enabled or disabled within its retention;
// the zero Stream is none.
type Stream struct{ s *stream }

// ID is what makes a stream itself: its label (and so its ARN), shard
// id, awsRegion and creation time. A table's definition keeps its latest
// stream's, so a replay rebuilds the same stream.
type ID struct {
	Label, Shard, Region string
	Created              time.Time
}

// Table is what a stream takes from its table's definition, and the
// table itself as its service knows it (Owner: opaque here; nil: none),
// which a stream outlives when the table is deleted.
type Table struct {
	ARN, Name string
	KeySchema []tablespec.KeyElem
	Schema    storage.KeySchema
	Owner     any
}

// Options are a service's settings of its streams.
type Options struct {
	Retention time.Duration     // 0: DefaultRetention
	Budget    *streamlog.Budget // the bound of all the streams' bytes (nil: none)
	Clock     func() time.Time  // the stream's clock
	// Changes is notified when a stream made with these options is
	// added to a Set or taken out of one (a table with a stream made, a
	// stream enabled again, one forgotten): the service's, so that a
	// reader waiting for a table's stream to exist wakes (nil: none).
	Changes *streamlog.Signal
}

// WithClock returns o with the clock clock.
func (o Options) WithClock(clock func() time.Time) Options {
	o.Clock = clock
	return o
}

// retention is o.Retention, or DefaultRetention when 0.
func (o Options) retention() time.Duration {
	if o.Retention > 0 {
		return o.Retention
	}
	return DefaultRetention
}

// New returns the stream id of table t with view type view, with no
// records.
func New(t Table, id ID, view string, o Options) Stream {
	arn := t.ARN + "/stream/" + id.Label
	s := Stream{s: &stream{
		arn:       arn,
		label:     id.Label,
		tableName: t.Name,
		region:    id.Region,
		viewType:  view,
		keySchema: t.KeySchema,
		schema:    t.Schema,
		shardID:   id.Shard,
		created:   id.Created,
		clock:     o.Clock,
		idPrefix:  streamlog.EventIDPrefix(arn),
		log:       streamlog.NewIn(o.retention(), o.Budget),
		changes:   o.Changes,
	}}
	s.SetOwner(t.Owner)
	return s
}

// Owner is the table the stream is of, as its service knows it (nil:
// not known), whether the table still exists or not.
func (s Stream) Owner() any {
	if o := s.s.owner.Load(); o != nil {
		return o.v
	}
	return nil
}

// SetOwner makes v the stream's Owner: its table, read back after the
// stream was rebuilt (nil: none).
func (s Stream) SetOwner(v any) {
	if v != nil {
		s.s.owner.Store(&owner{v: v})
	}
}

// IsZero reports whether s is no stream.
func (s Stream) IsZero() bool { return s.s == nil }

// Observer is the stream as its table's storage Observer.
func (s Stream) Observer() storage.Observer { return s.s }

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

// Changed returns a channel closed by the stream's next record or its
// disabling (streamlog.Log.Changed): take it before a Read that finds
// nothing, then wait on it.
func (s Stream) Changed() <-chan struct{} { return s.s.log.Changed() }

// announce tells the stream's Options.Changes that the sets changed.
func (s *stream) announce() {
	if s.changes != nil {
		s.changes.Notify()
	}
}

// Disable closes the stream's shard at now.
func (s Stream) Disable(now time.Time) { s.s.log.Disable(now) }

// state returns the stream's status, its last sequence number (0 while
// open, or when it never had a record) and whether it is past its
// retention (disabled that long ago: forgotten).
func (s *stream) state(now time.Time) (status string, last uint64, gone bool) {
	open, last, gone := s.log.State(now)
	if open {
		return Enabled, 0, false
	}
	return Disabled, last, gone
}

// State returns the stream's StreamStatus at now (Enabled or Disabled) and, once
// disabled, the sequence number of its last record (0: none, or still open).
func (s Stream) State(now time.Time) (status string, last uint64) {
	status, last, _ = s.s.state(now)
	return status, last
}

// Read returns up to limit records starting at sequence number pos (at most maxBytes of
// SizeBytes, at least one record; only the records the stream's hold shows), the
// position after them and whether the shard is closed with nothing after them. A pos
// before the oldest record kept is TrimmedDataAccessException.
func (s Stream) Read(pos uint64, limit, maxBytes int, now time.Time) ([]streamlog.Record, uint64, bool, error) {
	limit, visible := s.s.visibleLimit(pos, limit)
	if !visible {
		// Nothing the hold shows: no record, the position stays, and the
		// shard is not closed while records wait (Read with limit 0 says
		// only whether pos is trimmed).
		_, _, _, err := s.s.log.Read(pos, 0, maxBytes, now, s.SizeBytes)
		if err != nil {
			return nil, 0, false, apierr.New(apierr.ErrTrimmedDataAccess, apierr.MsgTrimmedData)
		}
		return nil, pos, false, nil
	}
	recs, next, closed, err := s.s.log.Read(pos, limit, maxBytes, now, s.SizeBytes)
	if err != nil {
		return nil, 0, false, apierr.New(apierr.ErrTrimmedDataAccess, apierr.MsgTrimmedData)
	}
	return recs, next, closed, nil
}

// SizeBytes is a record's SizeBytes: the key attributes plus the images it
// shows (AWS's and DynamoDB Local's measure).
func (s Stream) SizeBytes(r *streamlog.Record) int {
	n := len(s.s.schema.Partition.Name) + storage.ValueSize(r.Key.Partition)
	if s.s.schema.HasSort() {
		n += len(s.s.schema.Sort.Name) + storage.ValueSize(r.Key.Sort)
	}
	if r.HasNew {
		n += r.New.Size()
	}
	if r.HasOld {
		n += r.Old.Size()
	}
	return n
}

// Bounds returns the sequence numbers of the oldest record kept at now
// and of the next record to come.
func (s Stream) Bounds(now time.Time) (first, next uint64) { return s.s.log.Bounds(now) }

// SkipTo numbers the stream's next record n at the earliest (a restart
// whose records are gone: streamlog.Log.SkipTo).
func (s Stream) SkipTo(n uint64) { s.s.log.SkipTo(n) }

// ARN is the stream's ARN.
func (s Stream) ARN() string { return s.s.arn }

// Label is the stream's label (the last part of its ARN).
func (s Stream) Label() string { return s.s.label }

// TableName is the name of the stream's table.
func (s Stream) TableName() string { return s.s.tableName }

// Region is the region of the stream's records (awsRegion).
func (s Stream) Region() string { return s.s.region }

// ViewType is the stream's StreamViewType.
func (s Stream) ViewType() string { return s.s.viewType }

// ShardID is the id of the stream's one shard.
func (s Stream) ShardID() string { return s.s.shardID }

// Created is when the stream was created.
func (s Stream) Created() time.Time { return s.s.created }

// KeySchema is the key schema of the stream's table.
func (s Stream) KeySchema() []tablespec.KeySchemaElementDesc {
	return tablespec.DescribeKeySchema(s.s.keySchema)
}

// Schema is the key schema of the stream's table, as storage keeps it.
func (s Stream) Schema() storage.KeySchema { return s.s.schema }

// EventIDPrefix is the first half of every record's eventID.
func (s Stream) EventIDPrefix() string { return s.s.idPrefix }
