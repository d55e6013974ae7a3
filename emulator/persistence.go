package emulator

import (
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/persist"
	"github.com/dynamoemu/dynamoemu/storage"
)

// Persistence (Options.DataDir, cmd/dynamoemu's -dbPath): the namespaces'
// storage.DBs come from a persist.Store, one directory per namespace named
// as DynamoDB Local names its files (persist.NamespaceName(access key,
// region), or persist.SharedNamespace with SharedDB). New opens the
// directory, loads every namespace this emulator serves (a SharedDB
// emulator the shared one, any other the others) and rebuilds each one's
// catalog from its DB (rebuildCatalog); namespaces created later get
// their directory when their first table is created. Without DataDir
// nothing here runs: a namespace's DB has no hook and the write path is
// untouched.
//
// What a DB holds, and so what survives a restart, is written down in
// catalog_record.go: items, tables and every part of their definitions
// (indexes, tags, TTL, stream settings and the stream's identity), from
// which the conventions policies and item collection tracking are
// rebuilt. Not kept: stream records (a stream comes back enabled, same
// ARN and shard, with no records, numbering new ones after every number
// it handed out: restartStream; a disabled stream is not listed any
// more), ClientRequestTokens (a transaction retried after a
// restart runs again, its conditions decide), the clock's offset, the
// conventions report.
//
// A change the log refuses (a full disk, an I/O error, the store closed)
// is undone by storage and answered 500 InternalServerError (apierr:
// storage.ErrHookFailed); a change made but whose fsync failed is
// answered 500 too (storage.ErrNotDurable). Reads go on either way.

// progressMinBytes is the size of a file below which its load is not
// reported as it goes.
const progressMinBytes = 32 << 20

// openStore opens o.DataDir with o.Persist, logging to log.
func openStore(o Options, log *slog.Logger) (*persist.Store, error) {
	po := o.Persist
	if po.Logger == nil {
		po.Logger = log
	}
	if po.Progress == nil {
		po.Progress = func(p persist.Progress) {
			if p.Total < progressMinBytes {
				return // a short load: its "namespace loaded" line says it all
			}
			log.Info("loading namespace", "namespace", p.Namespace, "phase", p.Phase, "file", p.File,
				"bytes", p.Bytes, "total", p.Total, "items", p.Items, "records", p.Records, "done", p.Done)
		}
	}
	st, err := persist.Open(o.DataDir, po)
	if err != nil {
		return nil, fmt.Errorf("-dbPath %s: %w", o.DataDir, err)
	}
	return st, nil
}

// persistName is the store's name of the namespace of ID id ("shared" or
// "<access key id>/<region>").
func persistName(id string) string {
	if id == "shared" {
		return persist.SharedNamespace
	}
	key, region, _ := strings.Cut(id, "/")
	return persist.NamespaceName(key, region)
}

// storeDBs returns the service's DBs function over st.
func storeDBs(st *persist.Store) func(id string) (*storage.DB, error) {
	return func(id string) (*storage.DB, error) { return st.DB(persistName(id)) }
}

// loadNamespaces loads the namespaces of st that s serves and rebuilds
// their catalogs. A namespace that does not load (persist refuses what it
// cannot read whole) fails it: better no server than one missing data.
func (s *service) loadNamespaces(st *persist.Store) error {
	names, err := st.Namespaces()
	if err != nil {
		return err
	}
	for _, name := range names {
		key, region, shared, ok := persist.ParseNamespaceName(name)
		if !ok || shared != s.cfg.SharedDB {
			s.log.Info("not loading a namespace directory this server does not serve (see -sharedDb)", "namespace", name)
			continue
		}
		if _, err := st.DB(name); err != nil {
			return err
		}
		id := "shared"
		if !shared {
			id = key + "/" + region
		}
		ns := s.namespace(id)
		if ns == nil {
			continue
		}
		if err := ns.rebuildCatalog(); err != nil {
			return fmt.Errorf("namespace %s: %w", name, err)
		}
		rec, _ := st.Recovery(name)
		attrs := []any{"namespace", name, "tables", len(ns.tables), "items", rec.Items, "snapshot", rec.Snapshot,
			"records", rec.Records, "took", rec.Took}
		if rec.Cut != "" || len(rec.Skipped) > 0 {
			s.log.Warn("namespace loaded after recovery: data after the damage is lost, every transaction before it is whole",
				append(attrs, "cut", rec.Cut, "skippedSnapshots", strings.Join(rec.Skipped, "; "))...)
		} else {
			s.log.Info("namespace loaded", attrs...)
		}
	}
	return nil
}

// rebuildCatalog makes the catalog of ns from the tables its DB holds,
// as Apply does for each table a record creates: the table from its
// definition record, its stream, conventions policy and item collection
// tracking. A restart ends every transient state (endTransient).
func (ns *Namespace) rebuildCatalog() error {
	now := ns.svc.clock()
	for _, st := range ns.db.Tables() {
		if err := ns.applied(&storage.Record{Kind: storage.RecordCreateTable, Table: st.ID()}); err != nil {
			return fmt.Errorf("table %s: %w", st.Name(), err)
		}
		if t := ns.tableByID(st.ID()); t != nil {
			t.endTransient(now)
			t.restartStream()
			if err := t.reconcileIndexes(); err != nil {
				return fmt.Errorf("table %s: %w", st.Name(), err)
			}
		}
	}
	return nil
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
	want := slices.Concat(m.lsis, m.gsis)
	have := t.data.IndexNames()
	for _, name := range have {
		if !slices.ContainsFunc(want, func(x *indexDef) bool { return x.name == name }) {
			if err := t.data.DropIndex(name); err != nil {
				return err
			}
			t.ns.svc.log.Warn("dropped an index its table's definition no longer has (a process killed within UpdateTable)", "table", t.name, "index", name)
		}
	}
	for _, x := range want {
		if !slices.Contains(have, x.name) {
			if err := t.data.AddIndex(x.storageDef()); err != nil {
				return err
			}
			t.ns.svc.log.Warn("built an index its table's definition has and storage had not (a process killed within UpdateTable)", "table", t.name, "index", x.name)
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
	if s := t.liveStream; s != nil {
		s.log.SkipTo(uint64(time.Now().UnixNano()))
	}
}

// endTransient makes a GSI CREATING at now ACTIVE and forgets a GSI
// DELETING: their times were set by a clock that is gone (the clock's
// offset is not kept, so a GSI added while the clock was moved two hours
// on would otherwise be CREATING for two hours), and DynamoDB Local too
// comes back from a restart with no transient state. Only the published
// definition changes; the recorded one follows at the next change.
func (t *table) endTransient(now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := *t.meta.Load()
	changed := len(m.deleting) > 0
	m.deleting = nil
	gsis := slices.Clone(m.gsis)
	for i, x := range gsis {
		if now.Before(x.activeAt) {
			y := *x
			y.activeAt = time.Time{}
			gsis[i], changed = &y, true
		}
	}
	if changed {
		m.gsis = gsis
		t.meta.Store(&m)
	}
}

// failingHook refuses every change with err: the hook of a namespace
// whose stored DB could not be opened, so that nothing is created in it.
type failingHook struct{ err error }

func (h failingHook) Commit(*storage.Record) (uint64, error) { return 0, h.err }
func (failingHook) Wait(uint64) error                        { return nil }
