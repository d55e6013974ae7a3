package service

import (
	"context"
	"errors"
	"fmt"

	"github.com/dynamoemu/dynamoemu/emulator/internal/catalog"

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
	for _, ns := range s.dbs.All() {
		if spaces[ns.key] = ns.cat.Load().Snap; spaces[ns.key] == nil { // not a fork sharing its catalog
			spaces[ns.key] = ns.cat.Load().DB.Snapshot(nil)
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
	for _, ns := range s.dbs.All() {
		done[ns.key] = true
		rewind := ns.rewind
		if ns.cat.Load().Frozen {
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
	if s.cfg.DBs != nil || s.cfg.Hooks != nil {
		return s.get(k).rewind(snap)
	}
	var c *tableCatalog
	if snap != nil {
		c = s.dbs.Shared(snap, func() *tableCatalog { return s.sharedCatalog(snap, k.Region) })
	}
	if gone := s.dbs.Replace(k, c); gone != nil {
		gone.closed()
		s.tokens.Forget(gone) // its ClientRequestTokens (idempotency.go)
	}
	return nil
}

// sharedCatalog returns a new catalog of snap's tables, restored in a
// frozen DB, for the forks of snap to share (catalog.Registry.Shared).
func (s *Service) sharedCatalog(snap *storage.Snapshot, region string) *tableCatalog {
	c := catalog.New[*table, *Namespace](storage.NewDB(nil))
	c.Frozen, c.Snap, c.Reader = true, snap, s.newNamespace(catalog.Key{Region: region}, c)
	if err := c.Reader.restore(c, snap, nil); err != nil { // no hook: never refused
		s.log.Error("cannot fill a shared catalog", "err", err)
	}
	c.DB.WrapHook(func(storage.Hook) storage.Hook { return catalog.FailingHook{Err: catalog.ErrShared} })
	return c
}

// own returns ns's own catalog, made at the first call if it holds a
// shared one (copy-on-write: filled as a rewind fills an empty namespace),
// kept from then on; readers meanwhile read the shared one.
func (ns *Namespace) own() *tableCatalog {
	if c := ns.cat.Load(); !c.Frozen || c.Reader == ns {
		return c // its own, or a shared catalog's reader, which changes nothing
	}
	ns.ownMu.Lock()
	defer ns.ownMu.Unlock()
	old := ns.cat.Load()
	if !old.Frozen {
		return old
	}
	c, ok := ns.svc.newCatalog(ns)
	if !ok {
		return c // refusing every change; the next use tries again
	}
	if err := ns.restore(c, old.Snap, nil); err != nil { // no persistence: never refused
		ns.svc.log.Error("cannot fill the forked namespace", "namespace", ns.key, "err", err)
	}
	if gone := ns.svc.dbs.Own(ns, old, func() { ns.cat.Store(c) }); gone != nil {
		gone.closed()
	}
	return c
}

// Forked returns the snapshot of namespace id when it is a fork not
// changed yet (sharing its catalog), else nil.
func (s *Service) Forked(id string) *storage.Snapshot {
	k, _ := s.keyOf(id)
	if ns := s.dbs.Kept(k); ns != nil {
		return ns.cat.Load().Snap // nil unless frozen: only a shared catalog has one
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
	for _, t := range c.All() {
		if keeps(t, snap) {
			kept[t.name] = true
			continue
		}
		_ = t.changeMeta(func(m *tableMeta) (func(bool) error, error) {
			if m.Status == statusDeleting {
				return nil, nil
			}
			m.Status = statusDeleting
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
	for _, st := range c.DB.Tables() {
		if kept[st.Name()] {
			continue
		}
		if err := c.DB.DropTable(st.Name()); err != nil && !errors.Is(err, storage.ErrNoTable) {
			return err
		}
	}
	ns.kept().streams.Retain(kept)
	return ns.restore(c, snap, kept)
}

// restore restores the tables of snap (nil: none) but those in kept into
// c (ns's catalog, or its new one), sharing what they hold; publishes each.
func (ns *Namespace) restore(c *tableCatalog, snap *storage.Snapshot, kept map[string]bool) error {
	if snap == nil {
		return nil
	}
	for _, ts := range snap.Tables() {
		if kept[ts.Name()] {
			continue
		}
		st, err := c.DB.RestoreTable(ts.Name(), ts.ID(), ts)
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
	return ts != nil && ts.ID() == t.id && t.data.Unchanged(ts) && t.snapshot().Status == statusActive
}

// checkRewind puts the items of each table a rewind to spaces restores
// in a namespace that exists (not one it leaves as it is: keeps) to the
// stages' checks, as a restore's (checkRestored), by the operator: the
// table as its recorded definition has it, told to the stages first. A
// snapshot's tables were written through the checks, but a table may
// have opted in since its rows were (by its tags), or run in warn mode.
func (s *Service) checkRewind(spaces map[string]*storage.Snapshot) error {
	for _, ns := range s.dbs.All() {
		snap := spaces[ns.key]
		if snap == nil || ns.cat.Load().Frozen {
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
			ns.loadedDefinition(t, tagDescs(m.Tags))
			if err := c.checkRestored(t, ts); err != nil {
				return err
			}
		}
	}
	return nil
}
