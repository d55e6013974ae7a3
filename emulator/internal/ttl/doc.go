// Package ttl is Time to Live, a table-level feature behind the service
// core's seam (service.Config.Features): UpdateTimeToLive and DescribeTimeToLive,
// and the sweeper that deletes expired items (Sweep, sweep.go). The
// setting is part of the table's definition, which the core keeps
// because backups describe it and global tables copy it: this package
// reads it in service.Definition.Settings and changes it in
// Edit.Settings in a Table.Change, so it is recorded where it always was; the sweeper
// deletes through each table's storage, the one write path.
package ttl
