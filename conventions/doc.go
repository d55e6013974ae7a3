// Package conventions knows the key, version and tenant conventions of the
// mbc-cqrs-serverless framework (its key design guide and its code) and
// checks writes against them for the tables that opt in.
//
// It is two things: a plain Go library for building and reading keys as
// the framework does, and a rule engine the emulator calls on its write
// path. Neither does I/O or keeps items.
//
// # Where to start
//
// A Go program that writes the framework's items builds their keys with
// the pattern builders (Hierarchy, SimpleEntity, ...; the package
// Example). A test that wants its writes checked gives the emulator a
// Config (emulator.Options.Conventions, read by ParseConfig) and reads
// the emulator's ConventionsReport; "dynamoemu check" checks the
// tables of any endpoint. CheckTable and Rules.CheckWrite show the rules
// alone.
//
// # Basics: the key library
//
// The constants and helpers mirror @mbc-cqrs-serverless/core exactly,
// including its edge cases (a table of the framework's own answers is a
// test):
// KeySeparator "#", VerSeparator "@", VersionFirst 0, VersionLatest -1,
// TenantCommon "common", DefaultTenantCode "single"; GenerateID,
// TenantCode, AddSortKeyVersion, RemoveSortKeyVersion, SortKeyVersion,
// MasterPK, SeqPK and TTLSK. Where JavaScript's semantics leak through they
// are kept: SortKeyVersion returns a float64 because the framework returns
// what unary + gives ("X@1.5" is 1.5, "X@0x10" 16, "X@abc" NaN),
// AddSortKeyVersion takes a float64 and formats it as JavaScript does, and
// TenantCode reports JavaScript's undefined as false.
//
// Those helpers cut keys at the last '@' and accept loose versions without
// a word. The checked counterparts return errors instead (sentinels in
// errors.go, tested with errors.Is): ParseSortKey, BaseSortKey,
// VersionedSortKey, NewID, ParseTenant and TenantAt. Go programs build keys
// with them, or with the builders of the guide's six patterns, which refuse
// empty segments and separators inside segments: SimpleEntity, Hierarchy,
// CompositeSK, CommonTenant, MasterData and TimeSeries (each returns Keys:
// PK, SK and ID). Package conventions/ids makes ULIDs
// (github.com/oklog/ulid/v2) that sort by creation, with an injectable
// clock and random source.
//
// # Basics: the rules
//
// A Policy says which conventions one table follows: its Roles (command,
// data, history, sequences, tasks, session or keys, optionally with
// master: "master+command"), its Mode (enforce, warn, off), the index of
// the tenant in its partition key, rules it disables or makes strict,
// partition keys it exempts, and the key of its 'latest' item if it keeps
// one. A Config maps table names (exact, or path.Match globs such as
// "*-command") to policies; the most specific entry that matches a name
// wins (an exact name, else the glob with the most literal characters),
// so "*master-command" applies to the master module's table whatever the
// order of the entries. ParseConfig reads one from JSON. A table can also
// opt in by tags (TagRoles "dynamoemu:conventions" = roles, TagMode
// "dynamoemu:conventions-mode" = mode, and TagTenantSegment, TagDisable,
// TagStrict, TagExempt, TagLatest, TagLatestPointer); tags win over the
// file (Config.Lookup).
//
// Rules (made by New from a Config) is the Checker the emulator calls:
// CheckWrite for each item write or delete, CheckTransaction for the
// writes of one TransactWriteItems, CheckTable and CheckStream when a
// table is created or opts in, and CheckTenant when it was told the
// caller's tenant. A Write carries the table's Policy, the operation, the
// key as strings, the old and new items (the emulator's stored items:
// the one internal type this API names, see Write), whether the
// request's condition was the framework's create guard
// (IsNotExistsCondition recognises it) and Exists and Get lookups. Each
// broken rule is a Violation: rule id, table, key, Severity and a message;
// Error() gives "[conventions A3] command sort key "X" has no @version
// suffix". Refuse decides a write: in ModeEnforce every error-severity
// violation blocks it, and the Refusal it returns names all of them (its
// Error() is what the emulator answers); everything else is reported.
// Report keeps the violations for the emulator to expose: one Entry per
// distinct violation (operation, table, key, rule, severity, message,
// count, refusals, first and last time), exact totals, and Reset, so that
// a test can assert that one flow made no violation.
//
// # The rules
//
// RuleTable (ruletable.go) is the one list of the rules: id, default
// severity, checkpoint, what it asks and why its default is what it is.
// Policy validation, severities, this list and docs/conventions.md's table follow
// it (TestRuleTableDocumented). A rules come from the guide and the
// framework, B rules are inferred from the framework's code, D1 and D2
// are seed 001's single-table design and L1 seed 002's 'latest' item. A4, a create
// of an existing version failing, is not a rule here: DynamoDB's own
// condition does it. B14 is opt-in (Policy.Enable); A13, A8's declared
// start, B7's updatable attributes and D1 follow what a table declares.
//
//	A1   error table                      pk (S, HASH) and sk (S, RANGE)
//	A2   error write                      pk is PREFIX#TENANT: prefix and tenant non-empty
//	A3   error write                      command sk is <base>@<N>, version attribute == N
//	A5   error write                      data sk has no '@', version >= 1, cpk == pk, csk == sk@version or sk, both kept
//	A6   error write                      history sk is <base>@<N>, version == N
//	A7   error write                      id == generateId(pk, sk) on command, data, history and tasks rows
//	A8   error write                      sequences: SEQ#<tenant>; seq >= 1, set by UpdateItem, from 1 (or a declared start) up by one
//	A9   error write                      master rows: MASTER#<tenant>; TTL#<table> days >= 0
//	A10  error write                      ttl is NULL or whole epoch seconds
//	A11  warn  table                      a command table streams NEW_IMAGE
//	A12  warn  write                      the tenant segment is lower case
//	A13  error write                      time series: the declared month segment has its format, after the tenant; sk <timestamp>#<eventId>
//	A14  warn  read                       reads of a data table name an unversioned sk
//	A15  warn  write                      sort key segments joined by '#' alone (no empty segment, no other separator)
//	A16  warn  write                      master sk is TYPE#category#code or <setting>#<code>
//	A17  warn  write                      upper-case pk prefix, TTL#, the latest marker spelt exactly
//	B1   error write                      no '@' in a base sort key
//	B2   error write                      the tenant is the last pk segment unless declared
//	B3   error write                      the version suffix is a canonical decimal
//	B4   error write                      no stored version <= 0 (no @-1)
//	B5   error write                      command sk@N created only when sk@(N-1) exists
//	B6   error write                      command rows written once: guarded creates; overwrites change only ttl, updatable
//	B7   error write                      command UpdateItem: an existing row, only updatable attributes changed
//	B8   error write                      a data row's version stays or moves up by one
//	B9   error write                      tenantCode == the pk's tenant
//	B10  error request                    a tenant-bound caller uses only its tenant and common ones (and index partitions naming them)
//	B11  error write                      tasks and session key shapes
//	B12  error delete                     command rows are never deleted
//	B13  error write+delete               history rows are written once, never edited, expired early or deleted
//	B14  error write+delete               opt-in: a tenant-bound caller writes no common tenant's item
//	B15  error transaction                one transaction writes one tenant's items (and common ones)
//	B16  error write                      a GSI partition key names the item's tenant (or a common one), no other known
//	B17  error write+delete               a tenant-bound caller's USER_TENANT#common rows name its own tenant
//	B18  error write                      an async data row created or moved to N, a history row created at N, have command row sk@N
//	D1   error write                      with a declared design, an item matches an entity's templates
//	D2   error write                      with a declared design, a write keeps the entity of the item it replaces
//	L1   error write+delete+transaction   the 'latest' item copies a new version, by transaction or conditional write
//
// A table's Policy.Strict (tag TagStrict, JSON "strict") makes a warning
// an error on that table; Policy.Disabled turns a rule off. Policy.Exempt
// names partition keys no rule checks: the framework's stream warm-up
// script (trigger_ddb_stream.sh) puts {"pk":"test","sk":"<epoch>"} into
// every command table and a row under pk "test" into tasks, so a
// configuration for local development exempts "test". Exempt values
// match exactly, case included, unless Policy.ExemptIgnoreCase.
//
// What a table declares completes its policy: Policy.Updatable (B7),
// MonthSegment and MonthFormat (A13), SequenceStart (A8), Enable (opt-in
// rules: B14), LatestWrite (L1: either way, a transaction, or a
// conditional write) and Design (D1, against the emulator's design
// file). A Write carries what the rules read of its request besides the
// items: Condition and Holds (L1: a ConditionExpression's text, or a
// condition without text, such as a PartiQL WHERE clause, evaluated),
// Now (B13), CallerTenant (B14, B17), KnownTenant (B16), Design (D1,
// D2), Command (B18: the data or history table's command table, read in
// the write) and Position (the item's place in a batch or transaction,
// which its violations carry). CheckRead is A14 for one key a read
// names; CheckIndexTenant is B10 for a Query of a global secondary
// index partition. Each Violation's Reason is
// its rule's Why; a Refusal's Error names every violation with its item
// and reason (Violation.Explain).
//
// # Caveats
//
// The rules see one write at a time, before it is stored, after the
// request's own condition has passed: they cannot see an item that was
// written and then deleted (B5 cannot tell a gap from a version that TTL
// removed; the framework lets TTL remove a version only after the next one
// exists), nor the update expression that produced New (A8 and B7 judge
// by the old and new items, so an UpdateItem that leaves seq alone is not
// judged). Deletes are checked by B12, B13, B14, B17 and L1 only; TTL's own
// deletions are not client writes and are never checked.
//
// L1's conditional way is two requests the rules see apart: a new
// version written alone passes (the latest item's write follows), and
// the latest item's write must carry a condition that fails when it
// moved and point at a version the table holds. A table that wants every
// new version in a transaction with its latest item says LatestWrite
// transaction.
//
// Exists answers for the table as it is before the write; CheckTransaction
// adds the items the transaction itself puts, so a transaction writing
// sk@1 and sk@2 together does not break B5.
//
// Old must be the current item for the rules that compare (A8, B6, B7, B8,
// B12): the emulator reads it under the table's lock for every table
// with a policy. Exists and Get are called during CheckWrite, with that
// lock held, so they must not take it again.
//
// CheckTenant lets through, besides exempt keys, a master table's TTL
// setting (TTL#<table>) of a table whose configured policy declares a
// tenant segment: the framework reads it under MASTER#<last pk segment>,
// which on such a table is not a tenant. Only the configuration file is
// consulted for that; a table declaring its segment by tags is not known
// to the rules.
//
// Keys are read as strings; a table whose key attributes are not S fails
// A1 and its writes are not checked meaningfully. Tenants are never
// normalized: A12 reports upper case, and CheckTenant compares without
// regard to case.
//
// A Violation's message is English detail for logs and error messages; the
// emulator chooses the DynamoDB error it answers with.
//
// The framework's newer helpers (sortKeyBaseFromId,
// parseTwoSegmentPkSkFromId) and its environment-derived tenant lists
// (COMMON_TENANT_CODES, CROSS_TENANT_ROLES) are not mirrored; the common
// tenants are a Config field.
package conventions
