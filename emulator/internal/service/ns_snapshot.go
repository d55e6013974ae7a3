package service

import (
	"errors"
	"slices"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Snapshots of whole namespaces, which DynamoDB does not have: for test
// suites that load their fixtures once and rewind between tests.
//
// A namespace's snapshot is its storage.DB's (DB.Snapshot: every table,
// its items, indexes and definition record, consistent across the
// namespace's tables, O(1) per table and index). Rewinding a namespace
// to one drops its tables (as DeleteTable does, deletion protection
// notwithstanding) and restores the snapshot's under their names and
// TableIds (DB.RestoreTable: the items and index entries are shared, not
// copied, at one map entry per partition; a table that has not changed
// since the snapshot is left as it is), then rebuilds each table as a
// replay does (catalog_apply.go: its stream, conventions policy, item
// collection tracking and point-in-time recovery history, which starts
// again at the rewind). Both are recorded in the namespace's DB like any
// other change.
//
// What a rewind leaves as it is: the namespace's backups (emulator/internal/backups),
// the clock, ClientRequestTokens and the conventions report. Stream
// records are volatile (catalog_record.go): after a rewind each enabled
// stream is the table's recorded stream, with no records. A rewind is
// not atomic against requests to the same namespace running meanwhile:
// run it between tests.
//
// Memory: a snapshot shares everything with the tables until they
// write (storage/snapshot.go): it costs the nodes and records the tables
// have changed since it was taken, up to about their size. The emulator
// keeps its snapshots until dropped (emulator/snapshots.go).

// SnapshotAll takes a storage snapshot of every namespace, by namespace
// ID: each consistent, the namespaces one after the other (the
// emulator's snapshots keep them: emulator/snapshots.go).
func (s *Service) SnapshotAll() map[string]*storage.Snapshot {
	spaces := make(map[string]*storage.Snapshot)
	for _, ns := range s.dbs.all() {
		spaces[ns.key] = ns.db.Snapshot(nil)
	}
	return spaces
}

// RewindAll rewinds every namespace to its snapshot in spaces; one that
// has none (made since) is emptied.
func (s *Service) RewindAll(spaces map[string]*storage.Snapshot) error {
	done := map[string]bool{}
	for _, ns := range s.dbs.all() {
		done[ns.key] = true
		if err := ns.rewind(spaces[ns.key]); err != nil {
			return err
		}
	}
	for key, sp := range spaces {
		if ns := s.Namespace(key); !done[key] && ns != nil {
			if err := ns.rewind(sp); err != nil {
				return err
			}
		}
	}
	return nil
}

// Rewind makes ns hold exactly the tables of snap (nil: none), as
// RewindAll does each namespace: for the emulator's branches, a namespace
// filled from another's snapshot (emulator/branches.go).
func (ns *Namespace) Rewind(snap *storage.Snapshot) error { return ns.rewind(snap) }

// rewind makes ns hold exactly the tables of snap (nil: none). A table
// that has not changed since the snapshot (storage.Table.Unchanged:
// same name and TableId, no write, index or definition change) is left
// as it is, with its stream's records and its point-in-time history;
// the others are dropped and restored.
func (ns *Namespace) rewind(snap *storage.Snapshot) error {
	ns = ns.registered()
	now := ns.svc.clock()
	kept := map[string]bool{}
	for _, t := range ns.allTables() {
		if snap != nil {
			if ts := snap.Table(t.name); ts != nil && ts.ID() == t.id && t.data.Unchanged(ts) && t.snapshot().status == statusActive {
				kept[t.name] = true
				continue
			}
		}
		_ = t.changeMeta(func(m *tableMeta) (func(bool) error, error) {
			if m.status == statusDeleting {
				return nil, nil
			}
			m.status = statusDeleting
			return func(recorded bool) error {
				if recorded {
					ns.removeTable(t)
					t.stopStreamLocked(now)
				}
				return nil
			}, nil
		})
	}
	// Tables of the DB outside the catalog (none, unless a change
	// failed half way): dropped too.
	for _, st := range ns.db.Tables() {
		if kept[st.Name()] {
			continue
		}
		if err := ns.db.DropTable(st.Name()); err != nil && !errors.Is(err, storage.ErrNoTable) {
			return err
		}
	}
	ns.streamSet().retain(kept)
	if snap == nil {
		return nil
	}
	for _, ts := range snap.Tables() {
		if kept[ts.Name()] {
			continue
		}
		st, err := ns.db.RestoreTable(ts.Name(), ts.ID(), ts)
		if err != nil && !errors.Is(err, storage.ErrNotDurable) {
			return err
		}
		if err := ns.publishStored(st); err != nil {
			return err
		}
	}
	return nil
}

// retain forgets the streams of every table but those named in kept (a
// rewound namespace's restored tables register theirs again).
func (ss *streamSet) retain(kept map[string]bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.list = slices.DeleteFunc(ss.list, func(s *stream) bool { return !kept[s.tableName] })
}
