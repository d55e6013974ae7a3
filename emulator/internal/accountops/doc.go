// Package accountops is the account-level operations of DynamoDB, a
// feature behind the service core's seam (service.Config.Features): ListTables,
// DescribeLimits and DescribeEndpoints. None of them reads or changes a
// table: ListTables lists the names of the namespace's tables (with
// those still DELETING, service.Call.ListedTables), DescribeLimits
// answers AWS's default quotas (tablespec's, which CreateTable and
// UpdateTable hold a table to) and DescribeEndpoints the host the
// client reached (service.Call.Host).
package accountops
