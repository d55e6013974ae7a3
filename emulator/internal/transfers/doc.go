// Package transfers is DynamoDB's transfers to and from Amazon S3, a
// table-level feature behind the service core's seam
// (service.Config.Features): exports (ExportTableToPointInTime,
// DescribeExport, ListExports: exports.go), imports (ImportTable,
// DescribeImport, ListImports: imports.go) and bulk operations
// (StartBulkPutItems, DescribeBulkOperation, ListBulkOperations,
// CancelBulkOperation: bulk_ops.go).
//
// # Basics
//
// A local directory stands for S3 (S3Dir, a value among the service's
// Config.Settings; the emulator's Options.ExportDir): a bucket is a
// sub-directory, an object key a path below it (s3dir.go). An export
// writes a table as it was (now, or an instant of its point-in-time
// history: pitr.HistoryOf) in AWS's layout and formats, DynamoDB JSON or
// Amazon Ion. An import creates a new table and a bulk operation fills an
// existing one, each writing every item of its objects through PutItem,
// so the table's indexes, stream, conventions and commit hook see them
// as any write. Each job runs inside its request and is shown IN_PROGRESS
// for the service's transient delay, then in its final status.
//
// A namespace's jobs are its transferSet (a service.State), listed
// oldest first; with persistence they are saved in the namespace's DB
// metadata and put back when it is loaded (its Loaded hook,
// transfers_persist.go).
//
// # Caveats
//
// Nothing leaves the machine: there is no S3 and no IAM check of a
// bucket. Where AWS's documents leave a detail open (a bulk item's
// condition members, a bulk operation's report layout), the emulator
// takes PutItem's members and a layout of its own (bulk_ops.go).
package transfers
