package emulator_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// The records a handler gets, in Lambda's event shape.

// rawEvents is a Go function that keeps each event it is sent, as JSON.
type rawEvents struct {
	mu     sync.Mutex
	events [][]byte
}

func (r *rawEvents) fn(_ context.Context, ev []byte) ([]byte, error) {
	r.mu.Lock()
	r.events = append(r.events, append([]byte(nil), ev...))
	r.mu.Unlock()
	return []byte(`{}`), nil
}

// records are the records of every event, in order, each decoded as
// generic JSON (numbers as json.Number).
func (r *rawEvents) records(t *testing.T) []map[string]any {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []map[string]any
	for _, ev := range r.events {
		var e struct{ Records []map[string]any }
		d := json.NewDecoder(strings.NewReader(string(ev)))
		d.UseNumber()
		require.NoError(t, d.Decode(&e))
		out = append(out, e.Records...)
	}
	return out
}

// TestStreamHandlerTTLArchiveFilter: the filter of DynamoDB's guide for
// archiving the items TTL deletes ("DynamoDB Streams and Time to Live":
// {"userIdentity": {"type": ["Service"], "principalId":
// ["dynamodb.amazonaws.com"]}}) delivers a TTL deletion to the handler,
// and nothing else (the writes, a deletion by a client); the handler
// reads userIdentity.type and .principalId as Lambda's events name them.
func TestStreamHandlerTTLArchiveFilter(t *testing.T) {
	env := newHandlerEnv(t, nil)
	ctx := context.Background()
	_, err := env.db.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("orders"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("expiresAt"), Enabled: aws.Bool(true)}})
	require.NoError(t, err)
	env.mapping(t, func(m *emulator.EventSourceMapping) {
		m.FilterPatterns = []string{`{"userIdentity": {"type": ["Service"], "principalId": ["dynamodb.amazonaws.com"]}}`}
	})
	soon := num(fmt.Sprint(env.e.Clock().Now().Add(time.Hour).Unix()))
	env.put(t, "session", map[string]types.AttributeValue{"expiresAt": soon})
	env.put(t, "kept", nil)
	env.put(t, "deleted", nil)
	env.del(t, "deleted")
	env.e.Clock().Advance(time.Hour + time.Second)
	require.Equal(t, 1, env.e.Clock().SweepTTL())
	env.drain(t)

	ivs := env.h.invocations()
	require.Len(t, ivs, 1, "the TTL deletion alone")
	require.Len(t, ivs[0].Records, 1)
	rec := ivs[0].Records[0]
	require.Equal(t, "REMOVE", rec.EventName)
	require.Equal(t, "session", rec.id())
	require.Equal(t, "Service", rec.UserIdentity["type"])
	require.Equal(t, map[string]any{"principalId": "dynamodb.amazonaws.com", "type": "Service"}, rec.UserIdentity)
	require.Equal(t, soon.(*types.AttributeValueMemberN).Value, rec.Dynamodb.OldImage["expiresAt"]["N"])
}

// The example event of "Using AWS Lambda with Amazon DynamoDB" (Lambda's
// developer guide): a table of key Id (N), a stream of
// NEW_AND_OLD_IMAGES, an item {Id: 101, Message: "New item!"} written,
// its Message changed to "This item has changed", then deleted. Each
// record of that event has eventID, eventName, eventVersion, eventSource
// "aws:dynamodb", awsRegion, eventSourceARN and dynamodb, which holds
// Keys, NewImage and OldImage (as the view and the event have them),
// ApproximateCreationDateTime (a number, seconds), SequenceNumber (a
// string), SizeBytes (a number: 26, 59 and 38) and StreamViewType; a
// record of a TTL deletion also has userIdentity {"principalId":
// "dynamodb.amazonaws.com", "type": "Service"}. Strings are JSON
// strings, SizeBytes and ApproximateCreationDateTime JSON numbers.
type guideRecord struct {
	eventName string
	keys      map[string]any
	newImage  map[string]any // nil: none
	oldImage  map[string]any
	sizeBytes string
}

func guideRecords() []guideRecord {
	n101 := map[string]any{"N": "101"}
	first := map[string]any{"Message": map[string]any{"S": "New item!"}, "Id": n101}
	changed := map[string]any{"Message": map[string]any{"S": "This item has changed"}, "Id": n101}
	keys := map[string]any{"Id": n101}
	return []guideRecord{
		{"INSERT", keys, first, nil, "26"},
		{"MODIFY", keys, changed, first, "59"},
		{"REMOVE", keys, nil, changed, "38"},
	}
}

// TestStreamHandlerEventMatchesTheGuide: the guide's writes reach a
// handler as the guide's example records, member for member: no member
// missing or added, each of its JSON type, each value the example's
// where the example's is not the instance's own (an event ID, a
// sequence number, a time, the stream's ARN, which are checked for
// their form).
func TestStreamHandlerEventMatchesTheGuide(t *testing.T) {
	e, db := emulatortest.NewWith(t, emulator.Options{})
	ctx := context.Background()
	out, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("TestTable"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("Id"), AttributeType: types.ScalarAttributeTypeN}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("Id"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
	})
	require.NoError(t, err)
	arn := aws.ToString(out.TableDescription.LatestStreamArn)
	var got rawEvents
	e.Streams().SetFunction("guide", got.fn)
	_, err = e.Streams().CreateMapping(emulator.EventSourceMapping{EventSourceArn: aws.String(arn),
		FunctionName: aws.String("guide"), StartingPosition: aws.String("TRIM_HORIZON")})
	require.NoError(t, err)
	key := map[string]types.AttributeValue{"Id": num("101")}
	before := e.Clock().Now().Unix() // the writes' seconds, which a second's edge may split
	_, err = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("TestTable"),
		Item: map[string]types.AttributeValue{"Id": num("101"), "Message": str("New item!")}})
	require.NoError(t, err)
	_, err = db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("TestTable"), Key: key,
		UpdateExpression:          aws.String("SET Message = :m"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":m": str("This item has changed")}})
	require.NoError(t, err)
	_, err = db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("TestTable"), Key: key})
	require.NoError(t, err)
	require.NoError(t, e.Streams().Drain(ctx))
	after := e.Clock().Now().Unix()

	recs := got.records(t)
	want := guideRecords()
	require.Len(t, recs, len(want))
	region := strings.Split(arn, ":")[3]
	var prevSeq string
	for i, rec := range recs {
		w := want[i]
		require.Equal(t, []string{"awsRegion", "dynamodb", "eventID", "eventName", "eventSource", "eventSourceARN", "eventVersion"},
			sortedKeys(rec), "record %d: the example's members, no other", i)
		require.Equal(t, w.eventName, rec["eventName"])
		require.Equal(t, "aws:dynamodb", rec["eventSource"])
		require.Equal(t, region, rec["awsRegion"])
		require.Equal(t, arn, rec["eventSourceARN"])
		require.IsType(t, "", rec["eventID"])
		require.NotEmpty(t, rec["eventID"])
		require.Regexp(t, `^1\.[01]$`, rec["eventVersion"], "a string, as the example's")

		ddb, ok := rec["dynamodb"].(map[string]any)
		require.True(t, ok, "record %d: dynamodb is an object", i)
		members := []string{"ApproximateCreationDateTime", "Keys", "SequenceNumber", "SizeBytes", "StreamViewType"}
		if w.newImage != nil {
			members = append(members, "NewImage")
		}
		if w.oldImage != nil {
			members = append(members, "OldImage")
		}
		sort.Strings(members)
		require.Equal(t, members, sortedKeys(ddb), "record %d: dynamodb's members", i)
		require.Equal(t, w.keys, ddb["Keys"])
		if w.newImage != nil {
			require.Equal(t, w.newImage, ddb["NewImage"])
		}
		if w.oldImage != nil {
			require.Equal(t, w.oldImage, ddb["OldImage"])
		}
		require.Equal(t, json.Number(w.sizeBytes), ddb["SizeBytes"], "record %d: SizeBytes, a number", i)
		require.Equal(t, "NEW_AND_OLD_IMAGES", ddb["StreamViewType"])
		at, ok := ddb["ApproximateCreationDateTime"].(json.Number)
		require.True(t, ok, "record %d: ApproximateCreationDateTime is a number", i)
		sec, err := at.Int64()
		require.NoError(t, err, "seconds, as the example's")
		require.GreaterOrEqual(t, sec, before, "record %d: written after the test began", i)
		require.LessOrEqual(t, sec, after, "record %d: written before the drain ended", i)
		seq, ok := ddb["SequenceNumber"].(string)
		require.True(t, ok, "record %d: SequenceNumber is a string", i)
		require.Regexp(t, `^[0-9]+$`, seq)
		if prevSeq != "" {
			require.True(t, len(seq) > len(prevSeq) || len(seq) == len(prevSeq) && seq > prevSeq, "sequence numbers grow")
		}
		prevSeq = seq
	}
}

// sortedKeys are m's keys in order.
func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
