package service

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

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
// emulator's snapshots keep them: emulator/snapshots.go). A fork not
// used yet gives its own.
func (s *Service) SnapshotAll() map[string]*storage.Snapshot {
	spaces := s.dbs.forked()
	for _, ns := range s.dbs.all() {
		spaces[ns.key] = ns.db.Snapshot(nil)
	}
	return spaces
}

// RewindAll rewinds every namespace to its snapshot in spaces; one that
// has none (made since) is emptied. A namespace not made yet is forked
// from its snapshot (Fork), not made.
func (s *Service) RewindAll(spaces map[string]*storage.Snapshot) error {
	for key := range s.dbs.forked() {
		if err := s.Fork(key, spaces[key]); err != nil {
			return err
		}
	}
	done := map[string]bool{}
	for _, ns := range s.dbs.all() {
		done[ns.key] = true
		if err := ns.rewind(spaces[ns.key]); err != nil {
			return err
		}
	}
	for key, sp := range spaces {
		if !done[key] {
			if err := s.Fork(key, sp); err != nil {
				return err
			}
		}
	}
	return nil
}

// Forks: a namespace filled from another's snapshot, for the emulator's
// branches (emulator/branches.go), is made at its first use. Until then
// it is one map entry and the snapshot, which its base's DB gives again
// to every fork while the base does not change (storage.DB.Snapshot):
// a thousand forks of one base cost about what its snapshot costs. The
// first use (a request, Namespace, a console view of its tables) makes
// it as a rewind fills an empty namespace: its tables restored from the
// snapshot in O(1) each, then its own catalog, streams and per-namespace
// state; callers meanwhile wait for it. Nothing can tell a fork apart
// from a namespace made at once but memory, and a fork's point-in-time
// history and TTL sweeps begin at its first use: until then nothing
// writes it. With persistence or Config.Hooks, whose records are due at
// the fork, a fork is made at once.

// fork is a namespace forked and not used yet.
type fork struct {
	snap *storage.Snapshot
	once sync.Once
	ns   *Namespace // made by once
}

// Fork makes namespace id hold exactly the tables of snap (nil: none), as
// a rewind does (see Forks above): the namespace is made at its first
// use unless it is made already.
func (s *Service) Fork(id string, snap *storage.Snapshot) error {
	k, ok := s.keyOf(id)
	if !ok {
		return fmt.Errorf("no namespace %q", id)
	}
	n := &s.dbs
	n.mu.Lock()
	if lazy := n.byKey[k] == nil && n.dbs == nil && n.hooks == nil; lazy {
		delete(n.forks, k)
		if snap != nil {
			if n.forks == nil {
				n.forks = make(map[nsKey]*fork)
			}
			k.accessKey, k.region = strings.Clone(k.accessKey), strings.Clone(k.region)
			n.forks[k] = &fork{snap: snap}
		}
		n.mu.Unlock()
		return nil
	}
	n.mu.Unlock()
	return n.get(k).rewind(snap)
}

// Forked returns the snapshot namespace id was forked from (Fork) when
// it has not been used since, else nil: what it holds, read without
// making it.
func (s *Service) Forked(id string) *storage.Snapshot {
	k, _ := s.keyOf(id)
	s.dbs.mu.RLock()
	defer s.dbs.mu.RUnlock()
	if f := s.dbs.forks[k]; f != nil {
		return f.snap
	}
	return nil
}

// forked returns the snapshots of the forks not used yet, by namespace ID.
func (n *namespaces) forked() map[string]*storage.Snapshot {
	n.mu.RLock()
	defer n.mu.RUnlock()
	out := make(map[string]*storage.Snapshot, len(n.forks))
	for k, f := range n.forks {
		out[k.keyString()] = f.snap
	}
	return out
}

// made returns the namespace of fork f of key k, making it at the first
// call, in place of f.
func (n *namespaces) made(k nsKey, f *fork) *Namespace {
	f.once.Do(func() {
		ns, _ := n.newNamespace(k.keyString(), k.region) // no persistence: never refused
		if err := ns.rewind(f.snap); err != nil {
			n.svc.log.Error("cannot fill the forked namespace", "namespace", ns.key, "err", err)
		}
		n.mu.Lock()
		if n.forks[k] == f { // not forked again or dropped meanwhile
			delete(n.forks, k)
			if n.byKey == nil {
				n.byKey = make(map[nsKey]*Namespace)
			}
			n.byKey[k] = ns
		}
		n.mu.Unlock()
		f.ns = ns
	})
	return f.ns
}

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
