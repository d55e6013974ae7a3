// Package conventions is the conventions check's stage of the request
// pipeline: the rules of package conventions (the key, version and
// tenant rules of the mbc-cqrs-serverless framework) on the tables that
// opt in, plugged into the service core through the stage seam's checks
// (its CheckDefinition hook, service.KeyGuard, service.WriteChecker;
// emulator/internal/service/stage_check.go). The rules, the violations'
// report and the refusals are package convcheck's; this package is where
// each runs.
//
// # Basics
//
// The configuration is a *conventions.Config among the service's
// Config.Settings (the emulator's Options.Conventions); Configure makes
// the service's convcheck.State from it, or fails service.New. A table's
// policy is resolved when the table is created or its tags change
// (CheckDefinition: a malformed conventions tag, or a key schema an
// enforced policy refuses, refuses the change), rebuilt when it is
// loaded, copied or restored (LoadedDefinition), and kept in the stage's
// TableState; a table with none pays one atomic load per check.
//
//   - The tenant guard (rule B10) and the read rule (A14) run where the
//     core's validation order puts a request's keys (KeyGuard): every key
//     a request names, reads included; a Query of one index partition by
//     its partition key value (a local index's is the table's key, a
//     global index's read as rule B16 writes it); and a Scan, a read of
//     a multi-attribute key index or a vector search as a whole.
//   - The write rules run inside the write's storage callback, where the
//     item replaced is at hand and the table locked (WriteChecker): a put
//     or a delete in a storage transaction over the table (so that rule B5
//     can ask whether the previous version exists, and L1 read the latest
//     item), an update in one only on a table that keeps a latest item,
//     PartiQL's INSERT in the table's own write (no other item is read
//     there). A BatchWriteItem's writes are each checked as they are made
//     and refused together; a transaction's, once all its conditions
//     passed, are checked together (CheckTransaction).
//   - UpdateTable's change of a stream is checked against rule A11
//     (reported; the change stands).
//
// Report and ResetReport are the report over every namespace, for the
// emulator's ConventionsReport and its admin endpoint.
//
// # Caveats
//
// The stage takes part in no use (Watches is false): its checks are the
// seam's, not Begin and End. The service's logger gets every violation,
// with the request's operation and id.
//
// Its lock is the report's (conventions.Report.mu), a leaf, taken inside
// a write's storage transaction by the write rules; the tenants the
// layer knows (rule B16) are a sync.Map, which holds no lock across a
// call, read and added to there too.
package conventions
