package service

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Snapshots of whole namespaces, which DynamoDB does not have: for test
// suites that load their fixtures once and rewind between tests, and
// forks of a namespace (the emulator's branches). A namespace's snapshot
// is its storage.DB's (O(1) per table and index, copy-on-write); a
// rewind drops the tables that changed (deletion protection
// notwithstanding), restores the snapshot's under their names and
// TableIds without copying items (DB.RestoreTable) and rebuilds each as
// a replay does (catalog_apply.go). What it keeps and what it costs:
// docs/backups.md, "Snapshots" and "Branches". Not atomic against
// requests to the same namespace running meanwhile.

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

// fork is a namespace forked (Fork) and not used yet: a map entry and
// its snapshot, which its base's DB gives every fork while the base does
// not change. Its reads read its view; its first other use makes it as
// a rewind fills an empty namespace, and callers meanwhile wait
// (docs/backups.md, "Branches").
type fork struct {
	snap *storage.Snapshot
	once sync.Once
	ns   *Namespace // made by once
	view *view      // what its reads share with the other forks of snap
}

// view is a namespace filled from snapshot at a fork's first read, read by its forks till made.
type view struct {
	once  sync.Once
	ns    *Namespace
	forks int // guarded by namespaces.mu
}

// reader returns for fork k an unregistered namespace (Namespace.home) holding v's tables.
func (v *view) reader(n *namespaces, k nsKey, snap *storage.Snapshot) *Namespace {
	v.once.Do(func() {
		v.ns, _ = n.newNamespace("view", k.region)
		_ = v.ns.rewind(snap) // no persistence: never refused
	})
	return &Namespace{key: k.keyString(), region: k.region, svc: n.svc, db: v.ns.db, tables: v.ns.tables, home: n, homeKey: k}
}

// unfork drops fork k, and its view with its last fork; n.mu held.
func (n *namespaces) unfork(k nsKey) {
	if f := n.forks[k]; f != nil {
		delete(n.forks, k)
		if f.view.forks--; f.view.forks == 0 {
			delete(n.views, f.snap)
		}
	}
}

// Fork makes namespace id hold exactly the tables of snap (nil: none),
// as a rewind does, for the emulator's branches: at the namespace's first
// use, unless it is made already or its records are due now (persistence,
// Config.Hooks).
func (s *Service) Fork(id string, snap *storage.Snapshot) error {
	k, ok := s.keyOf(id)
	if !ok {
		return fmt.Errorf("no namespace %q", id)
	}
	n := &s.dbs
	n.mu.Lock()
	if n.byKey[k] != nil || n.dbs != nil || n.hooks != nil {
		n.mu.Unlock()
		return n.get(k).rewind(snap)
	}
	defer n.mu.Unlock()
	n.unfork(k)
	if snap != nil {
		v := n.views[snap]
		if v == nil {
			v = &view{}
			n.views[snap] = v
		}
		v.forks++
		n.forks[k] = &fork{snap: snap, view: v}
	}
	return nil
}

// Forked returns the snapshot of namespace id when it is a fork not used
// yet, else nil: what it holds, read without making it.
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

// made returns the namespace of fork f of key k (copied), made at the
// first call and registered in f's place unless f was forked again since.
func (n *namespaces) made(k nsKey, f *fork) *Namespace {
	f.once.Do(func() {
		k.accessKey, k.region = strings.Clone(k.accessKey), strings.Clone(k.region)
		ns, _ := n.newNamespace(k.keyString(), k.region) // no persistence: never refused
		if err := ns.rewind(f.snap); err != nil {
			n.svc.log.Error("cannot fill the forked namespace", "namespace", ns.key, "err", err)
		}
		n.mu.Lock()
		if n.forks[k] == f {
			n.unfork(k)
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
	ns.streamSet().Retain(kept)
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
