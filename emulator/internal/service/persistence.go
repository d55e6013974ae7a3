package service

import (
	"fmt"
	"slices"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Loading a namespace from disk (the edge's persistence.go opens the
// store; Config.DBs hands out each namespace's DB, with its tables and
// their definition records already loaded): the catalog is rebuilt from
// the tables (RebuildCatalog), as Apply rebuilds it record by record,
// and what a process killed at any instant, or a restart, leaves behind
// is put right: storage indexes the definitions do not match
// (reconcileIndexes), transient GSI states (endTransient) and the
// stream's sequence numbers (restartStream).

// RebuildCatalog makes the catalog of ns from the tables its DB holds,
// as Apply does for each table a record creates: the table from its
// definition record, its stream, the stages' state and item collection
// tracking. A restart ends every transient state (endTransient).
// It returns the number of tables.
func (ns *Namespace) RebuildCatalog() (int, error) {
	c := ns.own()
	now := ns.svc.clock()
	// Streams persistence rebuilt (streamrec.Sidecar) come back with
	// their records; others with none.
	m := ns.kept()
	rebuilt := m.loadedStreams != nil
	defer func() { m.loadedStreams = nil }()
	tables := c.DB.Tables()
	for _, st := range tables {
		if err := ns.applied(c, &storage.Record{Kind: storage.RecordCreateTable, Table: st.ID()}); err != nil {
			return 0, fmt.Errorf("table %s: %w", st.Name(), err)
		}
		if t := tableByID(c, st.ID()); t != nil {
			t.endTransient(now)
			if !rebuilt {
				t.restartStream()
			}
			if err := t.reconcileIndexes(); err != nil {
				return 0, fmt.Errorf("table %s: %w", st.Name(), err)
			}
		}
	}
	ns.adoptStreamOwners(c, m.loadedStreams) // streams.go
	ns.svc.tokens.Restore(ns, c.DB, now)     // ClientRequestTokens (idempotency.go)
	for _, h := range ns.svc.seams.hooks {
		if h.Loaded != nil {
			h.Loaded(Space{ns: ns}, now) // the features' and stages' state (feature_lifecycle.go)
		}
	}
	return len(tables), nil
}

// reconcileIndexes makes the table's storage indexes those of its
// definition. UpdateTable records the definition with a GSI added or
// dropped, then adds or drops the storage index (changeMeta): two
// records, so a process killed between them comes back with the
// definition ahead of storage. The change was not acknowledged (its
// answer comes after both), so either outcome is allowed; this one rolls
// it forward, as a second record that follows the first.
func (t *table) reconcileIndexes() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := t.meta.Load()
	want := slices.Concat(m.LSIs, m.GSIs)
	have := t.data.IndexNames()
	for _, name := range have {
		if !slices.ContainsFunc(want, func(x *tablespec.IndexDef) bool { return x.Name == name }) {
			if err := t.data.DropIndex(name); err != nil {
				return err
			}
			t.ns.svc.log.Warn("dropped an index its table's definition no longer has (a process killed within UpdateTable)", "table", t.name, "index", name)
		}
	}
	for _, x := range want {
		if !slices.Contains(have, x.Name) {
			if err := t.data.AddIndex(x.StorageDef()); err != nil {
				return err
			}
			t.ns.svc.log.Warn("built an index its table's definition has and storage had not (a process killed within UpdateTable)", "table", t.name, "index", x.Name)
		}
	}
	return nil
}

// restartStream numbers the records of t's stream, which come back
// empty, after every number it handed out before the restart: from the
// real time in nanoseconds, later than the previous start's plus one
// per record since (while the wall clock does not go back). A consumer
// that asks for a position of before the restart gets
// TrimmedDataAccessException, not someone else's records.
func (t *table) restartStream() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := t.liveStream; !s.IsZero() {
		s.SkipTo(uint64(time.Now().UnixNano()))
	}
}

// endTransient makes the table or a GSI CREATING at now ACTIVE and
// forgets a GSI DELETING: their times were set by a clock that is gone
// (the clock's offset is not kept, so a GSI added while the clock was
// moved two hours on would otherwise be CREATING for two hours), and
// DynamoDB Local too
// comes back from a restart with no transient state. Only the published
// definition changes; the recorded one follows at the next change.
func (t *table) endTransient(now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := *t.meta.Load()
	changed := len(m.Deleting) > 0
	m.Deleting = nil
	if now.Before(m.ActiveAt) { // a table CREATING
		m.ActiveAt, changed = time.Time{}, true
	}
	gsis := slices.Clone(m.GSIs)
	for i, x := range gsis {
		if now.Before(x.ActiveAt) {
			y := *x
			y.ActiveAt = time.Time{}
			gsis[i], changed = &y, true
		}
	}
	if changed {
		m.GSIs = gsis
		t.meta.Store(&m)
	}
}
