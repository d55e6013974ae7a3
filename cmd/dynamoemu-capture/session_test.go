package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/stretchr/testify/require"
)

// The session the tests record: every data-plane operation (items,
// batches, transactions, Query and Scan with pages, PartiQL, UpdateTable
// with an index, the Streams API), a few errors, then the tables
// deleted. Its answers are not asserted here: the replay compares them.

// clientSecret is what the test's SDK signs its requests to the
// recorder with: never forwarded, never written.
const clientSecret = "client-side-secret-never-written"

func clients(endpoint string) (*dynamodb.Client, *dynamodbstreams.Client) {
	creds := credentials.NewStaticCredentialsProvider("AKIDCLIENTSIDE", clientSecret, "")
	db := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(endpoint), Credentials: creds, RetryMaxAttempts: 1})
	st := dynamodbstreams.New(dynamodbstreams.Options{Region: "us-east-1", BaseEndpoint: aws.String(endpoint), Credentials: creds, RetryMaxAttempts: 1})
	return db, st
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v int) types.AttributeValue    { return &types.AttributeValueMemberN{Value: strconv.Itoa(v)} }

// runSession drives the session through db and st on tables named
// prefix+orders and prefix+audit, and returns how many requests it sent.
func runSession(t *testing.T, db *dynamodb.Client, st *dynamodbstreams.Client, prefix string) int {
	t.Helper()
	ctx := context.Background()
	sent := 0
	ok := func(err error) {
		t.Helper()
		sent++
		require.NoError(t, err)
	}
	failed := func(err error) {
		t.Helper()
		sent++
		require.Error(t, err)
	}
	// waited: a waiter's DescribeTable answered. DynamoDB Local 3.3.0
	// answers one now and then with 500 InternalFailure while UpdateTable's
	// index is being made (its log: SQLiteException "no such column:
	// indexKey_0" counting the index's items before the column exists;
	// seen in CI); a waiter asks again, as the SDK's retryer would. The
	// recorder writes the 500 as the upstream's failure (an answer an SDK
	// retries), which a replay skips and names, not a failure.
	internal := 0
	waited := func(err error) bool {
		t.Helper()
		var re *awshttp.ResponseError
		if errors.As(err, &re) && re.HTTPStatusCode() == http.StatusInternalServerError && internal < 5 {
			sent++
			internal++
			time.Sleep(200 * time.Millisecond)
			return false
		}
		ok(err)
		return true
	}
	orders, audit := prefix+"orders", prefix+"audit"
	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(orders),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeN}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}},
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
	})
	ok(err)
	_, err = db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(audit),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
	})
	ok(err)
	for _, tn := range []string{orders, audit} {
		for { // as an SDK's waiter: until ACTIVE
			out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(tn)})
			if waited(err) && out.Table.TableStatus == types.TableStatusActive {
				break
			}
		}
	}
	// Items.
	for i := 1; i <= 12; i++ {
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(orders), Item: map[string]types.AttributeValue{
			"pk": s("cust#" + strconv.Itoa(i%3)), "sk": n(i), "orderTotal": n(i * 10), "status": s("NEW"),
			"tags": &types.AttributeValueMemberSS{Value: []string{"a", "b" + strconv.Itoa(i)}},
		}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		ok(err)
	}
	_, err = db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(orders), Key: map[string]types.AttributeValue{"pk": s("cust#1"), "sk": n(1)}, ConsistentRead: aws.Bool(true), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	ok(err)
	_, err = db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(orders), Key: map[string]types.AttributeValue{"pk": s("cust#9"), "sk": n(1)}})
	ok(err)
	_, err = db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(orders), Key: map[string]types.AttributeValue{"pk": s("cust#1"), "sk": n(4)},
		UpdateExpression: aws.String("SET #s = :s ADD orderTotal :d"), ExpressionAttributeNames: map[string]string{"#s": "status"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":s": s("PAID"), ":d": n(5)}, ReturnValues: types.ReturnValueAllNew})
	ok(err)
	_, err = db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(orders), Key: map[string]types.AttributeValue{"pk": s("cust#1"), "sk": n(4)},
		UpdateExpression: aws.String("SET #s = :s"), ConditionExpression: aws.String("#s = :new"), ExpressionAttributeNames: map[string]string{"#s": "status"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":s": s("SHIPPED"), ":new": s("NEW")}, ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
	failed(err) // ConditionalCheckFailedException with the item
	_, err = db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(orders), Key: map[string]types.AttributeValue{"pk": s("cust#2"), "sk": n(2)}, ReturnValues: types.ReturnValueAllOld})
	ok(err)
	_, err = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(orders), Item: map[string]types.AttributeValue{"pk": s("x")}})
	failed(err) // ValidationException: the key lacks sk
	_, err = db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(prefix + "missing"), Key: map[string]types.AttributeValue{"pk": s("x")}})
	failed(err) // ResourceNotFoundException
	// Batches.
	var writes []types.WriteRequest
	for i := range 6 {
		writes = append(writes, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{"id": s("ev" + strconv.Itoa(i)), "n": n(i)}}})
	}
	_, err = db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{audit: writes,
		orders: {{DeleteRequest: &types.DeleteRequest{Key: map[string]types.AttributeValue{"pk": s("cust#0"), "sk": n(3)}}}}},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
	ok(err)
	_, err = db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
		audit:  {Keys: []map[string]types.AttributeValue{{"id": s("ev1")}, {"id": s("ev2")}, {"id": s("nope")}}},
		orders: {Keys: []map[string]types.AttributeValue{{"pk": s("cust#1"), "sk": n(1)}}, ProjectionExpression: aws.String("pk, orderTotal")},
	}})
	ok(err)
	// Transactions.
	_, err = db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String(audit), Item: map[string]types.AttributeValue{"id": s("tx1")}}},
		{Update: &types.Update{TableName: aws.String(orders), Key: map[string]types.AttributeValue{"pk": s("cust#1"), "sk": n(7)}, UpdateExpression: aws.String("SET #s = :p"),
			ExpressionAttributeNames: map[string]string{"#s": "status"}, ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("PAID")}}},
		{ConditionCheck: &types.ConditionCheck{TableName: aws.String(orders), Key: map[string]types.AttributeValue{"pk": s("cust#1"), "sk": n(1)}, ConditionExpression: aws.String("attribute_exists(pk)")}},
	}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	ok(err)
	_, err = db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String(audit), Item: map[string]types.AttributeValue{"id": s("tx2")}}},
		{ConditionCheck: &types.ConditionCheck{TableName: aws.String(orders), Key: map[string]types.AttributeValue{"pk": s("cust#1"), "sk": n(99)}, ConditionExpression: aws.String("attribute_exists(pk)")}},
	}})
	failed(err) // TransactionCanceledException
	_, err = db.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
		{Get: &types.Get{TableName: aws.String(audit), Key: map[string]types.AttributeValue{"id": s("tx1")}}},
		{Get: &types.Get{TableName: aws.String(orders), Key: map[string]types.AttributeValue{"pk": s("cust#1"), "sk": n(7)}}},
	}})
	ok(err)
	// Query and Scan, a page at a time.
	var start map[string]types.AttributeValue
	for {
		out, err := db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(orders), KeyConditionExpression: aws.String("pk = :p AND sk > :z"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("cust#1"), ":z": n(0)}, Limit: aws.Int32(2), ExclusiveStartKey: start,
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		ok(err)
		if start = out.LastEvaluatedKey; start == nil {
			break
		}
	}
	_, err = db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(orders), KeyConditionExpression: aws.String("pk = :p"), FilterExpression: aws.String("orderTotal > :t"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("cust#2"), ":t": n(40)}, ScanIndexForward: aws.Bool(false)})
	ok(err)
	start = nil
	for {
		out, err := db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(audit), Limit: aws.Int32(3), ExclusiveStartKey: start})
		ok(err)
		if start = out.LastEvaluatedKey; start == nil {
			break
		}
	}
	_, err = db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(orders), Select: types.SelectCount})
	ok(err)
	// PartiQL.
	_, err = db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(fmt.Sprintf(`INSERT INTO "%s" VALUE {'pk': 'cust#5', 'sk': 1, 'orderTotal': 7}`, orders))})
	ok(err)
	_, err = db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(fmt.Sprintf(`SELECT pk, sk, orderTotal FROM "%s" WHERE pk = ?`, orders)), Parameters: []types.AttributeValue{s("cust#1")}})
	ok(err)
	_, err = db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(fmt.Sprintf(`UPDATE "%s" SET orderTotal = 8 WHERE pk = 'cust#5' AND sk = 1`, orders))})
	ok(err)
	_, err = db.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		{Statement: aws.String(fmt.Sprintf(`SELECT * FROM "%s" WHERE id = 'ev3'`, audit))},
		{Statement: aws.String(fmt.Sprintf(`SELECT * FROM "%s" WHERE id = 'nope'`, audit))},
	}})
	ok(err)
	_, err = db.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		{Statement: aws.String(fmt.Sprintf(`INSERT INTO "%s" VALUE {'id': 'pq1'}`, audit))},
		{Statement: aws.String(fmt.Sprintf(`INSERT INTO "%s" VALUE {'id': 'ev1'}`, audit))}, // a duplicate: its own error
	}})
	ok(err)
	_, err = db.ExecuteTransaction(ctx, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
		{Statement: aws.String(fmt.Sprintf(`INSERT INTO "%s" VALUE {'id': 'pq2'}`, audit))},
		{Statement: aws.String(fmt.Sprintf(`DELETE FROM "%s" WHERE pk = 'cust#5' AND sk = 1`, orders))},
	}})
	ok(err)
	// UpdateTable with an index, then a Query of it.
	_, err = db.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(orders),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("status"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeN}},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{IndexName: aws.String("byStatus"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("status"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}}})
	ok(err)
	for {
		out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(orders)})
		if waited(err) && len(out.Table.GlobalSecondaryIndexes) == 1 && out.Table.GlobalSecondaryIndexes[0].IndexStatus == types.IndexStatusActive {
			break
		}
	}
	_, err = db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(orders), IndexName: aws.String("byStatus"), KeyConditionExpression: aws.String("#s = :p"),
		ExpressionAttributeNames: map[string]string{"#s": "status"}, ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("PAID")}})
	ok(err)
	// Streams.
	desc, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(orders)})
	ok(err)
	arn := desc.Table.LatestStreamArn
	_, err = st.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{TableName: aws.String(orders)})
	ok(err)
	ds, err := st.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: arn})
	ok(err)
	for _, sh := range ds.StreamDescription.Shards {
		it, err := st.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: arn, ShardId: sh.ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
		ok(err)
		iter := it.ShardIterator
		for range 2 {
			out, err := st.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter, Limit: aws.Int32(20)})
			ok(err)
			if iter = out.NextShardIterator; iter == nil {
				break
			}
		}
	}
	// Clean up.
	for _, tn := range []string{orders, audit} {
		_, err := db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(tn)})
		ok(err)
	}
	return sent
}
