// Package partiqlops is DynamoDB's PartiQL operations, a table-level
// feature behind the service core's seam (service.Config.Features):
// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction, each
// a data-plane operation (service.DataOp), run inside the request
// pipeline's stages as the core's own item operations are.
//
// # Basics
//
// A statement is parsed (internal/partiql) once per distinct text, in a
// bounded cache every namespace shares (a parse depends on no table), and
// lowered into expr's compiled forms (internal/partiql/lower, lower.go). It then runs through the core's statement seam
// (service.Call's ReadPage, ReadItem and WriteItem): a SELECT that fixes
// the partition key by equality reads one partition as a Query does, any
// other a Scan with the WHERE clause as its filter (select.go,
// select_read.go); INSERT, UPDATE and DELETE are one write each on the
// full primary key, their conditions checked inside the write (write.go).
// BatchExecuteStatement runs up to 25 single-item statements, each with
// its own answer or error (batch.go, batch_get.go); ExecuteTransaction up
// to 100, all reads or all writes, all or nothing, as TransactGetItems
// and TransactWriteItems run (transaction.go). A request far over its
// list's limit is read in its raw body first (service.Prescan).
//
// # Caveats
//
// The PartiQL the emulator runs is DynamoDB's subset: one table (or
// index) a statement, no joins, and a SELECT that scans reads the whole
// table, as on AWS, one page at a time.
package partiqlops
