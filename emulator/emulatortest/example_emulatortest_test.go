package emulatortest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// exampleT stands in for the *testing.T a test passes: an example has
// none. It keeps the cleanups for done and panics where a test fails.
type exampleT struct {
	testing.TB
	cleanups []func()
}

func (t *exampleT) Helper()                      {}
func (t *exampleT) Name() string                 { return "Example" }
func (t *exampleT) Cleanup(f func())             { t.cleanups = append(t.cleanups, f) }
func (t *exampleT) Log(...any)                   {}
func (t *exampleT) Logf(string, ...any)          {}
func (t *exampleT) Fatal(args ...any)            { panic(fmt.Sprint(args...)) }
func (t *exampleT) Fatalf(f string, args ...any) { panic(fmt.Sprintf(f, args...)) }
func (t *exampleT) Errorf(f string, args ...any) { panic(fmt.Sprintf(f, args...)) }
func (t *exampleT) done() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
}

// createOrders creates table Orders (keyed by pk) with db, its stream
// on when stream is set.
func createOrders(db *dynamodb.Client, stream bool) {
	in := &dynamodb.CreateTableInput{
		TableName:            aws.String("Orders"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
	}
	if stream {
		in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage}
	}
	if _, err := db.CreateTable(context.Background(), in); err != nil {
		panic(err)
	}
}

// putOrder writes order id with db.
func putOrder(db *dynamodb.Client, id string) {
	_, err := db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("Orders"),
		Item: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: id}}})
	if err != nil {
		panic(err)
	}
}

// tableNames lists db's tables.
func tableNames(db *dynamodb.Client) []string {
	out, err := db.ListTables(context.Background(), &dynamodb.ListTablesInput{})
	if err != nil {
		panic(err)
	}
	return out.TableNames
}

// New gives a test a client of an in-process emulator of its own: no
// server, no port, nothing to clean up. In a test, pass its t.
func ExampleNew() {
	t := &exampleT{} // in a test: its *testing.T
	defer t.done()

	db := emulatortest.New(t)
	createOrders(db, false)
	putOrder(db, "ORDER#1")
	fmt.Println(tableNames(db))
	// Output: [Orders]
}

// NewServer serves the emulator on a loopback port, for code under test
// that takes an endpoint URL rather than a client.
func ExampleNewServer() {
	t := &exampleT{} // in a test: its *testing.T
	defer t.done()

	url, db := emulatortest.NewServer(t)
	createOrders(db, false)
	fmt.Println(strings.HasPrefix(url, "http://127.0.0.1:"), tableNames(db))
	// Output: true [Orders]
}

// NewWithStreams adds a DynamoDB Streams client of the same database.
func ExampleNewWithStreams() {
	t := &exampleT{} // in a test: its *testing.T
	defer t.done()
	ctx := context.Background()

	_, db, streams := emulatortest.NewWithStreams(t, emulator.Options{})
	createOrders(db, true)
	putOrder(db, "ORDER#1")

	desc, _ := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Orders")})
	stream, _ := streams.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: desc.Table.LatestStreamArn})
	it, _ := streams.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: desc.Table.LatestStreamArn,
		ShardId: stream.StreamDescription.Shards[0].ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	recs, err := streams.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator})
	if err != nil {
		panic(err)
	}
	for _, r := range recs.Records {
		fmt.Println(r.EventName, r.Dynamodb.NewImage["pk"].(*stypes.AttributeValueMemberS).Value)
	}
	// Output: INSERT ORDER#1
}

// Inject sets fault rules for the rest of a test; RetryingClient retries
// as the SDK does in production, without its sleeps.
func ExampleInject() {
	t := &exampleT{} // in a test: its *testing.T
	defer t.done()

	e, db := emulatortest.NewWith(t, emulator.Options{})
	createOrders(db, false)
	putOrder(db, "ORDER#1")
	emulatortest.Inject(t, e, emulator.FaultRule{Table: "Orders", Operations: []string{"GetItem"}, Count: 2, Fault: emulator.FaultThrottling})

	retrying := emulatortest.RetryingClient(t, e, emulatortest.AccessKeyOf(t, db), 3)
	out, err := retrying.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("Orders"),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "ORDER#1"}}})
	fmt.Println(err == nil, len(out.Item), e.Faults().Stats().Rules[0].Fired)
	// Output: true 1 2
}

// Checkpoint snapshots the emulator after a suite's fixtures; each test
// rewinds to it.
func ExampleCheckpoint() {
	t := &exampleT{} // in a test: its *testing.T
	defer t.done()
	ctx := context.Background()

	e, db := emulatortest.NewWith(t, emulator.Options{})
	createOrders(db, false)
	rewind := emulatortest.Checkpoint(t, e)

	if _, err := db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("Orders")}); err != nil {
		panic(err)
	}
	fmt.Println(tableNames(db))
	rewind()
	fmt.Println(tableNames(db))
	// Output:
	// []
	// [Orders]
}
