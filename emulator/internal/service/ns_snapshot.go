package service

import (
	"errors"
	"fmt"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Snapshots of whole namespaces, which DynamoDB does not have: for test
// suites that load their fixtures once and rewind between tests, and
// forks of a namespace (the emulator's branches). A namespace's snapshot
// is its storage.DB's (O(1) per table and index, copy-on-write); a
// rewind drops the tables that changed (deletion protection
// notwithstanding), restores the snapshot's under their names and
// TableIds without copying items (DB.RestoreTable) and rebuilds each as
// a replay does (catalog_apply.go). A fork is a new namespace holding the
// catalog the forks of its snapshot share (catalog.go); own gives it its
// own at its first change, and the shared one goes with its last fork.
// What it keeps and what it costs: docs/backups.md, "Snapshots" and
// "Branches". Not atomic against requests to the same namespace running
// meanwhile.

// errShared refuses a change of a shared catalog's DB: a bug caught.
var errShared = errors.New("service: a change of a catalog forks share")

// SnapshotAll takes a storage snapshot of every namespace, by namespace
// ID: each consistent, the namespaces one after the other (the
// emulator's snapshots keep them: emulator/snapshots.go). A fork not
// changed yet gives the snapshot it was forked from.
func (s *Service) SnapshotAll() map[string]*storage.Snapshot {
	spaces := map[string]*storage.Snapshot{}
	for _, ns := range s.dbs.all() {
		if c := ns.cat.Load(); c.frozen {
			spaces[ns.key] = c.snap
		} else {
			spaces[ns.key] = c.db.Snapshot(nil)
		}
	}
	return spaces
}

// RewindAll rewinds every namespace to its snapshot in spaces; one that
// has none (made since) is emptied, and a fork not changed yet is forked
// again (Fork), or dropped.
func (s *Service) RewindAll(spaces map[string]*storage.Snapshot) error {
	done := map[string]bool{}
	for _, ns := range s.dbs.all() {
		done[ns.key] = true
		rewind := ns.rewind
		if ns.cat.Load().frozen {
			rewind = func(sp *storage.Snapshot) error { return s.Fork(ns.key, sp) }
		}
		if err := rewind(spaces[ns.key]); err != nil {
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

// Fork makes namespace id hold exactly the tables of snap, for the
// emulator's branches: a new namespace of id holding snap's shared
// catalog, in place of the one id had, which is dropped with all it holds
// (nil snap: only that). When records are due now (persistence,
// Config.Hooks), the namespace owns its catalog at once instead and is
// rewound to snap, so that the fork is on disk.
func (s *Service) Fork(id string, snap *storage.Snapshot) error {
	k, ok := s.keyOf(id)
	if !ok {
		return fmt.Errorf("no namespace %q", id)
	}
	n := &s.dbs
	if n.dbs != nil || n.hooks != nil {
		return n.get(k).rewind(snap)
	}
	var c, gone *catalog
	if snap != nil {
		c = n.sharedOf(snap, k.region)
	}
	n.mu.Lock()
	old := n.byKey[k]
	if old == nil {
		old = n.idle[k].Value()
	}
	delete(n.byKey, k)
	delete(n.idle, k)
	if c != nil {
		ns := n.newNamespace(k, c)
		n.byKey[ns.nk] = ns
	}
	if old != nil {
		old.dropped = true
		gone = n.releaseLocked(old.cat.Load())
	}
	n.mu.Unlock()
	switch {
	case gone != nil:
		gone.reader.closed()
	case old != nil && !old.cat.Load().frozen:
		old.closed()
		s.tokens.Forget(old) // its ClientRequestTokens (idempotency.go)
	}
	return nil
}

// closed tells the Closers that ns is gone (feature_lifecycle.go).
func (ns *Namespace) closed() {
	for _, c := range closers {
		c.Closed(Space{ns: ns})
	}
}

// sharedOf returns the shared catalog of snap, made if no fork holds one,
// held by one more fork.
func (n *namespaces) sharedOf(snap *storage.Snapshot, region string) *catalog {
	n.mu.Lock()
	c := n.shared[snap]
	if c == nil {
		n.mu.Unlock()
		// Made with no lock held: a catalog restores its tables (O(1)
		// each) into a DB that refuses every change, for a reader
		// namespace no request reaches, which keeps no state.
		c = &catalog{db: storage.NewDB(nil), frozen: true, snap: snap, reader: &Namespace{nk: nsKey{region: region}, svc: n.svc}}
		c.reader.cat.Store(c)
		if err := c.reader.restore(c, snap, nil); err != nil { // no hook: never refused
			n.svc.log.Error("cannot fill a shared catalog", "err", err)
		}
		c.db.WrapHook(func(storage.Hook) storage.Hook { return failingHook{errShared} })
		n.mu.Lock()
		if made := n.shared[snap]; made != nil { // by another fork meanwhile
			c = made
		}
		n.shared[snap] = c
	}
	c.forks++
	n.mu.Unlock()
	return c
}

// releaseLocked lets go of c, the catalog of a namespace dropped or given
// its own, and returns c when no fork holds it any more (its reader is to
// be closed); n.mu is held.
func (n *namespaces) releaseLocked(c *catalog) *catalog {
	if c.snap == nil || !c.frozen {
		return nil // the empty catalog, or a namespace's own
	}
	if c.forks--; c.forks > 0 {
		return nil
	}
	if n.shared[c.snap] == c {
		delete(n.shared, c.snap)
	}
	return c
}

// own returns ns's own catalog, made at the first call if it holds a
// shared one (copy-on-write): empty for a namespace nobody made anything
// in, for a fork filled as a rewind fills an empty namespace (its tables
// restored in O(1) each, then its catalog, streams and per-namespace
// state). ns is kept from then on. Other callers wait; readers read the
// shared catalog until the own one, filled, replaces it.
func (ns *Namespace) own() *catalog {
	if c := ns.cat.Load(); !c.frozen || c.reader == ns {
		return c // its own, or a shared catalog's reader, which changes nothing
	}
	ns.ownMu.Lock()
	defer ns.ownMu.Unlock()
	old := ns.cat.Load()
	if !old.frozen {
		return old
	}
	n := &ns.svc.dbs
	c, ok := n.newCatalog(ns)
	if !ok {
		return c // refusing every change; the next use tries again
	}
	if old.snap != nil {
		if err := ns.restore(c, old.snap, nil); err != nil { // no persistence: never refused
			ns.svc.log.Error("cannot fill the forked namespace", "namespace", ns.key, "err", err)
		}
	}
	n.mu.Lock()
	ns.cat.Store(c)
	var gone *catalog
	if !ns.dropped {
		gone = n.releaseLocked(old)
		n.byKey[ns.nk] = ns
		delete(n.idle, ns.nk)
	}
	n.mu.Unlock()
	if gone != nil {
		gone.reader.closed()
	}
	return c
}

// Forked returns the snapshot of namespace id when it is a fork not
// changed yet (sharing its catalog), else nil.
func (s *Service) Forked(id string) *storage.Snapshot {
	k, _ := s.keyOf(id)
	s.dbs.mu.RLock()
	ns := s.dbs.byKey[k]
	s.dbs.mu.RUnlock()
	if ns != nil && ns.cat.Load().frozen {
		return ns.cat.Load().snap
	}
	return nil
}

// rewind makes ns hold exactly the tables of snap (nil: none). A table
// that has not changed since the snapshot (storage.Table.Unchanged:
// same name and TableId, no write, index or definition change) is left
// as it is, with its stream's records and its point-in-time history;
// the others are dropped and restored.
func (ns *Namespace) rewind(snap *storage.Snapshot) error {
	c := ns.own()
	now := ns.svc.clock()
	kept := map[string]bool{}
	for _, t := range c.allTables() {
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
	for _, st := range c.db.Tables() {
		if kept[st.Name()] {
			continue
		}
		if err := c.db.DropTable(st.Name()); err != nil && !errors.Is(err, storage.ErrNoTable) {
			return err
		}
	}
	ns.streams.Retain(kept)
	if snap == nil {
		return nil
	}
	return ns.restore(c, snap, kept)
}

// restore restores the tables of snap but those in kept into c, ns's
// catalog or the one being made for it (DB.RestoreTable: sharing what
// they hold), and publishes each.
func (ns *Namespace) restore(c *catalog, snap *storage.Snapshot, kept map[string]bool) error {
	for _, ts := range snap.Tables() {
		if kept[ts.Name()] {
			continue
		}
		st, err := c.db.RestoreTable(ts.Name(), ts.ID(), ts)
		if err != nil && !errors.Is(err, storage.ErrNotDurable) {
			return err
		}
		if err := ns.publishStored(c, st); err != nil {
			return err
		}
	}
	return nil
}
