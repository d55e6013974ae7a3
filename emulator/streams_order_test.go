package emulator_test

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// TestStreamOrderUnderConcurrency: writers race on a few items through
// PutItem, UpdateItem and TransactWriteItems; the stream must hold exactly
// one record per write, sequence numbers without gaps, and each item's
// versions in increasing order (commit order per item).
func TestStreamOrderUnderConcurrency(t *testing.T) {
	_, db, sc := emulatortest.NewWithStreams(t, emulator.Options{})
	ttlTable(t, db, types.StreamViewTypeNewImage, "")
	ctx := context.Background()
	const writers, perWriter, items = 4, 50, 3
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWriter {
				pk := &types.AttributeValueMemberS{Value: fmt.Sprint("item", (w+i)%items)}
				var err error
				switch i % 3 {
				case 0: // a version bump: each commit adds one
					_, err = db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(tbl),
						Key: map[string]types.AttributeValue{"pk": pk}, UpdateExpression: aws.String("ADD version :one"),
						ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}}})
				case 1:
					_, err = db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{
						Update: &types.Update{TableName: aws.String(tbl), Key: map[string]types.AttributeValue{"pk": pk},
							UpdateExpression:          aws.String("ADD version :one"),
							ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}}},
					}}})
				default:
					_, err = db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(tbl),
						Key: map[string]types.AttributeValue{"pk": pk}, UpdateExpression: aws.String("ADD version :one SET w = :w"),
						ExpressionAttributeValues: map[string]types.AttributeValue{
							":one": &types.AttributeValueMemberN{Value: "1"}, ":w": &types.AttributeValueMemberN{Value: strconv.Itoa(w)}}})
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	it, err := shardIter(t, db, sc, stypes.ShardIteratorTypeTrimHorizon, nil)
	if err != nil {
		t.Fatal(err)
	}
	var recs []stypes.Record
	for next := &it; next != nil; {
		out, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: next})
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, out.Records...)
		if len(out.Records) == 0 {
			break
		}
		next = out.NextShardIterator
	}
	if got, want := len(recs), writers*perWriter; got != want {
		t.Fatalf("got %d records, want %d", got, want)
	}
	last := map[string]int{}
	for i, r := range recs {
		seq, _ := strconv.Atoi(*r.Dynamodb.SequenceNumber)
		if seq != i+1 {
			t.Fatalf("record %d: sequence number %d, want %d", i, seq, i+1)
		}
		pk := r.Dynamodb.Keys["pk"].(*stypes.AttributeValueMemberS).Value
		v, _ := strconv.Atoi(r.Dynamodb.NewImage["version"].(*stypes.AttributeValueMemberN).Value)
		if v != last[pk]+1 {
			t.Fatalf("record %d: %s version %d after %d", i, pk, v, last[pk])
		}
		last[pk] = v
	}
}
