package service

import (
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A namespace's streams as a feature that reads them sees them (the Streams API, the
// event source mappings). The streams themselves are the core's: a table's stream is the
// storage Observer of its data on the one write path (streams.go), kept across restarts
// (streams_persist.go) and held back by a stage's StreamHold (stage_read.go: the lag gates); a feature reads them.

// Stream is a table's stream, enabled or disabled within its retention.
type Stream struct{ s *stream }

// Streams returns the request namespace's streams not yet forgotten at
// the request's time, in creation order.
func (c Call) Streams() []Stream {
	all := c.c.ns.streams.all(c.c.Now())
	out := make([]Stream, len(all))
	for i, s := range all {
		out[i] = Stream{s: s}
	}
	return out
}

// Streams is Call.Streams outside a request, at now (the event source mappings' pollers).
func (ns *Namespace) Streams(now time.Time) []Stream {
	return Call{c: &call{ns: ns, now: now}}.Streams()
}

// Stream returns the request namespace's stream of ARN arn, or false (none, or forgotten).
func (c Call) Stream(arn string) (Stream, bool) {
	s := c.c.ns.streams.find(arn, c.c.Now())
	return Stream{s: s}, s != nil
}

// Region is the region whose requests select the namespace; "" for the
// shared namespace (Config.SharedDB), which holds every region's tables.
func (s Space) Region() string { return s.ns.region }

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
func (s Stream) KeySchema() []KeySchemaElementDesc { return tablespec.DescribeKeySchema(s.s.keySchema) }

// Schema is the key schema of the stream's table, as storage keeps it.
func (s Stream) Schema() storage.KeySchema { return s.s.schema }

// EventIDPrefix is the first half of every record's eventID.
func (s Stream) EventIDPrefix() string { return s.s.idPrefix }

// Enabled is the StreamStatus of an enabled stream (its shard open);
// a disabled one's is "DISABLED".
const Enabled = streamEnabled

// State returns the stream's StreamStatus at now (Enabled or "DISABLED") and, once
// disabled, the sequence number of its last record (0: none, or still open).
func (s Stream) State(now time.Time) (status string, last uint64) {
	status, last, _ = s.s.state(now)
	return status, last
}

// Bounds returns the sequence numbers of the oldest record kept at now
// and of the next record to come.
func (s Stream) Bounds(now time.Time) (first, next uint64) { return s.s.log.Bounds(now) }

// Read returns up to limit records starting at sequence number pos (at most maxBytes of
// SizeBytes, at least one record; only the records the stream's lag gate shows), the
// position after them and whether the shard is closed with nothing after them. A pos
// before the oldest record kept is TrimmedDataAccessException.
func (s Stream) Read(pos uint64, limit, maxBytes int, now time.Time) ([]streamlog.Record, uint64, bool, error) {
	return s.s.read(pos, limit, maxBytes, now)
}

// SizeBytes is a record's SizeBytes: its key attributes plus the images it shows.
func (s Stream) SizeBytes(r *streamlog.Record) int { return s.s.sizeBytes(r) }
