// Package service is DynamoDB-the-service without HTTP: the namespaces
// and their table catalogs on storage.DB, the control plane, the data
// plane, transactions, streams, TTL sweeping, and the PartiQL glue;
// table-level features plug in through its seam (feature*.go), the
// instruments through the stage seam (stage*.go). The HTTP edge (package emulator) authenticates a
// request, reads its body and hands it to a Service: Lookup resolves the
// X-Amz-Target, Serve runs the operation and returns the response body or
// an error of an apierr class, which the edge turns into __type, status
// and message. Nothing here knows HTTP, and nothing imports the facade.
//
// # Basics
//
// New returns a Service configured by Config (shared or per-key
// namespaces, logger, clock, idempotency memory, transient delay, stream
// retention, the stages' settings, the commit hook of each namespace's DB). A
// request selects the Namespace of its access key and region (one
// isolated database, as DynamoDB Local does; Config.SharedDB gives
// everyone one); a namespace is created by its first table, never by a
// read. Each operation family lives in its own file and registers its
// handler in init with register (register.go): a generic adapter that
// decodes the body into the input struct (wire.DecodeRequest), calls the
// handler with a *call (namespace, region, clock, logger, context) and
// encodes the output struct (its appendJSON method, or encoding/json).
// Input and output structs mirror AWS's JSON member names.
//
// # The catalog and the commit hook
//
// A Namespace's storage.DB holds its tables: their items, their indexes
// and, per table, one metadata record with the table's whole definition
// (emulator/internal/catalog's doc says what is persisted, what is
// derived and what is volatile). Every change of a definition (UpdateTable, DeleteTable,
// UpdateTimeToLive, TagResource, UntagResource) goes through one funnel,
// table.changeMeta (catalog.go): it records the new definition with the
// DB's commit hook (Config.Hooks) and only then makes the storage changes
// it implies and publishes it; a record the hook refuses changes nothing. CreateTable and DeleteTable go through the DB's
// CreateTable and DropTable, which record themselves. Items are recorded
// by storage at each commit (single writes, batches, transactions, TTL
// deletions). Namespace.Apply (catalog_apply.go) rebuilds a namespace
// from its records: the seam persistence, backups and replicas hang off;
// TestReplay proves it complete.
//
// # Files
//
//   - Service and namespaces: service.go (Service, New), config.go,
//     serve.go (Lookup, Decode, Serve), namespace.go (Namespace, on
//     package emulator/internal/catalog's Registry),
//     register.go (the operation adapter; an operation without
//     a handler is apierr.OperationNotFound), ops.go (the core's own
//     operations), call.go (call, what a request hands its operation,
//     and their pool), enums.go,
//     unknown_members.go (a member an operation's request does not take).
//   - Catalog (the list and definitions: emulator/internal/catalog):
//     catalog.go (table, changeMeta), catalog_tables.go (a namespace's
//     tables, createTable), table_lookup.go (a TableName to a table;
//     deleted tables kept DELETING for -delayTransientStatuses' delay),
//     catalog_record.go (a definition as its metadata record),
//     catalog_apply.go (Namespace.Apply), persistence.go
//     (Namespace.RebuildCatalog: a namespace loaded from disk, and what
//     a restart puts right).
//   - Control plane: op_tables.go (CreateTable, DeleteTable,
//     DescribeTable; ListTables, DescribeLimits and DescribeEndpoints
//     are the feature emulator/internal/accountops's),
//     tables_types.go (their wire shapes, most of them
//     emulator/internal/tablespec's, which also holds the definition
//     types, CreateTable's checks, a definition's limits and
//     UpdateTable's index changes: tablespec.Indexes),
//     tables_describe.go (TableDescription), tables_update.go
//     (UpdateTable), billing_summary.go (when
//     BillingModeSummary shows), feature_definition.go (the parts of a
//     definition the core keeps that features read and change: a
//     table's tags, checked by tablespec; the tagging operations are a
//     feature, emulator/internal/tagging).
//   - Vector indexes (vector/VECTOR_SPEC.md): emulator/internal/tablespec
//     (wire shapes, definitions, CreateTable's checks, UpdateTable's
//     VectorIndexUpdates, the write-side check checkIndexKeys calls, the
//     write capacity's figures), vector_defs.go (DescribeTable),
//     feature_vectors.go (an index as SearchVectors
//     reads it; SearchVectors is a feature,
//     emulator/internal/vectorsearch).
//   - Data plane: dataplane.go (shared helpers: keys, conditions,
//     capacity), op_items.go (PutItem, GetItem, DeleteItem, UpdateItem),
//     update_size.go (UpdateItem's item size accounting),
//     update_patch.go (UpdateItem on the stored record, storage.WritePatch),
//     update_scratch.go (its pooled scratch maps), input_recycle.go
//     (inputs whose maps go back to the decoder once answered),
//     op_read.go and op_read_index.go (Query and Scan, on tables and
//     indexes; their parameters' checks and a Query's sort-key bounds
//     are emulator/internal/readparams'), op_batch.go and
//     batch_constraints.go (BatchGetItem, BatchWriteItem),
//     op_batch_recycle.go (the item maps written items give back),
//     op_batch_get_encode.go (BatchGetItem's answer from stored records),
//     page_pool.go (pooled page slices),
//     capacity.go (the answers' ConsumedCapacity, in package capacity's
//     units, when the request asks for it),
//     item_size_bound.go (when an item's size needs no measuring),
//     indexes_multi.go (multi-attribute GSI queries),
//     collections.go (item collections and their 10 GB limit),
//     encode_outputs.go (the data-plane outputs' appenders),
//     page_eval.go (filters and projections evaluated
//     on stored records: expr.Matcher, expr.Projector),
//     batch_names.go (malformed and empty RequestItems; the single-item
//     writes' request-validation envelope is apierr's
//     WriteRequestEnvelope), limits.go
//     (the one table of the members a client may send far over their
//     limits, which the request decoder reads as their rows say: what of
//     an element past the limit each answer needs).
//   - Validation: validation_order.go (the order each request kind is
//     validated in, written down once; UpdateItem's constraints),
//     readparams.ComparisonOpViolation (an unknown ComparisonOperator of
//     the legacy condition maps, a member constraint violation),
//     value_layers.go (the layer each operation words malformed values
//     in), value_order.go (where a value's error is reported),
//     emulator/internal/apierr's key_shape.go (key errors that
//     transactions cancel for).
//   - Transactions: op_transact.go (TransactWriteItems),
//     op_transact_get.go (TransactGetItems), idempotency.go
//     (ClientRequestTokens, which package emulator/internal/idempotency
//     keeps: a bounded store keyed by a request's fingerprint, its
//     janitor, tokens kept as DB metadata with -dbPath; here, what a
//     replay answers).
//   - Streams: streams.go (when a table's stream starts and stops; the
//     stream itself, the storage Observer of its data, is package
//     streamrec's, over package streamlog's record log, and so is its
//     rebuilding across restarts, streamrec.Sidecar: streams.go hands
//     it the reading of a definition record), feature_streams.go (the streams as the Streams API
//     reads them; the API is a feature, emulator/internal/streamsapi).
//   - TTL: a table's setting (tablespec.TTL, in its definition's
//     Settings);
//     UpdateTimeToLive, DescribeTimeToLive and the sweeper that deletes
//     expired items are a feature (emulator/internal/ttl).
//   - Recovery: on-demand backups are a feature
//     (emulator/internal/backups: CreateBackup and its siblings,
//     RestoreTableFromBackup, the SYSTEM backup of a deleted table),
//     which keeps a TableCopy; point-in-time recovery is a feature too
//     (emulator/internal/pitr: its recorder in the commit hook chain,
//     service.Hooker and Definer, feature_lifecycle.go); both restore
//     through emulator/internal/restore, over Call.MakeTable (a table
//     made of a snapshot, feature_table.go) and Edit's setters (what the
//     overrides do to the indexes is tablespec's RestoredIndexes), backups_types.go
//     (a restored table's RestoreSummary), hook_select.go (the item writes
//     the namespace's hook chain hears of), admin_views.go (read-only
//     views for the admin endpoints), keep.go the files beside a
//     namespace (Config.Keep, Space.Keep), ns_snapshot.go (snapshots
//     and rewinds of every namespace, and forks sharing one catalog).
//   - The statement seam: feature_statements.go runs the statements
//     package partiqlops (ExecuteStatement, BatchExecuteStatement,
//     ExecuteTransaction) lowers, as the item operations they stand
//     for; a SELECT's plan is partiqlops', read a page at a time by
//     Call.ReadPage.
//   - The table-feature seam: feature.go (Feature, Registrar, Op,
//     Call, Table and a table's feature slots, recorded by
//     catalog_record.go). A service serves the features its Config
//     hands it (Config.Features; the emulator's, emulator/features.go),
//     each in its own package (emulator/internal/resources, transfers,
//     backups, pitr, globaltables, tagging, ttl, streamsapi,
//     vectorsearch, ...), naming nothing of the core's but the seam.
//     feature_state.go gives a feature its per-namespace state (State, a
//     key; a service's and a table's are kept the same way);
//     feature_lifecycle.go the hooks a feature or a stage takes in a
//     service's life (Hooks, handed over by a Hooker); feature_calls.go
//     the core's checks and writes a feature's operation may ask for;
//     feature_table.go a table as it was (a backup) and a table just
//     deleted (Dropped); feature_define.go a definition read and changed
//     (Definition, Table.Change and its Edit); feature_update.go the
//     UpdateTable members a feature owns; feature_service.go per-service
//     state and the namespaces of other regions (Service.Space,
//     Call.InRegion). The parts of a table the core keeps for its own
//     operations and features read or change: feature_definition.go
//     (tags, Time to Live), feature_reads.go (the data plane's lookups, a
//     table's indexes), feature_streams.go (the streams),
//     feature_vectors.go (a vector index); APIOp and JSONAppender
//     (another API's operations, outputs that encode themselves).
//   - The stage seam: stage.go (Stage, Switch, TableUse, Outcome: the
//     instruments' part in each use of a table or index, Begin before
//     storage is touched and End with what the use did, a value the
//     stage keeps on the use between them; the stages are the service's
//     Config.Stages; which watch a table is asked once per definition),
//     stage_state.go (what a stage keeps: its settings, its state per
//     table), stage_check.go (the checks a stage may make beside the
//     uses: the keys a request names, each write inside its storage
//     transaction), capacity.go (what the operations read and wrote, in
//     DynamoDB's units and the answers' ConsumedCapacity:
//     emulator/internal/capacity).
//   - The stages in each operation: the installed stages are packages
//     under emulator/internal/stages, each with its own doc;
//     pipeline_use.go (the watched write's capacity mode, a use's key
//     condition),
//     pipeline_batch.go (per item, UnprocessedItems/Keys),
//     pipeline_tx.go (per action, CancellationReasons), pipeline_condfail.go (a
//     write refused by its condition, or a cancelled transaction, charged
//     and counted as AWS charges it), feature_reads.go (what a feature
//     reading tables as the data plane does asks: name checks, the
//     lookup, GSIs),
//     stage_read.go (the seam's read side: which storage view a read
//     reads, the table or its eventual view, and the ReadViewer stages
//     that pick it; a stage's StreamHold on a stream's records).
//   - The request pipeline: pipeline.go (the operations that read or
//     write items, which run inside the stages above, in one order),
//     pipeline_item.go (the managed scopes, as bbolt's db.Update(fn):
//     useItem, useRead, useTx, useTxGets and useSearch begin a use, run
//     the handler's function with it, and end it in a defer whatever the
//     function did; the use's report (storeItem, fetchItem, answerPage, commitTx) tells
//     the stages' End, a refused condition or a cancellation is charged;
//     consumed capacity and item-collection metrics come from what was
//     reported). pipeline_test.go walks every registered data-plane
//     operation through every stage, and stage_test.go through every
//     installed stage by the seam; pipeline_scope_test.go ends a scope
//     its function left early.
//
// # Streams, TTL and the clock
//
// A table's stream (streams.go, streamrec) is the storage Observer of its data:
// storage hands it each committed item write, with the stored records
// before and after, under the table's write lock, so every write path
// produces its records and nothing re-reads a table. The TTL feature's sweeper
// (emulator/internal/ttl) deletes expired items through the same write path. Every time the
// service uses comes from Config.Clock, which the facade moves (its
// Advance and SetNow); a move calls ClockMoved, which forgets the
// ClientRequestTokens whose window it ends.
//
// # Locks
//
// Every lock of the service and of storage in one order, top to bottom.
// A goroutine holding one of them takes only locks below it, never one
// above (TestLockOrder runs every schema change against every write path
// to hold the service to it):
//
//	Namespace.ownMu   giving a namespace its own catalog (Namespace.own):
//	                  taken with no lock held; the catalog's making inside
//	replicator.globalMu  a change of a global table's membership (the
//	                  globaltables feature's): it may take the table.mu
//	                  of every member, one after the other
//	replicator.drainMu  applying the replication queue (the globaltables
//	                  feature's): taken with no lock held (a request's
//	                  start: Starter; the facade's DrainReplication) or
//	                  under globalMu (a replica's creation); it takes the
//	                  table.mu of a member whose definition it changes
//	                  (Table.Change) and storage's locks
//	table.mu          one table's definition changes: UpdateTable,
//	                  DeleteTable, UpdateTimeToLive, TagResource,
//	                  UntagResource, through changeMeta (catalog.go),
//	                  which records each in the namespace's DB
//	storage.Table.mu  one table's items, indexes and metadata record
//	                  (SetMeta); several tables only through storage.Begin
//	                  and BeginRead, which take them in ascending table id
//	                  (storage/doc.go); then the locks of a stage's view
//	                  of the table (a ReadViewer's: leaves), taken under
//	                  it at a commit, by a read of that view and by the
//	                  stage's change of the view, which takes the
//	                  stage's own lock and storage.Table.mu first (the
//	                  stage's package doc names them)
//	storage.DB.mu     a namespace's DB catalog: CreateTable, DropTable
//	                  (DeleteTable holds table.mu and the table's
//	                  storage lock while it drops it)
//	streamrec.Sidecar.mu a namespace's streams kept for persistence
//	                  (streamrec/sidecar.go); Capture takes it under
//	                  storage's locks (a compaction's freeze)
//	streamrec.Set.mu  a namespace's list of streams (streamrec/set.go)
//	streamlog.Log.mu  one stream's records; Observe takes it under
//	                  storage's lock
//	pitrLog.mu        one table's point-in-time history (the pitr feature's); the
//	                  DB's hook takes it under storage's locks, and
//	                  rolls the history forward under it on a table of
//	                  no DB, whose storage lock nobody else ever holds;
//	                  with persistence it appends to the history's
//	                  FrameLog (persist's lock, a leaf) under it
//	replicator.mu     the replication routes, queue and write stamps
//	                  (the globaltables feature's); the tap takes it in
//	                  the DB's hook under storage's locks, nothing taken
//	                  inside it
//	a stage's save    saving a stage's state of a namespace as DB
//	                  metadata (the stage's save lock): taken with no
//	                  lock held, or under table.mu when a table or GSI is
//	                  deleted (Dropped, IndexDropped); the stage's own
//	                  leaves, or storage's locks (one at a time), then
//	                  the DB's SetMeta, inside it
//	leaves            a feature's own (transfers' transferSet.mu), catalog.Registry's and catalog.Catalog's, the token store's (idempotency.Store),
//	                  a stage's own locks (each stage's package doc
//	                  names them: a leaf, or one that takes only leaves
//	                  inside it, one at a time; Begin and End may run
//	                  under storage's locks, as a batch's items are
//	                  charged inside its transaction),
//	                  partiqlops' stmtCache.mu, codecMu,
//	                  the pitr feature's pitrRecorder.mu, the backups feature's backupSet.mu, the emulator's snapshots.mu and branches.mu, the
//	                  logger's: held for their own work, nothing taken inside
//
// A table's definition is read under no lock at all: table.meta is an
// atomic pointer to an immutable tableMeta, swapped whole by the changes
// above. So code that runs under storage's lock (a Write callback, a
// WriteTx before its Commit, a Query or Scan visit, an Observer) reads
// index definitions, LSIs, TTL and the stages' table slots without
// waiting, and must never take table.mu; a definition change may hold
// table.mu while it takes storage's lock (AddIndex, DropIndex,
// SetObserver). A write that read the definition just before a change
// is published acts on the one it read: an index being added is sparse
// (an item without its key attributes, or with the wrong types, is not
// in it), and a reader that finds an index just dropped answers as if
// it had not found it.
//
// # Errors
//
// Operations return errors built by package apierr's constructors
// (apierr.Validation, apierr.ResourceNotFound, ...) with its message
// constants. Each belongs to a class (a sentinel such as
// apierr.ErrValidation, tested with errors.Is); only the edge turns a
// class into "__type", the message member and a status. An error of no
// class is a bug and answers 500 InternalServerError, as does a panic,
// which the edge recovers and logs with its stack. A commit the hook
// refuses answers 500 as well, with nothing changed.
//
// # Caveats
//
// Where the service knowingly answers otherwise than AWS (transactions
// that wait instead of conflicting, one shard a stream, TTL swept at
// once, item collection sizes) is written down in
// docs/compatibility.md, "Where the core differs".
package service
