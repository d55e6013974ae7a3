package emulator_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/emulator/report"
)

// A small application's test suite with three planted consistency bugs:
// each buggy case reads right after its write where AWS promises only
// eventual consistency (a GSI, a GetItem without ConsistentRead, a
// stream consumer that reads once). The correct cases read strongly, or
// retry as AWS's guidance says. Run normally the whole suite passes; in
// consistency fuzzing exactly the three buggy cases fail, and the
// report names each one's stale read.

// suiteEnv is what a case of the suite gets: its clients and a table of
// its own (pk, sk; GSI byOwner on owner; a stream of new images).
type suiteEnv struct {
	db      *dynamodb.Client
	streams *dynamodbstreams.Client
	table   string
	stream  *string
}

// suiteCase is one case of the suite: nil, or why it failed.
type suiteCase struct {
	name  string
	buggy bool
	run   func(ctx context.Context, e suiteEnv) error
}

var suiteCases = []suiteCase{
	{"gsi read after write", true, func(ctx context.Context, e suiteEnv) error {
		if err := putOrder(ctx, e, "o1", "alice"); err != nil {
			return err
		}
		n, err := ordersOf(ctx, e, "alice")
		if err != nil {
			return err
		}
		if n != 1 {
			return fmt.Errorf("alice has %d orders, want 1", n)
		}
		return nil
	}},
	{"gsi read after write, retried", false, func(ctx context.Context, e suiteEnv) error {
		if err := putOrder(ctx, e, "o1", "bob"); err != nil {
			return err
		}
		return retry(func() error {
			n, err := ordersOf(ctx, e, "bob")
			if err == nil && n != 1 {
				err = fmt.Errorf("bob has %d orders, want 1", n)
			}
			return err
		})
	}},
	{"eventually consistent get after put", true, func(ctx context.Context, e suiteEnv) error {
		if err := putOrder(ctx, e, "o2", "carol"); err != nil {
			return err
		}
		return getOrder(ctx, e, "o2", false)
	}},
	{"strongly consistent get after put", false, func(ctx context.Context, e suiteEnv) error {
		if err := putOrder(ctx, e, "o3", "dave"); err != nil {
			return err
		}
		return getOrder(ctx, e, "o3", true)
	}},
	{"strongly consistent query after update", false, func(ctx context.Context, e suiteEnv) error {
		if err := putOrder(ctx, e, "o4", "erin"); err != nil {
			return err
		}
		if _, err := e.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: &e.table, Key: orderKey("o4"),
			UpdateExpression: aws.String("SET #o = :o"), ExpressionAttributeNames: map[string]string{"#o": "owner"}, ExpressionAttributeValues: map[string]types.AttributeValue{
				":o": &types.AttributeValueMemberS{Value: "frank"}}}); err != nil {
			return err
		}
		out, err := e.db.Query(ctx, &dynamodb.QueryInput{TableName: &e.table, ConsistentRead: aws.Bool(true),
			KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: map[string]types.AttributeValue{
				":p": &types.AttributeValueMemberS{Value: "o4"}}})
		if err != nil {
			return err
		}
		if len(out.Items) != 1 || out.Items[0]["owner"].(*types.AttributeValueMemberS).Value != "frank" {
			return fmt.Errorf("query after update: %v", out.Items)
		}
		return nil
	}},
	{"stream consumer reads once", true, func(ctx context.Context, e suiteEnv) error {
		it, err := trimHorizon(ctx, e)
		if err != nil {
			return err
		}
		if err := putOrder(ctx, e, "o5", "gina"); err != nil {
			return err
		}
		out, err := e.streams.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it})
		if err != nil {
			return err
		}
		if len(out.Records) != 1 {
			return fmt.Errorf("the consumer got %d records, want 1", len(out.Records))
		}
		return nil
	}},
	{"stream consumer polls", false, func(ctx context.Context, e suiteEnv) error {
		it, err := trimHorizon(ctx, e)
		if err != nil {
			return err
		}
		if err := putOrder(ctx, e, "o6", "hugo"); err != nil {
			return err
		}
		var got int
		return retry(func() error {
			out, err := e.streams.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it})
			if err != nil {
				return err
			}
			it, got = out.NextShardIterator, got+len(out.Records)
			if got != 1 {
				return fmt.Errorf("the consumer got %d records, want 1", got)
			}
			return nil
		})
	}},
}

// retry tries f until it succeeds, as a client that knows reads are
// eventually consistent does (a short pause between tries; AWS's
// bound is a second).
func retry(f func() error) error {
	var err error
	for range 50 {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return err
}

func orderKey(id string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: id}, "sk": &types.AttributeValueMemberS{Value: "order"}}
}

func putOrder(ctx context.Context, e suiteEnv, id, owner string) error {
	it := orderKey(id)
	it["owner"] = &types.AttributeValueMemberS{Value: owner}
	_, err := e.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: &e.table, Item: it})
	return err
}

func ordersOf(ctx context.Context, e suiteEnv, owner string) (int, error) {
	out, err := e.db.Query(ctx, &dynamodb.QueryInput{TableName: &e.table, IndexName: aws.String("byOwner"),
		KeyConditionExpression: aws.String("#o = :o"), ExpressionAttributeNames: map[string]string{"#o": "owner"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":o": &types.AttributeValueMemberS{Value: owner}}})
	if err != nil {
		return 0, err
	}
	return len(out.Items), nil
}

func getOrder(ctx context.Context, e suiteEnv, id string, consistent bool) error {
	out, err := e.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: &e.table, Key: orderKey(id), ConsistentRead: aws.Bool(consistent)})
	if err != nil {
		return err
	}
	if out.Item == nil {
		return errors.New("order " + id + " not found after its put")
	}
	return nil
}

func trimHorizon(ctx context.Context, e suiteEnv) (*string, error) {
	ds, err := e.streams.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: e.stream})
	if err != nil {
		return nil, err
	}
	it, err := e.streams.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: e.stream,
		ShardId: ds.StreamDescription.Shards[0].ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	if err != nil {
		return nil, err
	}
	return it.ShardIterator, nil
}

// suiteTable creates a case's table.
func suiteTable(t *testing.T, db *dynamodb.Client, name string) *string {
	t.Helper()
	s := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	out, err := db.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName:            &name,
		AttributeDefinitions: []types.AttributeDefinition{s("pk"), s("sk"), s("owner")},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byOwner"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("owner"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage},
		BillingMode:         types.BillingModePayPerRequest,
	})
	require.NoError(t, err)
	return out.TableDescription.LatestStreamArn
}

// suiteRun is one run of the suite: the cases that failed, each with
// why, and the stale reads the report gave during each case.
type suiteRun struct {
	failed map[string]string
	stale  map[string][]report.StaleRead
}

// runSuite runs every case against a new emulator in mode.
func runSuite(t *testing.T, mode string) suiteRun {
	t.Helper()
	ctx := context.Background()
	emu, db, streams := emulatortest.NewWithStreams(t, emulator.Options{Consistency: mode})
	run := suiteRun{failed: map[string]string{}, stale: map[string][]report.StaleRead{}}
	for i, c := range suiteCases {
		table := fmt.Sprintf("case%d", i)
		env := suiteEnv{db: db, streams: streams, table: table, stream: suiteTable(t, db, table)}
		stop := emu.Reports().CollectStaleReads()
		if err := c.run(ctx, env); err != nil {
			run.failed[c.name] = err.Error()
		}
		if stale, _ := stop(); len(stale) > 0 {
			run.stale[c.name] = stale
		}
	}
	return run
}

// names are m's keys, sorted.
func names[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestConsistencyFuzzFindsThePlantedBugs(t *testing.T) {
	var buggy []string
	for _, c := range suiteCases {
		if c.buggy {
			buggy = append(buggy, c.name)
		}
	}
	slices.Sort(buggy)

	normal := runSuite(t, "")
	require.Empty(t, normal.failed, "the suite passes without fuzzing")
	require.Empty(t, normal.stale, "no stale read is reported without fuzzing")

	for _, seed := range []string{"fuzz:1", "fuzz:42", "fuzz:18446744073709551615"} {
		fuzzed := runSuite(t, seed)
		require.Equal(t, buggy, names(fuzzed.failed), "%s: the cases that fail only with lag", seed)
		for _, name := range buggy {
			reads := fuzzed.stale[name]
			require.NotEmpty(t, reads, "%s: %q failed with no stale read reported", seed, name)
			r := reads[0]
			require.True(t, strings.HasSuffix(r.Namespace, "/us-east-1"), "%s: %q: the stale read names its namespace: %q", seed, name, r.Namespace)
			require.NotEmpty(t, r.Missed, "%s: %q: the stale read names the write it missed", seed, name)
			require.Equal(t, "PutItem", r.Missed[0].Op)
			require.Equal(t, "INSERT", r.Missed[0].Event)
			require.NotNil(t, r.Missed[0].Key["pk"], "the missed write's key")
			switch name {
			case "gsi read after write":
				require.Equal(t, "index", r.View)
				require.Equal(t, "byOwner", r.Index)
				require.Equal(t, "Query", r.Op)
				require.Equal(t, map[string]map[string]string{"owner": {"S": "alice"}}, r.Key)
				require.Equal(t, map[string]string{"S": "o1"}, r.Missed[0].Key["pk"])
			case "eventually consistent get after put":
				require.Equal(t, "table", r.View)
				require.Equal(t, "GetItem", r.Op)
				require.Equal(t, map[string]map[string]string{"pk": {"S": "o2"}, "sk": {"S": "order"}}, r.Key)
			case "stream consumer reads once":
				require.Equal(t, "stream", r.View)
				require.Equal(t, "GetRecords", r.Op)
				require.Equal(t, map[string]string{"S": "o5"}, r.Missed[0].Key["pk"])
			}
		}
		// The retrying cases read stale data on the way (that is what
		// they are for), but strongly consistent reads never.
		require.NotContains(t, fuzzed.stale, "strongly consistent get after put")
		require.NotContains(t, fuzzed.stale, "strongly consistent query after update")

		again := runSuite(t, seed)
		require.Equal(t, fuzzed.failed, again.failed, "%s: the same seed fails the same cases", seed)
		require.Equal(t, staleShape(fuzzed.stale), staleShape(again.stale), "%s: and reports the same stale reads", seed)
	}
}

// staleShape is a report without its times and namespaces (each run's
// client has an access key of its own), which differ between runs.
func staleShape(m map[string][]report.StaleRead) map[string][]report.StaleRead {
	out := map[string][]report.StaleRead{}
	for k, reads := range m {
		for _, r := range reads {
			r.At, r.Namespace = time.Time{}, ""
			r.Missed = slices.Clone(r.Missed)
			for i := range r.Missed {
				r.Missed[i].At = time.Time{}
			}
			out[k] = append(out[k], r)
		}
	}
	return out
}
