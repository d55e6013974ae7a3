package conformance

// Test support for DynamoDB Streams: a dynamodbstreams client for the
// target, built the way a user builds one, and helpers that find a
// table's stream and read it to the end as a Lambda poller does.

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// newStreamsClient returns a streams client for the target with the same
// credentials as newClient(t, opts...), so it sees the same database.
func newStreamsClient(t testing.TB, opts ...clientOption) *dynamodbstreams.Client {
	t.Helper()
	tg := target(t)
	cc := clientConfig{accessKey: defaultAccessKey, region: defaultRegion}
	for _, o := range opts {
		o(&cc)
	}
	var loadOpts []func(*config.LoadOptions) error
	if tg.Oracle == "" {
		loadOpts = append(loadOpts, config.WithRetryer(emulatortest.ConnectionRetryer))
	}
	if tg.FakeCredentials() {
		loadOpts = append(loadOpts,
			config.WithRegion(cc.region),
			config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(cc.accessKey, "fakesecret", "")))
	}
	cfg, err := config.LoadDefaultConfig(context.Background(), loadOpts...)
	if err != nil {
		t.Fatalf("load AWS config: %v", err)
	}
	return dynamodbstreams.NewFromConfig(cfg, func(o *dynamodbstreams.Options) {
		if tg.URL != "" {
			o.BaseEndpoint = aws.String(tg.URL)
		}
	})
}

// clients returns a DynamoDB and a Streams client on a database of the
// test's own (on fake-credential targets).
func clients(t testing.TB) (*dynamodb.Client, *dynamodbstreams.Client) {
	t.Helper()
	key := uniqueKey(t)
	return newClient(t, withAccessKey(key)), newStreamsClient(t, withAccessKey(key))
}

// streamTable creates a pk (S) / sk (N) table with a stream of view type view.
func streamTable(t testing.TB, c *dynamodb.Client, view types.StreamViewType) string {
	t.Helper()
	in := tableDef(keyDef{"pk", "S"}, keyDef{"sk", "N"})
	in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: view}
	return createTable(t, c, in)
}

// latestStream returns the table's LatestStreamArn (DescribeTable).
func latestStream(t testing.TB, c *dynamodb.Client, table string) string {
	t.Helper()
	d := mustDescribe(t, c, table)
	if d.LatestStreamArn == nil {
		t.Fatalf("DescribeTable %s: no LatestStreamArn", table)
	}
	return *d.LatestStreamArn
}

// onlyShard returns the stream's one shard (DescribeStream).
func onlyShard(t testing.TB, sc *dynamodbstreams.Client, arn string) stypes.Shard {
	t.Helper()
	out, err := sc.DescribeStream(ctx(t), &dynamodbstreams.DescribeStreamInput{StreamArn: &arn})
	mustNoError(t, err)
	if got := len(out.StreamDescription.Shards); got != 1 {
		t.Fatalf("got %d shards, want 1", got)
	}
	return out.StreamDescription.Shards[0]
}

// iterator returns a shard iterator of type typ (seq for the sequence number types).
func iterator(t testing.TB, sc *dynamodbstreams.Client, arn string, typ stypes.ShardIteratorType, seq string) string {
	t.Helper()
	in := &dynamodbstreams.GetShardIteratorInput{StreamArn: &arn, ShardId: onlyShard(t, sc, arn).ShardId, ShardIteratorType: typ}
	if seq != "" {
		in.SequenceNumber = &seq
	}
	out, err := sc.GetShardIterator(ctx(t), in)
	mustNoError(t, err)
	return *out.ShardIterator
}

// readAll reads from iterator it until a page comes back empty (an open
// shard) or there is no next iterator (a closed one), and returns the
// records and the last iterator ("" for a closed shard).
func readAll(t testing.TB, sc *dynamodbstreams.Client, it string) ([]stypes.Record, string) {
	t.Helper()
	var recs []stypes.Record
	for i := 0; i < 100; i++ {
		out, err := sc.GetRecords(ctx(t), &dynamodbstreams.GetRecordsInput{ShardIterator: &it})
		mustNoError(t, err)
		recs = append(recs, out.Records...)
		if out.NextShardIterator == nil {
			return recs, ""
		}
		it = *out.NextShardIterator
		if len(out.Records) == 0 {
			return recs, it
		}
	}
	t.Fatal("stream did not end after 100 pages")
	return nil, ""
}

// streamItem converts a stream record's image to the DynamoDB item type.
func streamItem(in map[string]stypes.AttributeValue) item {
	if in == nil {
		return nil
	}
	out := item{}
	for k, v := range in {
		out[k] = streamValue(v)
	}
	return out
}

func streamValue(v stypes.AttributeValue) types.AttributeValue {
	switch v := v.(type) {
	case *stypes.AttributeValueMemberS:
		return s(v.Value)
	case *stypes.AttributeValueMemberN:
		return n(v.Value)
	case *stypes.AttributeValueMemberB:
		return b(v.Value)
	case *stypes.AttributeValueMemberBOOL:
		return bl(v.Value)
	case *stypes.AttributeValueMemberNULL:
		return null()
	case *stypes.AttributeValueMemberSS:
		return ss(v.Value...)
	case *stypes.AttributeValueMemberNS:
		return ns(v.Value...)
	case *stypes.AttributeValueMemberBS:
		return bs(v.Value...)
	case *stypes.AttributeValueMemberL:
		list := make([]types.AttributeValue, len(v.Value))
		for i, e := range v.Value {
			list[i] = streamValue(e)
		}
		return l(list...)
	case *stypes.AttributeValueMemberM:
		return m(streamItem(v.Value))
	}
	return nil
}

// eventNames lists the records' eventName in order.
func eventNames(recs []stypes.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = string(r.EventName)
	}
	return out
}
