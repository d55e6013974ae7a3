package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// Snapshots, fault rules and lag: the emulator's own controls, through
// its public API.

func (s *Server) adminTools() []*tool {
	pID := prop{name: "id", typ: "string", desc: `a snapshot's id, from snapshot_create, snapshot_list or a tool's _dynamoemu note`}
	return []*tool{
		{name: "snapshot_create", title: "Take a snapshot", write: true,
			schema: schema{props: []prop{{name: "label", typ: "string", desc: `a name to recognise it by, e.g. "before the migration"`}}},
			desc:   `Takes a snapshot of every table of every namespace (items, indexes, definitions) and answers its id. It costs O(1) whatever the data's size, then holds what the tables change after it until snapshot_delete. Example: {"label": "fixtures loaded"}.`,
			run:    s.createSnapshot},
		{name: "snapshot_list", title: "List snapshots", schema: schema{},
			desc: `Lists the snapshots this MCP server took, oldest first: id, label, why (snapshot_create, or the change an automatic snapshot came before), automatic or not, when. The server keeps the latest automatic ones only. Example: {}.`,
			run: func(context.Context, json.RawMessage) (any, error) {
				return map[string]any{"snapshots": s.snaps.list()}, nil
			}},
		{name: "snapshot_restore", title: "Restore a snapshot", write: true, destructive: true, schema: schema{props: []prop{pID}, required: []string{"id"}},
			desc: `Rewinds every table of every namespace to a snapshot: tables made since are gone, deleted ones are back, items are as they were. Backups, the clock and stream records are not rewound. The snapshot is kept: restore it again at will. Example: {"id": "snap-3"}.`,
			run:  s.restoreSnapshot},
		{name: "snapshot_delete", title: "Delete a snapshot", write: true, destructive: true, schema: schema{props: []prop{pID}, required: []string{"id"}},
			desc: `Forgets a snapshot for good, freeing what it held: it can no longer be restored. Example: {"id": "snap-3"}.`,
			run:  s.deleteSnapshot},
		{name: "stream_handlers", title: "Stream handlers", schema: schema{},
			desc: `Lists the event source mappings (stream handlers: a table's stream calling a function, docs/stream-handlers.md) with their state, function, stream, position, invocations, function errors, records filtered and discarded, last batch size, iterator age and last error. Example: {}.`,
			run: func(context.Context, json.RawMessage) (any, error) {
				return map[string]any{"mappings": s.emu.Streams().Mappings()}, nil
			}},
		{name: "stream_handlers_drain", title: "Drain the stream handlers",
			schema: schema{props: []prop{{name: "timeoutSeconds", typ: "number", desc: `how long to wait (default 30)`}}},
			desc:   `Waits until every enabled event source mapping handled every record written before the call (delivered, filtered out, or sent to its on-failure destination), or answers which mappings are stuck and their last errors. Example: {"timeoutSeconds": 10}.`,
			run:    s.drainStreamHandlers},
		{name: "faults_get", title: "Fault rules", schema: schema{},
			desc: `Shows the fault-injection rules (which calls get throttled, conflicted, failed or delayed) and per rule how often each fired, with the recent events. Example: {}.`,
			run: func(context.Context, json.RawMessage) (any, error) {
				seed, rules := s.emu.Faults().Rules()
				return map[string]any{"seed": seed, "rules": rules, "stats": s.emu.Faults().Stats()}, nil
			}},
		{name: "faults_set", title: "Set fault rules", write: true,
			schema: schema{props: []prop{{name: "rules", typ: "object", desc: `the rules file's JSON (docs/faults.md), e.g. {"seed": 1, "rules": [{"table": "Orders", "operations": ["PutItem"], "fault": "ProvisionedThroughputExceeded", "probability": 0.2}]}; faults: TransactionConflict, TransactionInProgress, ConditionalCheckFailed, InternalServerError, RequestLimitExceeded, Throttling, ProvisionedThroughputExceeded, Delay`}},
				required: []string{"rules"}},
			desc: `Replaces the fault-injection rules: the matching calls (by table, index, operation, key or key prefix) get the rule's fault with a probability, every Nth time or the first N times. A bad rule is an error naming it, and the old rules stay.`,
			run:  s.setFaults},
		{name: "faults_clear", title: "Clear fault rules", write: true, schema: schema{},
			desc: `Removes every fault-injection rule. Example: {}.`,
			run: func(context.Context, json.RawMessage) (any, error) {
				s.emu.Faults().Clear()
				return map[string]bool{"cleared": true}, nil
			}},
		{name: "lag_list", title: "Lag gates", schema: schema{},
			desc: `Lists the lag gates: which GSIs, eventually consistent reads and streams show writes late, by how much or held, and how many writes each holds back. Example: {}.`,
			run: func(context.Context, json.RawMessage) (any, error) {
				return map[string]any{"lags": s.emu.Lags().List()}, nil
			}},
		{name: "lag_set", title: "Set lag", write: true,
			schema: schema{props: []prop{
				{name: "table", typ: "string", desc: `the table, e.g. "Orders"`},
				{name: "index", typ: "string", desc: "a GSI whose entries show writes late (or reads or stream)"},
				{name: "reads", typ: "boolean", desc: "true: the table's eventually consistent reads show writes late"},
				{name: "stream", typ: "boolean", desc: "true: the table's stream records arrive late"},
				{name: "delay", typ: "string", desc: `how late, a Go duration, e.g. "250ms" ("0s": at once)`},
				{name: "hold", typ: "boolean", desc: "true: hold every write back until release"},
				{name: "release", typ: "boolean", desc: "true: let held writes through"},
			}, required: []string{"table"}},
			desc: `Makes eventual consistency visible on demand: a GSI, the eventually consistent reads or the stream of a table show its writes after a delay, or not until released. Give the table, one of index, reads or stream, and one of delay, hold or release.
Example: {"table": "Orders", "index": "byStatus", "delay": "500ms"}.`,
			run: s.setLag},
	}
}

// createSnapshot is snapshot_create.
func (s *Server) createSnapshot(_ context.Context, args json.RawMessage) (any, error) {
	var in struct{ Label string }
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	return s.snaps.take(s.emu, in.Label, "snapshot_create", false), nil
}

// restoreSnapshot is snapshot_restore.
func (s *Server) restoreSnapshot(_ context.Context, args json.RawMessage) (any, error) {
	return bySnapshotID(args, "restored", s.emu.Branches().Restore)
}

// deleteSnapshot is snapshot_delete.
func (s *Server) deleteSnapshot(_ context.Context, args json.RawMessage) (any, error) {
	return bySnapshotID(args, "deleted", func(id string) error { return s.snaps.drop(s.emu, id) })
}

// bySnapshotID does do to the snapshot args' id names and answers
// {done: id}.
func bySnapshotID(args json.RawMessage, done string, do func(id string) error) (any, error) {
	var in struct{ ID string }
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	if err := do(in.ID); err != nil {
		return nil, snapshotErr(err, in.ID)
	}
	return map[string]string{done: in.ID}, nil
}

// drainStreamHandlers is stream_handlers_drain: it waits at most
// timeoutSeconds (30 when not given) and answers the stuck mappings.
func (s *Server) drainStreamHandlers(ctx context.Context, args json.RawMessage) (any, error) {
	var in struct{ TimeoutSeconds float64 }
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	if in.TimeoutSeconds <= 0 {
		in.TimeoutSeconds = 30
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(in.TimeoutSeconds*float64(time.Second)))
	defer cancel()
	if err := s.emu.Streams().Drain(ctx); err != nil {
		return map[string]any{"drained": false, "error": err.Error(), "mappings": s.emu.Streams().Mappings()}, nil
	}
	return map[string]any{"drained": true}, nil
}

// setFaults is faults_set: a bad rule leaves the old rules in place.
func (s *Server) setFaults(_ context.Context, args json.RawMessage) (any, error) {
	var in struct{ Rules json.RawMessage }
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	seed, rules, err := emulator.ParseFaultRules(in.Rules)
	if err != nil {
		return nil, inputErrorf("rules: %v", err)
	}
	if err := s.emu.Faults().SetRules(seed, rules); err != nil {
		return nil, inputErrorf("rules: %v", err)
	}
	return map[string]any{"seed": seed, "rules": len(rules)}, nil
}

// snapshotErr says that an id is unknown.
func snapshotErr(err error, id string) error {
	if errors.Is(err, emulator.ErrNoSnapshot) {
		return inputErrorf("no snapshot %q: snapshot_list shows the server's", id)
	}
	return err
}

// setLag is lag_set.
func (s *Server) setLag(_ context.Context, args json.RawMessage) (any, error) {
	var in struct {
		Table, Index, Delay string
		Reads, Stream       bool
		Hold, Release       bool
	}
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	views, actions := 0, 0
	for _, b := range []bool{in.Index != "", in.Reads, in.Stream} {
		if b {
			views++
		}
	}
	for _, b := range []bool{in.Delay != "", in.Hold, in.Release} {
		if b {
			actions++
		}
	}
	if views != 1 || actions != 1 {
		return nil, inputErrorf("give one of index, reads or stream, and one of delay, hold or release")
	}
	var g emulator.LagGate
	var err error
	ak, region := s.opts.AccessKey, s.opts.Region
	switch {
	case in.Index != "":
		g, err = s.emu.Lags().Index(ak, region, in.Table, in.Index)
	case in.Reads:
		g, err = s.emu.Lags().Reads(ak, region, in.Table)
	default:
		g, err = s.emu.Lags().Stream(ak, region, in.Table)
	}
	if err != nil {
		return nil, inputErrorf("%v", err)
	}
	switch {
	case in.Hold:
		g.Hold()
	case in.Release:
		g.Release()
	default:
		d, err := time.ParseDuration(in.Delay)
		if err != nil || d < 0 {
			return nil, inputErrorf("delay %q is not a duration such as 250ms", in.Delay)
		}
		g.SetDelay(d)
	}
	delay, held := g.Settings()
	view := "index " + in.Index
	switch {
	case in.Reads:
		view = "reads"
	case in.Stream:
		view = "stream"
	}
	return map[string]any{"table": in.Table, "view": view, "delay": delay.String(), "held": held, "pending": g.Pending()}, nil
}
