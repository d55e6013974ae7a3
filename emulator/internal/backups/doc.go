// Package backups is DynamoDB's on-demand backups, a table-level feature
// behind the service core's seam (service.Config.Features): CreateBackup,
// DescribeBackup, ListBackups, DeleteBackup and RestoreTableFromBackup.
//
// # Basics
//
// A backup is a copy of its table as it was (service.Table.Copy: a
// copy-on-write snapshot of its items and indexes, O(1) whatever the
// table's size, with its definition record), kept in its namespace's
// backupSet (a service.State) under an ARN AWS's way. It is CREATING for
// the service's transient delay, then AVAILABLE; DeleteBackup answers it
// DELETED and forgets it. RestoreTableFromBackup makes a new table of the
// copy, sharing its items, through the one restore path it shares with
// point-in-time recovery (emulator/internal/restore). Deleting a table
// with point-in-time recovery keeps a SYSTEM backup of it for 35 days of
// the emulator's clock, as AWS does (its Dropped hook).
//
// With persistence each backup is also a table file of the namespace's
// "backups" side directory (service.Space.Keep), written before
// CreateBackup answers and read back when the namespace opens (its
// Opened hook, backups_keep.go), so backups survive a restart.
//
// # Caveats
//
// A backup shares every item and B-tree node with its table until the
// table rewrites them: it costs nothing while the table is unchanged,
// and at most about the table's size once every item has been
// rewritten. After a restart a backup's items are its own copy, read
// from its file. Backups are not recorded in the namespace's DB: a replay
// of its records (without the side directory) has none. DynamoDB Local
// has no backups.
package backups
