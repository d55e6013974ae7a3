package service

import (
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/streamrec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// DynamoDB Streams: a table's stream (emulator/internal/streamrec) is the
// storage Observer of its data (storage/observe.go). Storage calls it
// under the table's write lock at commit with each item write that
// changed something, so records come from the one write path, in commit
// order, transactions and batches included, and nothing re-reads a
// table. The core decides when a table's stream starts and stops
// (CreateTable, UpdateTable, DeleteTable, a restore, a load: this file)
// and keeps each namespace's streams (Namespace.streams); the Streams
// API is a feature (emulator/internal/streamsapi) that reads them
// through feature_streams.go.
//
// A stream has one shard, open while the stream is enabled and closed
// when it is disabled or its table deleted. A disabled stream stays
// readable, and listed, for the retention period (24 hours, as on AWS;
// Config.Streams.Retention shortens it), after which it is forgotten.
// Records older than the retention are trimmed as new ones arrive and
// before every read, so a stream's memory is bounded by what its table
// wrote in one retention period. The emulator's clock (the facade's
// clock.go) is the stream's clock, so a test that advances it sees
// records trimmed and iterators expire.

// DefaultStreamRetention is how long records and disabled streams stay
// readable.
const DefaultStreamRetention = streamrec.DefaultRetention

// streamOptions are the service's settings of its streams, on clock.
func (s *Service) streamOptions(clock func() time.Time) streamrec.Options {
	return s.cfg.Streams.WithClock(clock)
}

// StreamSidecar returns the sidecar that keeps namespace id's streams
// across restarts (-dbPath: the edge hands it to the store), made on
// first use: streamrec.Sidecar rebuilds the streams from the log's
// replay and the snapshot's pieces, reading each table's definition
// record with streamDef.
func (s *Service) StreamSidecar(id string) *streamrec.Sidecar {
	return s.sidecars.Get(id, &streamrec.SidecarConfig{Options: s.streamOptions(nil), Clock: s.clock,
		MetaKey: metaKeyTable, Def: s.seams.streamDef, OwnerDef: ownerRecord})
}

// streamDef is the stream a table's definition record describes. Its
// Owner is the table decoded here, with that definition (its tags),
// whether its stream is on or not: the table read back takes its place
// (restoreStream), and a stream whose table is gone keeps it
// (adoptStreamOwners).
func (sm *seams) streamDef(b []byte, ks storage.KeySchema) (streamrec.Def, error) {
	t, m, err := sm.decodeTableRecord(b, ks)
	if err != nil {
		return streamrec.Def{}, err
	}
	t.meta.Store(m)
	d := streamrec.Def{Table: t.streamTable()}
	if m.StreamOn() {
		d.ID, d.View, d.On = streamIDOf(m), *m.Stream.StreamViewType, true
	}
	return d, nil
}

// ownerRecord is the definition record of a stream's Owner (a Table),
// as a snapshot keeps it with the stream.
func ownerRecord(owner any) []byte {
	if o, ok := owner.(Table); ok && o.t.meta.Load() != nil {
		return encodeTableMeta(o.t, o.t.meta.Load())
	}
	return nil
}

// streamTable is what t's stream takes from its definition, and t (its
// Owner, a Table: a feature reading a deleted table's stream finds it).
func (t *table) streamTable() streamrec.Table {
	return streamrec.Table{ARN: t.arn, Name: t.name, KeySchema: t.keySchema, Schema: t.schema, Owner: Table{t: t}}
}

// newStream returns the stream id of t with view type view, on clock.
func (s *Service) newStream(t *table, id streamrec.ID, view string, clock func() time.Time) streamrec.Stream {
	return streamrec.New(t.streamTable(), id, view, s.streamOptions(clock))
}

// streamIDOf is the identity of the stream definition m records.
func streamIDOf(m *tableMeta) streamrec.ID {
	return streamrec.ID{Label: m.StreamLabel, Shard: m.StreamShard, Region: m.StreamRegion, Created: m.StreamCreated}
}

// registerStream creates t's new stream with view type view and
// registers it in the namespace, and keeps its identity in m, t's new
// definition. Its label is now, made later than prev (t's previous
// label) and than the label of every stream of a table of t's name
// (streamrec.Set.Register). It sees no writes until attachStreamLocked
// makes it t's observer; a stream whose definition is not recorded is
// forgotten again (forgetStream).
func (t *table) registerStream(c *call, m *tableMeta, view, prev string) streamrec.Stream {
	now := c.now
	s := c.ns.kept().streams.Register(t.name, prev, now, func(label string) streamrec.Stream {
		return c.svc.newStream(t, streamrec.ID{Label: label, Shard: tablespec.NewShardID(now), Region: c.region, Created: now}, view, c.svc.clock)
	})
	m.StreamLabel, m.StreamShard, m.StreamRegion, m.StreamCreated = s.Label(), s.ShardID(), s.Region(), s.Created()
	return s
}

// attachStreamLocked makes s t's stream, the observer of its data.
// Called with t.mu held (or before t is visible).
func (t *table) attachStreamLocked(s streamrec.Stream) {
	t.data.SetObserver(s.Observer())
	t.liveStream = s
}

// stopStreamLocked detaches t's stream and closes its shard at now.
func (t *table) stopStreamLocked(now time.Time) {
	if t.liveStream.IsZero() {
		return
	}
	t.data.SetObserver(nil)
	t.liveStream.Disable(now)
	t.liveStream = streamrec.Stream{}
}

// prepareStreamLocked registers the stream an UpdateTable from old to m
// starts (the zero Stream when it starts none), keeping its identity in
// m. Called with t.mu held.
func (t *table) prepareStreamLocked(c *call, old *tableMeta, m *tableMeta) streamrec.Stream {
	if m.StreamOn() && !old.StreamOn() {
		return t.registerStream(c, m, *m.Stream.StreamViewType, old.StreamLabel)
	}
	return streamrec.Stream{}
}

// syncStreamLocked starts s (registered by prepareStreamLocked; zero:
// none) or stops t's stream when a recorded change of the definition
// turned it on or off. Called with t.mu held.
func (t *table) syncStreamLocked(old, m *tableMeta, s streamrec.Stream, now time.Time) {
	switch {
	case !s.IsZero():
		t.attachStreamLocked(s)
	case old.StreamOn() && !m.StreamOn():
		t.stopStreamLocked(now)
	}
}
