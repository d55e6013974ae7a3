package mcp

import (
	"slices"
	"strings"
	"sync"
)

// The members of each operation's request, as the AWS API references
// (DynamoDB, DynamoDB Streams) list them: a DynamoDB tool takes these
// and no others. An SDK refuses a member its request type lacks; so does
// a tool, naming the nearest member it takes, before anything runs (a
// misspelt ConditionExpression must not become an unconditional write).
// Built at its first use: a server start does not pay for it.
var opMembers = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"GetItem": {"TableName", "Key", "AttributesToGet", "ConsistentRead", "ExpressionAttributeNames",
			"ProjectionExpression", "ReturnConsumedCapacity"},
		"PutItem": {"TableName", "Item", "ConditionalOperator", "ConditionExpression", "Expected", "ExpressionAttributeNames",
			"ExpressionAttributeValues", "ReturnConsumedCapacity", "ReturnItemCollectionMetrics", "ReturnValues",
			"ReturnValuesOnConditionCheckFailure"},
		"UpdateItem": {"TableName", "Key", "AttributeUpdates", "ConditionalOperator", "ConditionExpression", "Expected",
			"ExpressionAttributeNames", "ExpressionAttributeValues", "ReturnConsumedCapacity", "ReturnItemCollectionMetrics",
			"ReturnValues", "ReturnValuesOnConditionCheckFailure", "UpdateExpression"},
		"DeleteItem": {"TableName", "Key", "ConditionalOperator", "ConditionExpression", "Expected", "ExpressionAttributeNames",
			"ExpressionAttributeValues", "ReturnConsumedCapacity", "ReturnItemCollectionMetrics", "ReturnValues",
			"ReturnValuesOnConditionCheckFailure"},
		"BatchGetItem":       {"RequestItems", "ReturnConsumedCapacity"},
		"BatchWriteItem":     {"RequestItems", "ReturnConsumedCapacity", "ReturnItemCollectionMetrics"},
		"TransactGetItems":   {"TransactItems", "ReturnConsumedCapacity"},
		"TransactWriteItems": {"TransactItems", "ClientRequestToken", "ReturnConsumedCapacity", "ReturnItemCollectionMetrics"},
		"Query": {"TableName", "AttributesToGet", "ConditionalOperator", "ConsistentRead", "ExclusiveStartKey",
			"ExpressionAttributeNames", "ExpressionAttributeValues", "FilterExpression", "IndexName", "KeyConditionExpression",
			"KeyConditions", "Limit", "ProjectionExpression", "QueryFilter", "ReturnConsumedCapacity", "ScanIndexForward", "Select"},
		"Scan": {"TableName", "AttributesToGet", "ConditionalOperator", "ConsistentRead", "ExclusiveStartKey",
			"ExpressionAttributeNames", "ExpressionAttributeValues", "FilterExpression", "IndexName", "Limit",
			"ProjectionExpression", "ReturnConsumedCapacity", "ScanFilter", "Segment", "Select", "TotalSegments"},
		"ExecuteStatement": {"Statement", "ConsistentRead", "Limit", "NextToken", "Parameters", "ReturnConsumedCapacity",
			"ReturnValuesOnConditionCheckFailure"},
		"BatchExecuteStatement": {"Statements", "ReturnConsumedCapacity"},
		"ExecuteTransaction":    {"TransactStatements", "ClientRequestToken", "ReturnConsumedCapacity"},
		"ListTables":            {"ExclusiveStartTableName", "Limit"},
		"DescribeTable":         {"TableName"},
		"CreateTable": {"TableName", "KeySchema", "AttributeDefinitions", "BillingMode", "DeletionProtectionEnabled",
			"GlobalSecondaryIndexes", "LocalSecondaryIndexes", "OnDemandThroughput", "ProvisionedThroughput", "ResourcePolicy",
			"SSESpecification", "StreamSpecification", "TableClass", "Tags", "WarmThroughput"},
		"UpdateTable": {"TableName", "AttributeDefinitions", "BillingMode", "DeletionProtectionEnabled",
			"GlobalSecondaryIndexUpdates", "GlobalTableWitnessUpdates", "MultiRegionConsistency", "OnDemandThroughput",
			"ProvisionedThroughput", "ReplicaUpdates", "SSESpecification", "StreamSpecification", "TableClass", "WarmThroughput"},
		"DeleteTable":        {"TableName"},
		"DescribeTimeToLive": {"TableName"},
		"UpdateTimeToLive":   {"TableName", "TimeToLiveSpecification"},
		// The tag operations take a TableName in place of ResourceArn too.
		"ListTagsOfResource": {"ResourceArn", "NextToken", "TableName"},
		"TagResource":        {"ResourceArn", "Tags", "TableName"},
		"UntagResource":      {"ResourceArn", "TagKeys", "TableName"},
		// DynamoDB Streams.
		"ListStreams":    {"TableName", "Limit", "ExclusiveStartStreamArn"},
		"DescribeStream": {"StreamArn", "Limit", "ExclusiveStartShardId", "ShardFilter"},
		"GetRecords":     {"ShardIterator", "Limit"},
	}
})

// opSchema is a DynamoDB request's schema: props are the members an
// agent needs most, described; the operation's other members are taken
// too (listed without a description), and nothing else.
func opSchema(op string, required []string, props ...prop) schema {
	members, ok := opMembers()[op]
	if !ok {
		panic("mcp: no members listed for " + op) // a bug: every tool's operation is listed
	}
	s := schema{props: props, required: required}
	for _, m := range members {
		if !slices.ContainsFunc(props, func(p prop) bool { return p.name == m }) {
			s.more = append(s.more, m)
		}
	}
	return s
}

// nearest returns the name of names nearest to name (edit distance, case
// not counted), and whether it is near enough to be a likely misspelling.
func nearest(name string, names []string) (string, bool) {
	best, bestD := "", -1
	for _, n := range names {
		if d := editDistance(strings.ToLower(name), strings.ToLower(n)); bestD < 0 || d < bestD {
			best, bestD = n, d
		}
	}
	return best, bestD >= 0 && bestD <= max(2, len(name)/3)
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
