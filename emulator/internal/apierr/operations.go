package apierr

import (
	"fmt"
	"sync"
)

// dynamoDBOperations are the operation names of DynamoDB's API
// (DynamoDB_20120810, from the AWS API reference and the operations of
// aws-sdk-go-v2's DynamoDB client). A name here that has no handler is an
// operation the emulator does not implement yet (today none): its
// UnknownOperationException says so, so that a user can tell a gap from a
// typo in X-Amz-Target. TestEveryOperationAnswers holds this list and the
// handlers to the SDK's client. Built at its first use, not at the
// server's start.
var dynamoDBOperations = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"BatchExecuteStatement": true, "BatchGetItem": true, "BatchWriteItem": true,
		"CancelBulkOperation": true, "DescribeBulkOperation": true, "ListBulkOperations": true,
		"StartBulkPutItems": true, "SearchVectors": true,
		"CreateBackup": true, "CreateGlobalTable": true, "CreateTable": true,
		"DeleteBackup": true, "DeleteItem": true, "DeleteResourcePolicy": true, "DeleteTable": true,
		"DescribeBackup": true, "DescribeContinuousBackups": true, "DescribeContributorInsights": true,
		"DescribeEndpoints": true, "DescribeExport": true, "DescribeGlobalTable": true,
		"DescribeGlobalTableSettings": true, "DescribeImport": true,
		"DescribeKinesisStreamingDestination": true, "DescribeLimits": true, "DescribeTable": true,
		"DescribeTableReplicaAutoScaling": true, "DescribeTimeToLive": true,
		"DisableKinesisStreamingDestination": true, "EnableKinesisStreamingDestination": true,
		"ExecuteStatement": true, "ExecuteTransaction": true, "ExportTableToPointInTime": true,
		"GetItem": true, "GetResourcePolicy": true, "ImportTable": true,
		"ListBackups": true, "ListContributorInsights": true, "ListExports": true,
		"ListGlobalTables": true, "ListImports": true, "ListTables": true, "ListTagsOfResource": true,
		"PutItem": true, "PutResourcePolicy": true, "Query": true,
		"RestoreTableFromBackup": true, "RestoreTableToPointInTime": true, "Scan": true,
		"TagResource": true, "TransactGetItems": true, "TransactWriteItems": true, "UntagResource": true,
		"UpdateContinuousBackups": true, "UpdateContributorInsights": true, "UpdateGlobalTable": true,
		"UpdateGlobalTableSettings": true, "UpdateItem": true, "UpdateKinesisStreamingDestination": true,
		"UpdateTable": true, "UpdateTableReplicaAutoScaling": true, "UpdateTimeToLive": true,
	}
})

// KnownOperation reports whether name is an operation of DynamoDB's API,
// whether or not the emulator has a handler for it.
func KnownOperation(name string) bool { return dynamoDBOperations()[name] }

// OperationNotFound answers an X-Amz-Target without a handler (name: the
// part after its prefix): AWS's UnknownOperationException, worded to
// tell a DynamoDB operation the emulator lacks from a name DynamoDB does
// not have.
func OperationNotFound(name string) error {
	if KnownOperation(name) {
		return New(ErrUnknownOperation, fmt.Sprintf(MsgOperationNotImplemented, name))
	}
	return UnknownOperation()
}
