package faults

import "slices"

// operations are the DynamoDB and DynamoDB Streams operations a rule may
// name (AWS's API reference), so that a misspelt name in a config file is
// an error rather than a rule that never fires.
var operations = []string{
	// Data plane.
	"GetItem", "PutItem", "UpdateItem", "DeleteItem",
	"Query", "Scan",
	"BatchGetItem", "BatchWriteItem",
	"TransactGetItems", "TransactWriteItems",
	"ExecuteStatement", "BatchExecuteStatement", "ExecuteTransaction",
	"SearchVectors",
	// Control plane.
	"CreateTable", "DeleteTable", "DescribeTable", "UpdateTable", "ListTables",
	"DescribeTimeToLive", "UpdateTimeToLive",
	"TagResource", "UntagResource", "ListTagsOfResource",
	"DescribeLimits", "DescribeEndpoints",
	"DescribeContinuousBackups", "UpdateContinuousBackups",
	"CreateBackup", "DeleteBackup", "DescribeBackup", "ListBackups", "RestoreTableFromBackup", "RestoreTableToPointInTime",
	"DescribeContributorInsights", "ListContributorInsights", "UpdateContributorInsights",
	"DescribeKinesisStreamingDestination", "EnableKinesisStreamingDestination", "DisableKinesisStreamingDestination", "UpdateKinesisStreamingDestination",
	"DescribeTableReplicaAutoScaling", "UpdateTableReplicaAutoScaling",
	"CreateGlobalTable", "DescribeGlobalTable", "DescribeGlobalTableSettings", "ListGlobalTables", "UpdateGlobalTable", "UpdateGlobalTableSettings",
	"ExportTableToPointInTime", "DescribeExport", "ListExports", "ImportTable", "DescribeImport", "ListImports",
	"GetResourcePolicy", "PutResourcePolicy", "DeleteResourcePolicy",
	"StartBulkPutItems", "DescribeBulkOperation", "ListBulkOperations", "CancelBulkOperation",
	// DynamoDB Streams.
	"DescribeStream", "GetRecords", "GetShardIterator", "ListStreams",
}

// knownOperation reports whether op is an operation a rule may name.
func knownOperation(op string) bool { return slices.Contains(operations, op) }
