// Package restore makes a table of a snapshot as RestoreTableFromBackup
// and RestoreTableToPointInTime do: the one restore path the backups and
// point-in-time recovery features share (emulator/internal/backups,
// emulator/internal/pitr). It is no feature of its own: it registers no
// operation, and reaches the service core only through the features'
// seam (service.Call.MakeTable, which makes the table of the snapshot,
// sharing its items, and service.Edit, which sets the restored
// definition).
//
// What the restored table keeps, after AWS's reference
// (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_RestoreTableToPointInTime.html):
// the items, the key schema, the secondary indexes (all, or those the
// overrides name: tablespec.RestoreOverrides.RestoredIndexes), the
// billing mode and provisioned throughput (or the overrides'), the
// encryption (or the override's) and the table class. What it does not:
// tags, the stream, TimeToLive, point-in-time recovery and deletion
// protection, which are set again by hand on AWS. It is CREATING for the
// transient delay (-delayTransientStatuses; none by default), with a
// RestoreSummary saying where it came from.
//
// # Files
//
//   - restore.go: Table, the admission of a restore and the restored
//     definition.
package restore
