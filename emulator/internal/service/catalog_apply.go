package service

import (
	"fmt"

	"github.com/dynamoemu/dynamoemu/emulator/internal/streamrec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Rebuilding a namespace from its records: what persistence does when it
// loads a namespace's log, backups when they restore one, a replica as it
// follows one. The records are those of the namespace's DB hook
// (storage.Record; AppendRecord and ParseRecord are their binary form);
// storage applies them (storage.DB.Apply) and hands each back to
// applied, which rebuilds what storage keeps opaque: the emulator's table
// from its definition record (catalog_record.go), its catalog entry, its
// stream, the stages' state on it and its item collection tracking.

// Apply applies r, a record of the hook of a namespace's DB (this
// namespace's or another's: a log being loaded, a backup being
// restored), to ns. Like every change of ns's DB it reaches ns's own
// hook too: a hook that is the log being loaded must skip the records it
// is handed back. A namespace that does not own its catalog gets its own
// first.
func (ns *Namespace) Apply(r *storage.Record) error {
	c := ns.own()
	return c.DB.Apply(r, func(r *storage.Record) error { return ns.applied(c, r) })
}

// applied rebuilds the emulator's state after storage applied r to c's DB.
func (ns *Namespace) applied(c *tableCatalog, r *storage.Record) error {
	switch r.Kind {
	case storage.RecordCreateTable, storage.RecordRestoreTable:
		st := c.DB.TableByID(r.Table)
		if st == nil {
			return fmt.Errorf("%w: ID %q", storage.ErrNoTable, r.Table)
		}
		return ns.publishStored(c, st)
	case storage.RecordMeta:
		if r.Table == "" || r.Key != metaKeyTable {
			return nil
		}
		t := tableByID(c, r.Table)
		if t == nil {
			return fmt.Errorf("%w: ID %q", storage.ErrNoTable, r.Table)
		}
		return t.restoreMeta(r.Value)
	case storage.RecordDropTable:
		if t := tableByID(c, r.Table); t != nil {
			t.restoreDrop()
		}
	}
	return nil
}

// publishStored rebuilds the emulator's table of st (of c's DB: ns's, or
// the one made for it) from its definition record, and publishes it.
func (ns *Namespace) publishStored(c *tableCatalog, st *storage.Table) error {
	t, m, err := ns.svc.decodeSharedRecord(st.Meta(metaKeyTable), st.KeySchema())
	if err != nil {
		return err
	}
	t.clock = ns.svc.clock
	t.meta.Store(m)
	ns.loadedDefinition(t, tagDescs(m.Tags))
	var s streamrec.Stream
	if m.StreamOn() {
		s = ns.restoreStream(t, m)
	}
	ns.publishTable(c, t, st, m, s)
	ns.defined(t, nil, m, true) // feature_lifecycle.go
	return nil
}

// tableByID returns the table of catalog c whose TableId is id, or nil.
func tableByID(c *tableCatalog, id string) *table {
	return c.Find(func(t *table) bool { return t.id == id })
}

// restoreStream registers t's stream as definition m describes it (its
// label, shard, region and creation time as recorded).
func (ns *Namespace) restoreStream(t *table, m *tableMeta) streamrec.Stream {
	if s, ok := ns.kept().loadedStreams[t.name+"\x00"+m.StreamLabel]; ok {
		delete(ns.kept().loadedStreams, t.name+"\x00"+m.StreamLabel)
		s.SetOwner(Table{t: t})
		return s // rebuilt by persistence, already in the streamSet
	}
	s := ns.svc.newStream(t, streamIDOf(m), *m.Stream.StreamViewType, ns.svc.clock)
	ns.kept().streams.Add(s)
	return s
}

// adoptStreamOwners settles the Owner of each stream persistence rebuilt
// that no table of c took up (restoreStream): a disabled stream of a
// table of c is that table's (by TableId), as it was before the restart;
// a deleted table's keeps the table streamDef decoded, which joins ns
// (not its catalog) with its stages' state rebuilt from its definition
// (loadedDefinition), so the key guards judge a read of the stream by
// the table it was of, not by a table of that name now.
func (ns *Namespace) adoptStreamOwners(c *tableCatalog, rebuilt map[string]streamrec.Stream) {
	for _, s := range rebuilt {
		o, ok := s.Owner().(Table)
		if !ok || o.t.ns != nil {
			continue
		}
		if live := tableByID(c, o.t.id); live != nil {
			s.SetOwner(Table{t: live})
			continue
		}
		o.t.ns, o.t.clock = ns, ns.svc.clock
		ns.loadedDefinition(o.t, tagDescs(o.t.meta.Load().Tags))
	}
}

// restoreMeta publishes t's recorded definition b, starting or stopping
// its stream and telling the stages of it as the change did.
func (t *table) restoreMeta(b []byte) error {
	_, m, err := t.ns.svc.seams.decodeTableRecord(b, t.schema)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	old := t.meta.Load()
	var s streamrec.Stream
	if m.StreamOn() && !old.StreamOn() {
		s = t.ns.restoreStream(t, m)
	}
	t.syncStreamLocked(old, m, s, t.readClock())
	t.ns.loadedDefinition(t, tagDescs(m.Tags))
	t.ns.defined(t, old, m, true) // feature_lifecycle.go
	t.meta.Store(m)
	return nil
}

// restoreDrop marks t DELETING, takes it out of the catalog and stops
// its stream, as DeleteTable did.
func (t *table) restoreDrop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := *t.meta.Load()
	m.Status = statusDeleting
	t.ns.removeTable(t)
	t.stopStreamLocked(t.readClock())
	t.meta.Store(&m)
}
