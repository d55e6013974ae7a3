package service

import (
	"context"
	"errors"
	"fmt"
	"slices"

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
// changed yet gives the snapshot it was forked from.
func (s *Service) SnapshotAll() map[string]*storage.Snapshot {
	spaces := map[string]*storage.Snapshot{}
	for _, ns := range s.dbs.all() {
		if spaces[ns.key] = ns.cat.Load().snap; spaces[ns.key] == nil { // not a fork sharing its catalog
			spaces[ns.key] = ns.cat.Load().db.Snapshot(nil)
		}
	}
	return spaces
}

// RewindAll rewinds every namespace to its snapshot in spaces; one that
// has none (made since) is emptied, and a fork not changed yet is forked
// again (Fork), or dropped. The items of each table it would restore are
// first put to the stages' checks (checkRewind): one refused, nothing is
// rewound.
func (s *Service) RewindAll(spaces map[string]*storage.Snapshot) error {
	if err := s.checkRewind(spaces); err != nil {
		return err
	}
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
// catalog replaces the one id had, dropped with all it holds (nil snap:
// only that). When records are due now (persistence, Config.Hooks), the
// namespace owns its catalog at once and is rewound to snap instead.
func (s *Service) Fork(id string, snap *storage.Snapshot) error {
	k, ok := s.keyOf(id)
	if !ok {
		return fmt.Errorf("no namespace %q", id)
	}
	n := &s.dbs
	if n.dbs != nil || n.hooks != nil {
		return n.get(k).rewind(snap)
	}
	var c *catalog
	if snap != nil {
		c = n.sharedOf(snap, k.region)
	}
	n.mu.Lock()
	old := n.inUseLocked(k)
	delete(n.byKey, k)
	delete(n.idle, k)
	if c != nil {
		ns := n.newNamespace(k, c)
		n.byKey[ns.nk()] = ns // its key's strings are its ID's, not id's
	}
	var gone *Namespace // to close: old if it owns its catalog, else perhaps its shared one's reader
	if old != nil {
		if gone = n.releaseLocked(old.cat.Load()); !old.cat.Load().frozen {
			gone = old
		}
	}
	n.mu.Unlock()
	if gone != nil {
		gone.closed()
		s.tokens.Forget(gone) // its ClientRequestTokens (idempotency.go)
	}
	return nil
}

// sharedOf returns snap's shared catalog, held by one more fork: made,
// with no lock held, if none is (its tables restored in a frozen DB).
func (n *namespaces) sharedOf(snap *storage.Snapshot, region string) *catalog {
	n.mu.Lock()
	c := n.shared[snap]
	if c == nil {
		n.mu.Unlock()
		c = &catalog{db: storage.NewDB(nil), frozen: true, snap: snap, reader: &Namespace{key: nsKey{region: region}.keyString(), svc: n.svc}}
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

// releaseLocked lets go of c, a namespace's catalog as it is dropped or
// owns one; it returns c's reader to close when no fork holds c. n.mu held.
func (n *namespaces) releaseLocked(c *catalog) *Namespace {
	if c.snap == nil || !c.frozen {
		return nil // the empty catalog, or a namespace's own
	}
	if c.forks--; c.forks > 0 {
		return nil
	}
	delete(n.shared, c.snap)
	return c.reader
}

// own returns ns's own catalog, made at the first call if it holds a
// shared one (copy-on-write: filled as a rewind fills an empty namespace),
// kept from then on; readers meanwhile read the shared one.
func (ns *Namespace) own() *catalog {
	if c := ns.cat.Load(); !c.frozen || c.reader == ns {
		return c // its own, or a shared catalog's reader, which changes nothing
	}
	ns.ownMu.Lock()
	defer ns.ownMu.Unlock()
	n, old := &ns.svc.dbs, ns.cat.Load()
	if !old.frozen {
		return old
	}
	c, ok := n.newCatalog(ns)
	if !ok {
		return c // refusing every change; the next use tries again
	}
	if err := ns.restore(c, old.snap, nil); err != nil { // no persistence: never refused
		ns.svc.log.Error("cannot fill the forked namespace", "namespace", ns.key, "err", err)
	}
	n.mu.Lock()
	ns.cat.Store(c)
	var gone *Namespace
	if nk := ns.nk(); n.inUseLocked(nk) == ns { // not dropped (Fork) meanwhile
		gone = n.releaseLocked(old)
		n.byKey[nk] = ns
		delete(n.idle, nk)
	}
	n.mu.Unlock()
	if gone != nil {
		gone.closed()
	}
	return c
}

// Forked returns the snapshot of namespace id when it is a fork not
// changed yet (sharing its catalog), else nil.
func (s *Service) Forked(id string) *storage.Snapshot {
	k, _ := s.keyOf(id)
	s.dbs.mu.RLock()
	defer s.dbs.mu.RUnlock()
	if ns := s.dbs.byKey[k]; ns != nil {
		return ns.cat.Load().snap // nil unless frozen: only a shared catalog has one
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
	c.mu.RLock()
	tables := slices.Clone(c.tables)
	c.mu.RUnlock()
	for _, t := range tables {
		if keeps(t, snap) {
			kept[t.name] = true
			continue
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
	ns.kept().streams.Retain(kept)
	return ns.restore(c, snap, kept)
}

// restore restores the tables of snap (nil: none) but those in kept into
// c (ns's catalog, or its new one), sharing what they hold; publishes each.
func (ns *Namespace) restore(c *catalog, snap *storage.Snapshot, kept map[string]bool) error {
	if snap == nil {
		return nil
	}
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

// keeps reports whether a rewind to snap leaves t as it is: unchanged
// since snap (storage.Table.Unchanged: same name and TableId, no write,
// index or definition change) and ACTIVE.
func keeps(t *table, snap *storage.Snapshot) bool {
	if snap == nil {
		return false
	}
	ts := snap.Table(t.name)
	return ts != nil && ts.ID() == t.id && t.data.Unchanged(ts) && t.snapshot().status == statusActive
}

// checkRewind puts the items of each table a rewind to spaces restores
// in a namespace that exists (not one it leaves as it is: keeps) to the
// stages' checks, as a restore's (checkRestored), by the operator: the
// table as its recorded definition has it, told to the stages first. A
// snapshot's tables were written through the checks, but a table may
// have opted in since its rows were (by its tags), or run in warn mode.
func (s *Service) checkRewind(spaces map[string]*storage.Snapshot) error {
	for _, ns := range s.dbs.all() {
		snap := spaces[ns.key]
		if snap == nil || ns.cat.Load().frozen {
			continue
		}
		c := &call{ctx: context.Background(), ns: ns, op: "RestoreSnapshot", now: s.clock(), clock: s.clock, svc: s}
		for _, ts := range snap.Tables() {
			if live := ns.getTable(ts.Name()); live != nil && keeps(live, snap) {
				continue
			}
			t, m, err := s.decodeSharedRecord(ts.Meta(metaKeyTable), ts.KeySchema())
			if err != nil {
				return err
			}
			t.clock = s.clock
			t.meta.Store(m)
			ns.loadedDefinition(t, tagDescs(m.tags))
			if err := c.checkRestored(t, ts); err != nil {
				return err
			}
		}
	}
	return nil
}
