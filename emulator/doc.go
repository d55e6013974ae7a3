// Package emulator is DynamoDB-the-service: it speaks the DynamoDB JSON
// protocol (version 20120810) over HTTP on top of the storage and expr
// packages.
//
// # Basics
//
// New returns an Emulator; Handler returns its http.Handler. A request is
// POST / with an X-Amz-Target header "DynamoDB_20120810.<Operation>" and a
// JSON body (Content-Type application/x-amz-json-1.0 or 1.1). The handler
// reads the SigV4 Authorization header for the access key id and region (the
// signature is parsed, never verified), selects that pair's Namespace (one
// isolated database, as DynamoDB Local does; Options.SharedDB gives everyone
// one), reads the body up to Options.MaxBodyBytes (16 MB, AWS's limit),
// dispatches to the operation registered under that name, and answers with
// x-amzn-RequestId and x-amz-crc32 headers.
//
// # Operations
//
// Each operation family lives in its own file (op_tables.go, op_tags.go,
// op_items.go, op_read.go, op_batch.go) and registers its handlers in init with register:
// a generic adapter that decodes the body into the input struct, calls the
// handler with a *call (namespace, region, clock, logger, context) and
// encodes the output struct. Input and output structs mirror AWS's JSON
// member names; attribute values use AttributeValue, WireItem (items and
// keys) and ExpressionValues (ExpressionAttributeValues), whose decoders
// validate with AWS's messages. DecodeItem and AppendItem are the codec
// without the map conversions, for hot paths. The codec is in the wire files:
// wire.go (the types and item conversion), wire_scan.go (the JSON scanner),
// wire_decode.go (decoding and validating attribute values), wire_encode.go
// (encoding them) and wire_exprvalues.go (ExpressionAttributeValues).
//
// Request bodies are decoded without encoding/json (decode.go): a plan per
// input type, built once, runs on the attribute-value scanner of wire_scan.go and
// gives encoding/json's results and error precedence, except that member
// names match exactly, as AWS matches them. Data-plane outputs encode
// themselves (appendJSON in encode.go) into pooled buffers; other outputs go
// through encoding/json. GetItem, Query and Scan never decode the items they
// return whole: AppendStoredItem writes them straight from storage's records
// (storage.EncodedItem); a filter decodes only the attributes it reads, a
// projection only those its paths start with. The benchmarks of the hot
// operations are in emulator/benchmarks.
//
// # Streams, TTL and the clock
//
// The DynamoDB Streams API is served on the same handler under
// "DynamoDBStreams_20120810.<Operation>" (streams_api.go), registered
// through the same adapter under its full target. A table's stream
// (streams.go) is the storage Observer of its data: storage hands it each
// committed item write, with the stored records before and after, under
// the table's write lock, so every write path (single items, batches,
// transactions, TTL deletions) produces its records and nothing re-reads a
// table. TimeToLive (ttl.go) deletes expired items through the same write
// path. Every time the emulator uses comes from one clock that tests move
// (clock.go: Advance, SetNow; admin.go: the same over HTTP, plus a forced
// TTL sweep). The clock is the base clock plus a time.Duration offset: a
// move more than about 292 years away is ErrClockRange (400 over HTTP).
//
// # Hosts, origins and the admin endpoints
//
// Before any routing the handler refuses, with 403 AccessDeniedException,
// a request whose Host is a name a web page could rebind to the emulator's
// address (hosts.go): it answers IP addresses, localhost, *.localhost,
// *.internal and Options.AllowHosts, and, on connections that arrived at a
// non-loopback address (a container, a LAN), also single-label names,
// *.local and *.home.arpa. Requests that came through no net/http server
// (an in-process transport) are not checked. The admin endpoints (every
// path but "/", admin_guard.go) refuse an Origin that Options.CORSOrigins
// does not allow (403) and a state-changing request without Content-Type
// application/json (415), so that no web page can move the clock or sweep.
// The API needs no such check: X-Amz-Target cannot be sent cross-site
// without a CORS preflight.
//
// # Locks
//
// Every lock of the emulator and of storage in one order, top to bottom.
// A goroutine holding one of them takes only locks below it, never one
// above (TestLockOrder runs every schema change against every write path
// to hold the emulator to it):
//
//	table.mu          one table's definition changes: UpdateTable,
//	                  DeleteTable, UpdateTimeToLive, TagResource,
//	                  UntagResource, through changeMeta (catalog.go),
//	                  which records each in the namespace's DB
//	storage.Table.mu  one table's items, indexes and metadata record
//	                  (SetMeta); several tables only through storage.Begin
//	                  and BeginRead, which take them in ascending table id
//	                  (storage/doc.go)
//	storage.DB.mu     a namespace's DB catalog: CreateTable, DropTable
//	                  (DeleteTable holds table.mu and the table's
//	                  storage lock while it drops it)
//	streamSet.mu      a namespace's list of streams (streams.go)
//	stream.mu         one stream's records; Observe takes it under
//	                  storage's lock
//	pitrLog.mu        one table's point-in-time history (pitr.go); the
//	                  DB's hook takes it under storage's locks, and
//	                  rolls the history forward under it on a table of
//	                  no DB, whose storage lock nobody else ever holds
//	leaves            namespaces.mu, Namespace.mu, idempotency.mu,
//	                  conventions.Report.mu, stmtCache.mu, codecMu,
//	                  pitrRecorder.mu, backupSet.mu, snapshotStore.mu, the
//	                  logger's: held for their own work, nothing taken inside
//
// A table's definition is read under no lock at all: table.meta is an
// atomic pointer to an immutable tableMeta, swapped whole by the changes
// above. So code that runs under storage's lock (a Write callback, a
// WriteTx before its Commit, a Query or Scan visit, an Observer) reads
// index definitions, LSIs, TTL and the conventions policy without
// waiting, and must never take table.mu; a definition change may hold
// table.mu while it takes storage's lock (AddIndex, DropIndex,
// SetObserver). A write that read the definition just before a change
// is published acts on the one it read: an index being added is sparse
// (an item without its key attributes, or with the wrong types, is not
// in it), and a reader that finds an index just dropped answers as if
// it had not found it.
//
// # Backups, point-in-time recovery and snapshots
//
// On-demand backups (backups.go) are copy-on-write snapshots of a table
// and its definition, kept per namespace in memory; restores
// (restore.go) make a new table of a snapshot without copying its items.
// Point-in-time recovery (pitr.go) keeps, per table, a base snapshot and
// the log of the writes committed since, fed by the namespace's commit
// hook (pitrRecorder wraps the hook persistence gives), so a restore to
// any instant of the window rolls the base forward. Beyond AWS, the
// whole emulator can be snapshotted and rewound for test suites
// (ns_snapshot.go; Emulator.Snapshot, Restore and DropSnapshot, and
// /dynamoemu/snapshots, snapshots.go).
//
// # Errors
//
// Operations return errors built by the constructors in errors.go
// (errValidation, errResourceNotFound, ...). Each belongs to a class (a
// sentinel such as ErrValidation, tested with errors.Is); only the HTTP edge
// turns a class into "__type", the message member and a status. An error of
// no class is a bug and answers 500 InternalServerError, as does a panic,
// which is logged with its stack.
//
// # Limits
//
// limits.go says what one client can make the emulator hold: bodies grow as
// they arrive, Options.MaxInFlight requests at once counted once their
// body has arrived (then ThrottlingException), access keys of letters and
// digits up to 128 (else UnrecognizedClientException), namespaces created
// by their first table, memory returned to the OS after large deletes.
// Placeholder maps over AWS's 2 MB are refused without being decoded into
// maps (wire_placeholders.go). ClientRequestTokens keep a fingerprint and
// a replay's answer in a store bounded by Options.IdempotencyBytes, and
// are forgotten as the clock passes their window (idempotency.go): a
// janitor goroutine with the real clock, which Close stops. NewServer (httpserver.go)
// returns the http.Server cmd/dynamoemu runs, with read, write and idle
// timeouts, a 64 KB header limit, connection counts and each cut-off logged
// at debug level. Text that is not Unicode is refused with
// SerializationException (wire_text.go).
//
// # Caveats
//
//   - When a body has both a member of the wrong JSON type and an invalid
//     attribute value, the attribute value's error is reported (as
//     encoding/json did: a wire type's error ends decoding, a type mismatch
//     is only remembered); AWS always reports the serialization error.
//   - A JSON null where an AttributeValue is expected leaves it invalid
//     (IsValid() false); operations check required values. WireItem and
//     ExpressionValues reject nulls themselves with DynamoDB's messages (which
//     say "Item" for keys too, as DynamoDB does).
//   - Messages of SerializationException for wrong JSON types follow AWS's
//     current pattern ("NUMBER_VALUE cannot be converted to String"); the
//     TRUE_VALUE/FALSE_VALUE/STRING_VALUE variants, the base64 message and
//     the null BS member message are inferred, not confirmed.
//   - A JSON string holding an integer is accepted where a number is
//     expected, as DynamoDB Local accepts it (AWS's own answer is not
//     recorded); any other string there is a SerializationException.
//   - Compressed bodies (compress.go): the 16 MB limit also applies to the
//     decompressed body, where DynamoDB accepts far more; bytes after the
//     last gzip member are refused, where DynamoDB ignores them.
//   - Java object identities that AWS prints in some constraint messages
//     (BatchWriteItem's echo of its requests) are replaced by a stable hash
//     of the value.
//   - Control-plane changes take effect at once: no CREATING/UPDATING state,
//     no ~2 s tag lag or tag lock, no 15 s deletion-protection cooldown and no
//     daily limit on throughput decreases, all of which AWS has.
//   - ItemCollectionMetrics (collections.go): a collection's size is the
//     sum of its items' sizes plus their local secondary index entries
//     (key and projected attributes + 100 bytes each), kept per partition
//     by storage; SizeEstimateRangeGB brackets it by whole GB ([0, 1] below
//     1 GB, as AWS documents; AWS's rule above that is not documented).
//     A BatchWriteItem refused for the 10 GB limit writes none of the batch:
//     its writes go through one storage transaction (AWS does not promise
//     either way).
//   - Transactions (op_transact.go, op_transact_get.go, idempotency.go):
//     isolation is by locks, so a transaction waits instead of failing with
//     TransactionConflict, and TransactionInProgressException never
//     happens. Input errors (keys, expressions, sizes) are top-level
//     ValidationExceptions as for the single-item operations; errors that
//     depend on the stored item (an operand of the wrong type, an item grown
//     past 400 KB, a full item collection) cancel the transaction with that
//     action's reason, as AWS does (DynamoDB Local answers some of each the
//     other way; the conformance suite marks them).
//   - Streams have one shard each (AWS splits and rolls shards over
//     time); sequence numbers are 21-digit decimals from 1 per stream.
//     Records older than the retention are trimmed when the stream is next
//     written or read, so an idle stream keeps its last records until
//     then. A write that stores an equal item (byte for byte the same
//     record, or the same sets in another member order) emits no record.
//   - TTL: expired items are deleted at the next sweep (every
//     -ttlSweepInterval, or SweepTTL), not within days as on AWS; AWS's one
//     TTL change per hour is not enforced, as DynamoDB Local does not.
//   - DescribeEndpoints answers the request's Host (as AWS answers its own
//     host name, without a scheme), so endpoint discovery stays on the
//     emulator; an SDK that adds https:// to it needs TLS in front.
//   - Conventions (conventions.go): tables that opt in (Options.Conventions
//     or their tags) have their writes and deletes checked against the
//     mbc-cqrs-serverless conventions, with ValidationException naming every
//     blocking violation (AccessDeniedException for the tenant guard) on
//     enforced tables; DynamoDB has nothing like it. Tables that do not opt
//     in are untouched. A violation inside TransactWriteItems is a top-level
//     ValidationException, not a cancellation reason. The report
//     (ConventionsReport, GET /dynamoemu/conventions) is emptied by
//     ResetConventionsReport or DELETE /dynamoemu/conventions.
package emulator
