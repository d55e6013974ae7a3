package emulator_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// TestStreamLagSDK: a stream's records delivered late, on
// demand and deterministically: with a 200 ms delay a GetRecords right
// after a write returns nothing and keeps its position, and after
// Advance(200ms) the record comes; held, records come only after Release,
// in order, a transaction's together.
func TestStreamLagSDK(t *testing.T) {
	ctx := context.Background()
	e, db, streams := emulatortest.NewWithStreams(t, emulator.Options{Clock: stillClock})
	faultTable(t, db, "tbl", 0, 0)
	d, err := db.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}})
	if err != nil {
		t.Fatal(err)
	}
	gate, err := e.Lags().Stream(emulatortest.AccessKeyOf(t, db), emulatortest.Region, "tbl")
	if err != nil {
		t.Fatal(err)
	}
	arn := d.TableDescription.LatestStreamArn
	ds, err := streams.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: arn})
	if err != nil {
		t.Fatal(err)
	}
	it, err := streams.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: arn,
		ShardId: ds.StreamDescription.Shards[0].ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	if err != nil {
		t.Fatal(err)
	}
	next := it.ShardIterator
	read := func() []string {
		t.Helper()
		out, err := streams.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: next})
		if err != nil {
			t.Fatal(err)
		}
		next = out.NextShardIterator
		var keys []string
		for _, r := range out.Records {
			keys = append(keys, r.Dynamodb.Keys["sk"].(*stypes.AttributeValueMemberS).Value)
		}
		return keys
	}
	put := func(sk string) {
		t.Helper()
		if _, err := db.PutItem(ctx, putInput("tbl", "a", sk)); err != nil {
			t.Fatal(err)
		}
	}

	gate.SetDelay(200 * time.Millisecond)
	put("1")
	if got := read(); len(got) != 0 {
		t.Errorf("right after the write: got %q, want nothing yet", got)
	}
	if _, err := e.Clock().Advance(200 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if got := read(); len(got) != 1 || got[0] != "1" {
		t.Errorf("200 ms later: got %q, want [1]", got)
	}

	gate.Hold()
	put("2")
	if _, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String("tbl"), Item: item("a", "3")}},
		{Put: &types.Put{TableName: aws.String("tbl"), Item: item("a", "4")}},
	}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Clock().Advance(10 * time.Minute); err != nil {
		t.Fatal(err)
	}
	if got := read(); len(got) != 0 {
		t.Errorf("held: got %q, want nothing", got)
	}
	gate.Release()
	if got := read(); len(got) != 3 || got[0] != "2" || got[2] != "4" {
		t.Errorf("released: got %q, want [2 3 4]", got)
	}
	gate.SetDelay(0)
	put("5")
	if got := read(); len(got) != 1 || got[0] != "5" {
		t.Errorf("no lag: got %q, want [5]", got)
	}
}
