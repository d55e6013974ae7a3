// Package ttl is Time to Live's control operations, a table-level
// feature behind the service core's seam (service.Use):
// UpdateTimeToLive and DescribeTimeToLive. The setting is part of the
// table's definition, which the core keeps because its sweeper deletes
// expired items on the one write path, backups describe the setting and
// global tables copy it: this package reads it with
// service.Definition.TTL and changes it with Edit.SetTTL in a
// Table.Change, so it is recorded where it always was.
package ttl
