package service

import (
	"errors"
	"slices"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamrec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The table catalog of a Namespace is package catalog's (namespace.go:
// tableCatalog): its DB holds the tables and their definition records
// (catalog_record.go), its list the tables (catalog.go), by name. Each table
// keeps its own definition (an immutable snapshot, changed under
// table.mu through changeMeta, the one funnel that records it) and
// storage.Table guards its items. A namespace holds its catalog under
// one pointer (Namespace.cat), so that forks share one until a fork's
// first change gives it its own (Namespace.own, ns_snapshot.go).

// getTable returns the namespace's table called name, or nil.
func (ns *Namespace) getTable(name string) *table { return ns.cat.Load().Get(name) }

// createTable creates t in the namespace's DB with its definition m and
// stream s (zero: none), records it (one RecordCreateTable carrying the
// definition), and makes t visible. It fails with ResourceInUseException
// when a table of that name exists, and with the hook's error when the
// record is refused (nothing is created then).
func (ns *Namespace) createTable(t *table, m *tableMeta, s streamrec.Stream) error {
	c := ns.own()
	st, err := c.DB.CreateTable(storage.TableDef{
		Name:          t.name,
		ID:            t.id,
		Schema:        t.schema,
		Indexes:       tablespec.StorageDefs(slices.Concat(m.LSIs, m.GSIs)),
		VectorIndexes: tablespec.VectorStorageDefs(m.Vectors),
		Meta:          map[string][]byte{metaKeyTable: encodeTableMeta(t, m)},
	})
	if errors.Is(err, storage.ErrTableExists) {
		// DynamoDB Local: "Cannot create preexisting table".
		return apierr.ResourceInUse(apierr.MsgTableExistsPrefix + t.name)
	}
	if err != nil && !errors.Is(err, storage.ErrNotDurable) {
		return err
	}
	ns.publishTable(c, t, st, m, s)
	return err
}

// publishTable attaches t to its storage table st (item collection
// tracking for LSIs, stream s as the observer; zero: none) and puts it in
// c (ns's catalog, or its new one), replacing a table of that name still
// being deleted: st's DB has just accepted it, so no live table has it.
func (ns *Namespace) publishTable(c *tableCatalog, t *table, st *storage.Table, m *tableMeta, s streamrec.Stream) {
	t.data, t.ns = st, ns
	t.trackCollections(m.LSIs)
	if !s.IsZero() {
		t.attachStreamLocked(s)
	}
	c.Put(t.name, t)
}

// removeTable deletes t from the catalog if it is still there (a
// concurrent DeleteTable + CreateTable must not remove the new table).
func (ns *Namespace) removeTable(t *table) { ns.cat.Load().Remove(t.name, t) }

// tableNames returns the table names in ascending (UTF-8 byte) order.
func (ns *Namespace) tableNames() []string { return ns.cat.Load().Names() }
