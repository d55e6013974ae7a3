// Package catalog is the emulator's table catalogs and namespaces, below
// the data plane (package service), which hands it the table type it
// lists: a Catalog is one namespace's tables in name order on a
// storage.DB, with the tables DeleteTable keeps DELETING for a while; a
// Registry holds the namespaces of a service, made on first use, held
// weakly until something is made in them, and the catalogs forks of one
// snapshot share (copy-on-write, as go-memdb's snapshots share a root);
// Defs shares the definitions decoded from one record between the
// tables restored from it; Key selects a namespace and reads its ID.
//
// The catalog knows no operation, stage or feature: the data plane asks
// it through these values (a Catalog and a Registry per service, made in
// service.New), never through a global. Its locks are leaves of the lock
// order (Catalog's and Registry's mutexes: no other lock is taken while
// either is held; service's doc.go, "Locks").
//
// What a namespace's storage.DB holds, and so what its commit hook
// records and DB.Apply rebuilds (the seam persistence, backups and
// replicas hang off):
//
//   - persisted state: the items (a record per committed storage transaction),
//     the catalog (create and drop table, add and drop index) and, per table,
//     one metadata key, tablerec.MetaKey, holding the table's whole definition
//     as a tablerec.Table: name, TableId, ARN, creation time, key schema,
//     attribute definitions, billing mode and its history, provisioned
//     throughput and its history, on-demand limits, SSE, table class, deletion
//     protection, tags, the indexes (with their ARNs and the times that make
//     them CREATING or DELETING, and the GSIs still shown as DELETING), the
//     vector indexes (likewise, with their search schemas), TimeToLive, the
//     StreamSpecification and the latest stream's label, shard id, region and
//     creation time, point-in-time recovery's setting, and a restored table's
//     RestoreSummary and end of CREATING. One key for the whole definition, so
//     a change is one record and is recorded whole or not at all.
//   - derived state, rebuilt from those by the service's Namespace.Apply
//     callback (emulator/internal/service/catalog_apply.go): the table's
//     catalog entry, the stages' state on it (from its definition), its item
//     collection tracking (its LSIs) and its stream's observer.
//   - persisted elsewhere: a stream's records are not recorded but
//     rebuilt from the records (each commit's time comes with it) and
//     kept in persistence's snapshots (streamrec/sidecar.go); a
//     ClientRequestToken within its window is DB metadata
//     (emulator/internal/idempotency), and so is each export, import and
//     bulk operation (emulator/internal/transfers).
//   - volatile state, not recorded: what a stage keeps in memory and
//     the request limits' counters (the clock's offset is kept by the edge,
//     clock_persist.go).
package catalog
