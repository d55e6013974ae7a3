package emulator_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// Streams and TTL against a clock the test moves: iterator expiry,
// trimming, forgetting a disabled stream, TTL expiry, and the admin
// endpoints. Nothing here sleeps.

// tbl is the table the tests make.
const tbl = "tbl"

var start = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// fixedClock is a clock that stands still unless the emulator moves it.
func fixedClock() time.Time { return start }

// ttlTable creates table tbl (pk S) with a stream of view type view and,
// when ttlAttr is not "", TTL on that attribute.
func ttlTable(t *testing.T, db *dynamodb.Client, view types.StreamViewType, ttlAttr string) {
	t.Helper()
	ctx := context.Background()
	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(tbl),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: view},
	})
	if err != nil {
		t.Fatal(err)
	}
	if ttlAttr != "" {
		_, err = db.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(tbl),
			TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String(ttlAttr), Enabled: aws.Bool(true)}})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func put(t *testing.T, db *dynamodb.Client, pk string, attrs map[string]types.AttributeValue) {
	t.Helper()
	it := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}}
	for k, v := range attrs {
		it[k] = v
	}
	if _, err := db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(tbl), Item: it}); err != nil {
		t.Fatal(err)
	}
}

// shardIter returns an iterator of typ on table t's stream.
func shardIter(t *testing.T, db *dynamodb.Client, sc *dynamodbstreams.Client, typ stypes.ShardIteratorType, seq *string) (string, error) {
	t.Helper()
	ctx := context.Background()
	d, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(tbl)})
	if err != nil {
		t.Fatal(err)
	}
	ds, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: d.Table.LatestStreamArn})
	if err != nil {
		return "", err
	}
	out, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: d.Table.LatestStreamArn,
		ShardId: ds.StreamDescription.Shards[0].ShardId, ShardIteratorType: typ, SequenceNumber: seq})
	if err != nil {
		return "", err
	}
	return *out.ShardIterator, nil
}

func records(t *testing.T, sc *dynamodbstreams.Client, it string) []stypes.Record {
	t.Helper()
	out, err := sc.GetRecords(context.Background(), &dynamodbstreams.GetRecordsInput{ShardIterator: &it})
	if err != nil {
		t.Fatal(err)
	}
	return out.Records
}

func TestStreamIteratorExpires(t *testing.T) {
	e, db, sc := emulatortest.NewWithStreams(t, emulator.Options{Clock: fixedClock})
	ttlTable(t, db, types.StreamViewTypeKeysOnly, "")
	it, err := shardIter(t, db, sc, stypes.ShardIteratorTypeTrimHorizon, nil)
	if err != nil {
		t.Fatal(err)
	}
	e.Clock().Advance(15 * time.Minute) // still valid at exactly 15 minutes
	out, err := sc.GetRecords(context.Background(), &dynamodbstreams.GetRecordsInput{ShardIterator: &it})
	if err != nil {
		t.Fatalf("at 15 minutes: %v", err)
	}
	e.Clock().Advance(15*time.Minute + time.Second) // the original, and the next one made 15 minutes ago
	for _, it := range []string{it, *out.NextShardIterator} {
		_, err = sc.GetRecords(context.Background(), &dynamodbstreams.GetRecordsInput{ShardIterator: &it})
		var expired *stypes.ExpiredIteratorException
		if !errors.As(err, &expired) {
			t.Errorf("got %v, want ExpiredIteratorException", err)
		}
	}
}

func TestStreamTrimming(t *testing.T) {
	e, db, sc := emulatortest.NewWithStreams(t, emulator.Options{Clock: fixedClock, StreamRetention: time.Hour})
	ttlTable(t, db, types.StreamViewTypeKeysOnly, "")
	put(t, db, "old", nil)
	it, _ := shardIter(t, db, sc, stypes.ShardIteratorTypeTrimHorizon, nil)
	first := *records(t, sc, it)[0].Dynamodb.SequenceNumber
	e.Clock().Advance(2 * time.Hour)
	put(t, db, "new", nil)
	_, err := shardIter(t, db, sc, stypes.ShardIteratorTypeAtSequenceNumber, &first)
	var trimmed *stypes.TrimmedDataAccessException
	if !errors.As(err, &trimmed) {
		t.Fatalf("AT_SEQUENCE_NUMBER of a trimmed record: got %v, want TrimmedDataAccessException", err)
	}
	it, _ = shardIter(t, db, sc, stypes.ShardIteratorTypeTrimHorizon, nil)
	recs := records(t, sc, it)
	if len(recs) != 1 || recs[0].Dynamodb.Keys["pk"].(*stypes.AttributeValueMemberS).Value != "new" {
		t.Errorf("got %d records after trimming, want only the new one", len(recs))
	}
	// An iterator still valid whose records are trimmed before it is used.
	e.Clock().Advance(55 * time.Minute) // "new" is 55 minutes old
	it, _ = shardIter(t, db, sc, stypes.ShardIteratorTypeTrimHorizon, nil)
	e.Clock().Advance(10 * time.Minute) // "new" is trimmed, the iterator 10 minutes old
	put(t, db, "newer", nil)
	_, err = sc.GetRecords(context.Background(), &dynamodbstreams.GetRecordsInput{ShardIterator: &it})
	if !errors.As(err, &trimmed) {
		t.Errorf("GetRecords at a trimmed position: got %v, want TrimmedDataAccessException", err)
	}
}

func TestDisabledStreamForgottenAfterRetention(t *testing.T) {
	e, db, sc := emulatortest.NewWithStreams(t, emulator.Options{Clock: fixedClock})
	ttlTable(t, db, types.StreamViewTypeKeysOnly, "")
	ctx := context.Background()
	d, _ := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(tbl)})
	if _, err := db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(tbl)}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		advance time.Duration
		found   bool
	}{{0, true}, {23 * time.Hour, true}, {time.Hour, false}} {
		e.Clock().Advance(tc.advance)
		ds, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: d.Table.LatestStreamArn})
		var nf *stypes.ResourceNotFoundException
		switch {
		case tc.found && err != nil:
			t.Fatalf("after %v more: %v", tc.advance, err)
		case tc.found && ds.StreamDescription.StreamStatus != stypes.StreamStatusDisabled:
			t.Errorf("got status %s for the stream of a deleted table, want DISABLED", ds.StreamDescription.StreamStatus)
		case !tc.found && !errors.As(err, &nf):
			t.Errorf("24 hours after: got %v, want ResourceNotFoundException", err)
		}
	}
}

// TestTTLAdvanceClock is the README's example: a TTL test that moves the
// clock instead of sleeping.
func TestTTLAdvanceClock(t *testing.T) {
	e, db, sc := emulatortest.NewWithStreams(t, emulator.Options{})
	ttlTable(t, db, types.StreamViewTypeOldImage, "expiresAt")
	in := func(d time.Duration) types.AttributeValue {
		return &types.AttributeValueMemberN{Value: fmt.Sprint(e.Clock().Now().Add(d).Unix())}
	}
	put(t, db, "session", map[string]types.AttributeValue{"expiresAt": in(time.Hour)})
	put(t, db, "forever", nil)
	if n := e.Clock().SweepTTL(); n != 0 {
		t.Fatalf("first sweep deleted %d items, want 0", n)
	}
	e.Clock().Advance(time.Hour + time.Second)
	if n := e.Clock().SweepTTL(); n != 1 {
		t.Fatalf("sweep an hour later deleted %d items, want 1", n)
	}
	got, err := db.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(tbl),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "session"}}})
	if err != nil || got.Item != nil {
		t.Fatalf("GetItem of the expired session: got %v, %v; want no item", got.Item, err)
	}
	it, _ := shardIter(t, db, sc, stypes.ShardIteratorTypeTrimHorizon, nil)
	recs := records(t, sc, it)
	last := recs[len(recs)-1]
	if last.EventName != stypes.OperationTypeRemove || last.UserIdentity == nil || *last.UserIdentity.PrincipalId != "dynamodb.amazonaws.com" {
		t.Errorf("got last record %s %+v, want a REMOVE by dynamodb.amazonaws.com", last.EventName, last.UserIdentity)
	}
}

// TestTTLReenableAtOnce: AWS allows one TTL change per hour; DynamoDB
// Local, and so the emulator, allow enabling again at once.
func TestTTLReenableAtOnce(t *testing.T) {
	_, db, _ := emulatortest.NewWithStreams(t, emulator.Options{})
	ttlTable(t, db, types.StreamViewTypeKeysOnly, "exp")
	for _, enabled := range []bool{false, true, false} {
		_, err := db.UpdateTimeToLive(context.Background(), &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(tbl),
			TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(enabled)}})
		if err != nil {
			t.Fatalf("enabled=%v: %v", enabled, err)
		}
	}
}

func TestAdminEndpoints(t *testing.T) {
	e, err := emulator.New(emulator.Options{Clock: fixedClock})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e.Handler())
	defer srv.Close()
	tests := []struct {
		method, path, body string
		status             int
		want               string
	}{
		{"GET", adminpath.Clock, "", 200, `{"now":"2026-11-22T10:00:00Z"}`},
		{"POST", adminpath.Clock, `{"advance":"1h30m"}`, 200, `{"now":"2026-11-22T11:30:00Z"}`},
		{"POST", adminpath.Clock, `{"set":"2030-01-02T03:04:05Z"}`, 200, `{"now":"2030-01-02T03:04:05Z"}`},
		{"POST", adminpath.Clock, `{"advance":"soon"}`, 400, `"message"`},
		{"POST", adminpath.Clock, `{"advance":"1h","set":"2030-01-02T03:04:05Z"}`, 400, `"message"`},
		{"POST", adminpath.Clock, `not json`, 400, `"message"`},
		{"POST", adminpath.Sweep, "", 200, `{"deleted":0}`},
	}
	for _, tc := range tests {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, strings.NewReader(tc.body))
		if tc.method == "POST" {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		_, _ = fmt.Fprint(&b, readAll(res))
		if res.StatusCode != tc.status || !strings.Contains(b.String(), tc.want) {
			t.Errorf("%s %s %s: got %d %s, want %d with %s", tc.method, tc.path, tc.body, res.StatusCode, b.String(), tc.status, tc.want)
		}
	}
}

func readAll(res *http.Response) string {
	defer res.Body.Close()
	var b strings.Builder
	buf := make([]byte, 512)
	for {
		n, err := res.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			return b.String()
		}
	}
}
