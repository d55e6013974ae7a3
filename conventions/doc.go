// Package conventions knows the key, version and tenant conventions of the
// mbc-cqrs-serverless framework (its key design guide, shared/seeds/000, and
// the study shared/mbc-conventions.md) and checks writes against them for
// the tables that opt in. It imports storage for values only.
//
// It is two things: a plain Go library for building and reading keys as
// the framework does, and a rule engine the emulator calls on its write
// path. Neither does I/O or keeps items.
//
// # Basics: the key library
//
// The constants and helpers mirror @mbc-cqrs-serverless/core exactly,
// including its edge cases (the study's §1 table is a test):
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
// PK, SK and ID). IDGenerator makes ULIDs (github.com/oklog/ulid/v2) that
// sort by creation, with an injectable clock and random source; NewULID
// uses a process-wide one.
//
// # Basics: the rules
//
// A Policy says which conventions one table follows: its Roles (command,
// data, history, sequences or keys, optionally with master: "master+command"),
// its Mode (enforce, warn, off), the index of the tenant in its partition
// key, rules it disables, and the key of its 'latest' item if it keeps one.
// A Config maps table names (exact, or path.Match globs such as
// "*-command") to policies; ParseConfig reads one from JSON. A table can
// also opt in by tags (TagRoles "dynamoemu:conventions" = roles, TagMode
// "dynamoemu:conventions-mode" = mode, and TagTenantSegment, TagDisable, TagStrict,
// TagLatest, TagLatestPointer); tags win over the file (Config.Lookup).
//
// Rules (made by New from a Config) is the Checker the emulator calls:
// CheckWrite for each item write, CheckTransaction for the writes of one
// TransactWriteItems, CheckTable when a table is created or opts in, and
// CheckTenant when it was told the caller's tenant. A Write carries the
// table's Policy, the operation, the key as strings, the old and new items
// as storage.Items, whether the request's condition was the framework's
// create guard (IsNotExistsCondition recognises it) and an Exists lookup.
// Each broken rule is a Violation: rule id, table, key, Severity and a
// message; Error() gives "[conventions A3] command sort key "X" has no
// @version suffix". In ModeEnforce a write with an error-severity violation
// is rejected (Blocking); everything else is reported. Report keeps the
// violations for the emulator to expose: per table and rule a count and the
// most recent few, safe for concurrent use and bounded.
//
// The rules, by the study's numbering (§6), and where each lives:
//
//	A1  pk (S, HASH) and sk (S, RANGE)                     CheckTable
//	A2  pk is PREFIX#TENANT, tenant non-empty              CheckWrite
//	A3  command sk <base>@<N>, version attribute == N      CheckWrite
//	A4  create of an existing (pk, sk@N) fails             emulator: DynamoDB's own condition
//	A5  data sk without '@', version >= 1, cpk, csk        CheckWrite
//	A6  history sk <base>@<N>, version == N                CheckWrite
//	A7  id == GenerateID(pk, sk) (command, data, history)  CheckWrite
//	A8  sequences: SEQ#<tenant>, seq a Number, UpdateItem  CheckWrite
//	A9  master: MASTER#<tenant>, TTL#<table> days >= 0     CheckWrite
//	A10 ttl is NULL or whole epoch seconds                 CheckWrite
//	A11 command table streams NEW_IMAGE (warn)             CheckStream; stream ARNs are the emulator's
//	A12 tenant in lower case (warn)                        CheckWrite
//	B1  no '@' in a base sort key                          CheckWrite
//	B2  tenant is the last segment unless declared         CheckWrite
//	B3  version suffix is canonical decimal                CheckWrite
//	B4  no stored version <= 0 (no @-1)                    CheckWrite
//	B5  sk@N created only after sk@(N-1) (warn)            CheckWrite, needs Write.Exists
//	B6  command creates carry the create guard (warn)      CheckWrite
//	B7  command updates: existing row, same version, id    CheckWrite
//	B8  data version never goes down (warn)                CheckWrite
//	B9  tenantCode == the pk's tenant (warn)               CheckWrite
//	B10 caller may use only its tenant and common ones     CheckTenant; caller tenant: Config.CallerTenant
//	B11 tasks and session key shapes                       not implemented
//	L1  'latest' item written with its item (seed 002)     CheckTransaction
//
// Severity is error except for A12, B5, B6, B7, B8 and B9, which the study
// infers from the framework's behaviour rather than finds stated, and
// which the framework's own local tooling breaks (its stream warm-up row).
// A table's Policy.Strict (tag TagStrict, JSON "strict") makes any of them
// errors on that table.
//
// # Caveats
//
// The rules see one write at a time, before it is stored, after the
// request's own condition has passed: they cannot see an item that was
// written and then deleted (B5 cannot tell a gap from a version that TTL
// removed), nor the update expression that produced New (A8 and B7 judge
// by the old and new items). Deletes are not checked.
//
// Exists answers for the table as it is before the write; CheckTransaction
// adds the items the transaction itself puts, so a transaction writing
// sk@1 and sk@2 together does not break B5.
//
// Old must be the current item for the rules that compare (A8, B6, B7, B8):
// storage.Table.Put does not read it, so the emulator uses Table.Write for
// tables with those roles. Exists is called during CheckWrite; inside
// Table.Write's fn the table's lock is held, so it must not call the
// table's locking methods.
//
// Keys are read as strings; a table whose key attributes are not S fails
// A1 and its writes are not checked meaningfully. Tenants are never
// normalized: A12 reports upper case, and CheckTenant compares without
// regard to case.
//
// A Violation's message is English detail for logs and error messages; the
// emulator chooses the DynamoDB error it answers with (the study suggests
// ValidationException for malformed keys).
//
// The framework's newer helpers (sortKeyBaseFromId,
// parseTwoSegmentPkSkFromId) and its environment-derived tenant lists
// (COMMON_TENANT_CODES, CROSS_TENANT_ROLES) are not mirrored; the common
// tenants are a Config field.
package conventions
