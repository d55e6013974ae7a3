// Package storage knows DynamoDB's data model and nothing about JSON, HTTP or
// expression text.
//
// # Basics
//
// Value is a sum type over DynamoDB's ten attribute kinds (S, N, B, BOOL,
// NULL, L, M, SS, NS, BS); an Item maps attribute names to Values. Number is
// internal/number's: a decimal with 38 significant digits and DynamoDB's
// range, always held in canonical plain text so equal numbers have equal
// text, with exact arithmetic and order-preserving keys. ItemSize and
// ValueSize compute DynamoDB's item size (names
// plus values, with its rules for numbers, lists and maps, checked against
// DynamoDB Local).
//
// A Table holds one table's items under a KeySchema (a partition key and an
// optional sort key, each S, N or B). Its nouns:
//
//   - Get(Key) returns one item.
//   - Write(Key, fn) is a read-modify-write under the table's write lock:
//     fn sees the current item and returns the new one (nil deletes,
//     ErrNoWrite leaves it); the result is a Change (old and new image and
//     their sizes), the record that ReturnValues and later streams, TTL and
//     indexes consume. Put(Key, Item) is a Write that does not look at the
//     current item, and so does not decode it (its Change has no Old).
//     WritePatch(Key, names, fn) is a Write that changes only the
//     top-level attributes names (patch.go): fn sees the stored record
//     and returns their new values; the others are copied as bytes.
//   - Query(QueryRange, visit) walks one partition in sort key order,
//     bounded by a SortCondition, forwards or backwards, resuming strictly
//     after an ExclusiveStart key. It seeks; it never walks other partitions.
//   - Scan(ScanRange, visit) walks the table in a fixed order: partitions by
//     a hash of the partition key, so parallel scan segment i of N is one
//     contiguous hash range (SegmentOf), items by sort key; it resumes after
//     an ExclusiveStart key whether or not that key still exists.
//   - ItemCount and SizeBytes are maintained on every write.
//   - TrackCollections makes the table keep each partition's item
//     collection size (ItemSize of its items plus a caller-given extra per
//     item, such as local secondary index entries), add each write's
//     difference inside the write, report the size after it
//     (Change.CollectionSize, CollectionSize) and refuse writes that grow a
//     collection past a limit (ErrCollectionTooLarge).
//   - Begin(tables...) starts a WriteTx: the write locks of several tables,
//     within which Get, Write and Put read and write items in any of them;
//     Commit releases them and returns one Change per item written, Abort
//     undoes every write (newest first) and releases them. BeginRead starts
//     a ReadTx, a consistent snapshot of several tables for Get. See
//     Transactions below.
//   - AddIndex and DropIndex keep secondary indexes (index.go), read with
//     QueryIndex and ScanIndex (index_read.go).
//   - AddVectorIndex and DropVectorIndex keep vector indexes (vector.go):
//     their definitions in the table's catalog, their entries made by a
//     VectorIndexer (package internal/vector: the vectors, their search
//     and its spec) and kept in step inside every write. A DB's indexer
//     (DB.SetVectorIndexer) reaches every table it makes, so a created,
//     restored or loaded table builds each index once; ReadVectorIndex and
//     ItemAt are the search's way in.
//   - GetEncoded, QueryEncoded and ScanEncoded are Get, Query and Scan
//     without the decoding: they hand out EncodedItems, views of the stored
//     records. An ItemReader walks one (attributes in name order, key
//     attributes included) without building Values, for a caller that only
//     writes it out; Attributes decodes just the attributes a caller needs.
//     Lookup finds a few attributes (names sorted, as the record is) in one
//     walk as EncodedValues, views of single values that answer kind,
//     scalar, map entry, list element, set member and equality without
//     decoding (encoded_value.go): what a filter needs. AppendItemStart,
//     AppendName, AppendMapStart, AppendListStart, EncodedValue.AppendTo
//     and FinishCount write a record from parts of others (a projection),
//     which EncodedItemOf reads back.
//
// A DB (db.go) is the tables of one namespace: CreateTable(TableDef) makes
// a table under a name (unique among the tables that exist) and an ID the
// caller chooses (unique forever, such as the emulator's TableId), with
// its first indexes and metadata; DropTable, Table(name), TableByID and
// Tables manage and find them. Table.SetMeta and DB.SetMeta keep opaque
// metadata (meta.go), the caller's state that is not items. A DB has one
// commit hook; see The commit hook below. A Table made by NewTable
// belongs to no DB and records nothing.
//
// Inside, the partitions are one open-addressing hash table whose slots,
// in array order, are the partitions sorted by (hash of the partition
// key, partition key) (ptable.go): a lookup probes from the key's home
// slot, and Scan reads the array in order, so one array serves as both
// the map and the scan order. Each partition keeps its items in a B-tree
// (github.com/tidwall/btree, its own locks off) ordered by an
// order-preserving encoding of the sort key, in which plain byte
// comparison is DynamoDB's order (S by UTF-8 bytes, B as unsigned bytes,
// N numerically with no decimal parsing). A partition of one item keeps
// it inline, without a B-tree, and one of a few (up to 32) a sorted slice
// (ptree.go: a B-tree of ten items costs twice the slice's bytes);
// partitions come from chunks of their own (partArena), not one
// allocation each.
//
// Items at rest are records (partition.go): the partition key, the
// encoded sort key and the item in a compact, versioned, length-prefixed
// binary encoding without its key attributes, attributes and map entries
// sorted by name (encode.go). A record names its own key, so a partition
// of one item needs nothing beside it, and index entries and compaction
// find the item again from the record. Records are packed into the
// table's slab (slab.go): chunks of records back to back, never
// overwritten, compacted emptiest first once the table's dead records pass
// half its live ones, so a record costs its bytes and nothing
// is rounded up to an allocator size class. A 240-byte item of 10
// attributes costs about 335 bytes of heap and 350 of resident memory in
// all at a million items, against about 1300 bytes for the same item held
// as a map of Values (BenchmarkMemory, BenchmarkScaleMemory).
//
// # Transactions
//
// There is one write path. Every item write, whether from Table.Write,
// Table.Put or a WriteTx, is the table's putItemLocked under the table's
// write lock: it encodes the item, replaces it in its partition, keeps the
// count, the size and item collection sizes, and builds the Change.
// Table.Write and Table.Put are that primitive for one table and one item
// (they take the lock themselves rather than build a transaction, which
// would cost an allocation on the hottest path); a WriteTx is the same
// primitive under the locks of all its tables, plus an undo entry per write
// (the stored record it replaced, an immutable string, so recording it
// copies nothing). Anything a table maintains inside a write (counts,
// sizes, item collection sizes, secondary and vector indexes) is therefore kept for
// all three, and undone by Abort, which restores the old records through
// the same primitive. The commit point is the same for all three too:
// there, under the tables' locks, the DB's hook and then the tables'
// observers are told of the writes.
//
// Isolation is by locks held to the end. Begin and BeginRead take their
// tables' locks in one fixed order, ascending table id (creation order), so
// two transactions cannot deadlock, and single-table operations, which
// hold one lock, cannot join a cycle. A WriteTx is therefore serializable
// against other transactions and against single writes; a transaction
// waits for the locks it needs and never fails for a conflict. A reader
// never sees half a transaction: a Get, Query or Scan of one table holds
// its lock, and a ReadTx holds the read locks of all its tables at once.
//
// A WriteTx's Write callback runs under the locks like Table.Write's: it
// must not call back into a table. A failed write writes nothing and
// leaves the transaction open; the caller chooses to go on or to Abort.
//
// # Locks
//
// A Table has one lock, Table.mu: shared for Get, Query, Scan, the
// statistics and a ReadTx, exclusive for Write, Put, a WriteTx, AddIndex,
// DropIndex, SetObserver, TrackCollections and Snapshot (DB.Snapshot takes
// every table's, in ascending id, then the DB's catalog lock, then
// DB.lastMu, a leaf, to give its last snapshot again). Storage
// holds it while it runs its caller's code: a Write callback, a WriteTx
// from Begin to Commit or Abort, a Query or Scan visit, an Observer. That
// code must not take a lock that anyone holds while calling into a Table,
// or the two wait for each other for good. The rule for callers is
// therefore: locks of the caller's own that are held across a call into
// storage (the emulator's table.mu, for a change of a table's definition)
// come before Table.mu; whatever runs under Table.mu reads such state
// without a lock (the emulator keeps it in an atomic pointer to an
// immutable value) or takes only locks that are never held across a call
// into storage. Several tables are locked only by Begin and BeginRead, in
// ascending table id. Under Table.mu come a read lag's shadow's mu and
// the Lag's own lock (Stamp at a commit, Visible on a lagged read;
// index_lag.go, read_lag.go). The service's doc.go
// (emulator/internal/service) writes down the whole order.
//
// # The commit hook
//
// Every change of a DB leaves it through its one Hook (hook.go), fixed by
// NewDB, as a Record: each committed storage transaction (Table.Write,
// Put and WriteFrom, WriteTx.Commit: single writes, batches, transactions,
// TTL deletions) as one RecordCommit holding every item write (table ID,
// key, stored records before and after, origin), and each catalog change
// (create, restore and drop table, add and drop index or vector index,
// metadata) as a record of its own. This is the seam persistence (a write-ahead log), backups and
// replicas hang off; DB.Apply (apply.go) takes a Record back, and
// AppendRecord and ParseRecord (record_codec.go) are its binary form.
//
// The contract, in short (hook.go has it whole): the hook is called at
// the commit point, under the write locks of the tables the change
// touches, after the change is made and before anyone can see it, so it
// sees each table's changes in the order they become visible. If it
// fails, the change is undone and the caller gets ErrHookFailed; nothing
// is half applied. It may return a wait token, which the committer hands
// to Hook.Wait after releasing the locks (group commit: Commit appends,
// Wait waits for the fsync); Wait's error comes back as ErrNotDurable,
// the change applied. Writes that change nothing are not recorded; a
// table dropped from its DB records nothing more. Without a hook a commit
// pays one nil check; a hook that is a CommitSelector (hook_select.go)
// is asked first whether it wants a table's item writes at all.
//
// # Snapshots
//
// Table.Snapshot and DB.Snapshot (snapshot.go) freeze a table, or every
// table of a DB consistently, in O(1) per table and index while writes
// go on: a TableSnapshot is read-only and needs no lock (GetEncoded,
// QueryEncoded, ScanEncoded, counts, sizes, index definitions and
// statistics, metadata). DB.RestoreTable (restore.go) makes a writable
// table of a snapshot, sharing its items and index entries (its
// partition table and B-trees in O(1)); vector indexes are not shared
// but rebuilt from the items (a snapshot keeps their definitions), and records it
// (RecordRestoreTable, whose binary form carries the items); a
// TableBuilder makes a snapshot of item images loaded from elsewhere,
// checking them, without decoding them; given chunks of stored records
// (TableSnapshot.EachChunk) it keeps them where they are, and given an
// index's order (TableSnapshot.IndexOrder) it loads the index in that
// order, checked, instead of sorting it. TableSnapshot.Derive
// (derive.go) makes a snapshot of another as it would be after item
// writes a hook recorded (rolled forward: point-in-time recovery), with
// other indexes or metadata (a restore with overrides), sharing what
// those do not touch. Table.Unchanged tells whether a table still holds
// exactly what a snapshot holds (taken of it or restored from it, and
// nothing changed since), so a rewind can leave it alone; a write pays
// one store for it. The sharing is copy-on-write
// (cow.go): the B-trees (github.com/tidwall/btree) copy in O(1) and copy
// a node before they first change it, a small partition's slice is
// copied whole; the partition table's arrays are
// shared and copied whole by the table before its first change after a
// snapshot; and a table copies a partition it shares with a snapshot
// before it writes it, known by a flag the partition table keeps beside
// each slot. Slab compaction moves only the table's own view of a record
// (copying a shared partition as any write does); a snapshot keeps the
// old record, and its chunk stays in memory while it is referenced. A
// table that was never snapshotted pays one flag test per write and no
// allocation. A table restored from a snapshot holds the snapshot's
// frozen secondary indexes themselves, and copies them (O(1) each) at its
// first change; what writes keep (the slab, the partition arena, the
// encoding buffer and attribute maps) every table makes at its first
// write. So a restored table that is only read (a branch's) costs its
// Table struct alone, and a DB of few tables keeps them in one sorted
// slice, with a map by ID only past eight.
// snapshot.go says what a snapshot costs in memory.
//
// # Caveats
//
// Values are immutable after construction: slices and maps passed to the
// constructors or returned by the accessors are shared, never copied.
//
// Every Get, Query and Scan visit decodes a fresh Item, which the caller owns
// and may keep; its strings share memory with the stored record, which is
// immutable. Reads therefore allocate; callers on hot paths use the Encoded
// variants and decode only what they need.
//
// Query and Scan hold the table's read lock for the whole walk, visits
// included: a visit must not call back into the same table (a Write would
// deadlock), and a long walk delays writers. Write's fn runs under the write
// lock with the same rule. Callers page with ExclusiveStart rather than hold
// a walk open.
//
// Storage trusts its caller for DynamoDB's validation: key kinds, item size,
// nesting depth, condition operands and their messages belong to the
// emulator. Misuse that would corrupt the table is refused (ErrKeyKind,
// ErrKeyMismatch, ErrTooDeep); a malformed query or scan range matches
// nothing. The hook runs under the same locks as Write's fn: it must be
// quick, safe for concurrent use (changes to different tables reach it
// concurrently) and must not call back into the DB, and it may keep the
// item records it is handed but not the Record itself. DB locks: a
// table's lock (ascending id) comes before the DB's catalog lock, which
// comes before a table's metadata lock.
//
// Streams and TTL live in the emulator's service
// (emulator/internal/service): a table's Observer (observe.go) is handed
// each committed item write (Committed: the key and the stored records
// before and after, never decoded for it) at commit under the table's
// write lock, so they are fed by the one write path; an aborted
// transaction hands over nothing.
//
// # Files
//
//   - Values: value.go (Value, Item, Kind), number.go (Number, named from
//     internal/number), size.go (ItemSize, ValueSize),
//     schema.go (KeySchema, Key), encode.go and decode.go (items at rest),
//     encoded.go, encoded_lookup.go and encoded_value.go (EncodedItem,
//     ItemReader, EncodedValue, the record writers), encoded_schema.go
//     (an image read with a key schema), encoded_size.go (the size of
//     some attributes, read from the record), image.go (checking images from
//     elsewhere), keyenc.go and tuplekey.go (order-preserving keys; a
//     number's is internal/number's AppendKey).
//   - Tables: table.go (Table, Get, Write, Put), partition.go (records,
//     partitions, the arena), ptable.go (the partition table), slab.go
//     (record memory and its compaction; slab_populate_linux.go backs a
//     large new piece of memory in one call instead of a fault per page:
//     record chunks, and a load's partitions, partition table pages,
//     index keys, entries and leaves), query.go
//     (Query, SortCondition), scan.go (Scan, SegmentOf), collection.go
//     (item collections), observe.go (Observers), errors.go,
//     prefetch.go, prefetch_amd64.go and prefetch_other.go (the cache
//     lines of the next records asked for early, in assembly on amd64),
//     slab_populate_other.go (where nothing backs memory at once).
//   - Transactions: tx.go (Begin, WriteTx, BeginRead, ReadTx), tx_grow.go
//     (room for the writes a caller knows it will make).
//   - Secondary indexes: index.go (AddIndex, DropIndex, index entries;
//     a new index's entries are sorted and loaded at once, and a load
//     may defer them all to the end: DB.DeferIndexes, FillIndexes),
//     index_entry.go (index entries and their order), index_sort.go
//     (sorting a new index's entries a key word at a time), itree.go (the
//     B+tree of an index's entries),
//     index_read.go (QueryIndex, ScanIndex), index_lag.go (SetIndexLag:
//     an index that sees commits late, the Lag interface).
//   - Stale reads: read_lag.go (SetReadLag, Eventual: a copy-on-write
//     shadow that eventually consistent reads read, commits applied late).
//     lag_switch.go (SwitchLag, SwitchReadLag: a lag's change of mode
//     between two commits; an index lag that lags nothing passes writes).
//   - Vector indexes: vector.go (definitions, the VectorIndexer seam,
//     ItemRef), vector_index.go (AddVectorIndex, DropVectorIndex,
//     SetVectorIndexer, ReadVectorIndex: a table's vector indexes).
//   - The DB and its hook: db.go (DB, CreateTable, DropTable), meta.go
//     (opaque metadata), hook.go (Hook, Record, the contract), apply.go
//     (DB.Apply), replay_load.go (DB.Replay and ParseRecordInto: a
//     DB loaded from its own log), record_codec.go (AppendRecord,
//     ParseRecord),
//     record_codec_transient.go (ParseRecordTransient: a record read
//     unchecked, for a caller that copies what it keeps).
//   - Snapshots: snapshot.go (Table.Snapshot, DB.Snapshot), restore.go
//     (DB.RestoreTable, TableBuilder), chunks.go (a table as chunks of
//     its stored records and its indexes' order, for snapshot files,
//     and a TableBuilder taking them), cow.go (copy-on-write sharing).
package storage
