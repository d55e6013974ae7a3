package streamsapi

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// The feature in use in this package's tests, as the emulator uses it.
var testFeatures = []service.Feature{Feature{}}

// streamsEnv is a service with the table str (pk S, sk N) whose stream
// shows new and old images.
type streamsEnv struct {
	*servicetest.Env
	arn string // the table's stream
}

func newStreamsEnv(t *testing.T) *streamsEnv {
	t.Helper()
	e := servicetest.New(t, service.Config{Features: testFeatures})
	e.Must("CreateTable", `{"TableName":"str","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}}`)
	var d struct {
		Table struct{ LatestStreamArn string }
	}
	testkit.MustUnmarshal(t, e.Must("DescribeTable", `{"TableName":"str"}`), &d)
	return &streamsEnv{Env: e, arn: d.Table.LatestStreamArn}
}

// streams sends a Streams API operation.
func (e *streamsEnv) streams(op, body string) (int, string) {
	e.T.Helper()
	res, out := testkit.Do(e.T, e.Handler(), TargetPrefix+op, e.Auth, body)
	return res.StatusCode, out
}

func (e *streamsEnv) mustStreams(op, body string) string {
	e.T.Helper()
	status, out := e.streams(op, body)
	require.Equal(e.T, 200, status, "%s %s: %s", op, body, out)
	return out
}

// TestStreamsReadThrough: the four operations over a table's stream, the
// records as AWS shapes them (keys in name order, the images, the
// sequence numbers and sizes), and the shard closed once the stream is
// disabled.
func TestStreamsReadThrough(t *testing.T) {
	e := newStreamsEnv(t)
	e.Must("PutItem", `{"TableName":"str","Item":{"pk":{"S":"a"},"sk":{"N":"1"},"v":{"S":"one"}}}`)
	e.Must("PutItem", `{"TableName":"str","Item":{"pk":{"S":"a"},"sk":{"N":"1"},"v":{"S":"two"}}}`)
	e.Must("DeleteItem", `{"TableName":"str","Key":{"pk":{"S":"a"},"sk":{"N":"1"}}}`)

	var ls struct {
		Streams []struct{ StreamArn, TableName, StreamLabel string }
	}
	testkit.MustUnmarshal(t, e.mustStreams("ListStreams", `{}`), &ls)
	require.Len(t, ls.Streams, 1)
	require.Equal(t, e.arn, ls.Streams[0].StreamArn)
	require.Equal(t, "str", ls.Streams[0].TableName)
	require.True(t, strings.HasSuffix(e.arn, "/stream/"+ls.Streams[0].StreamLabel))

	var ds struct {
		StreamDescription struct {
			StreamStatus, StreamViewType, TableName string
			KeySchema                               []struct{ AttributeName, KeyType string }
			Shards                                  []struct {
				ShardId             string
				SequenceNumberRange struct{ StartingSequenceNumber, EndingSequenceNumber string }
			}
		}
	}
	testkit.MustUnmarshal(t, e.mustStreams("DescribeStream", `{"StreamArn":"`+e.arn+`"}`), &ds)
	d := ds.StreamDescription
	require.Equal(t, "ENABLED", d.StreamStatus)
	require.Equal(t, "NEW_AND_OLD_IMAGES", d.StreamViewType)
	require.Equal(t, "str", d.TableName)
	require.Len(t, d.KeySchema, 2)
	require.Len(t, d.Shards, 1)
	require.Empty(t, d.Shards[0].SequenceNumberRange.EndingSequenceNumber, "an open shard")
	shard := d.Shards[0].ShardId

	var it struct{ ShardIterator string }
	testkit.MustUnmarshal(t, e.mustStreams("GetShardIterator", `{"StreamArn":"`+e.arn+`","ShardId":"`+shard+`","ShardIteratorType":"TRIM_HORIZON"}`), &it)
	var gr struct {
		Records []struct {
			EventName, EventSource, AwsRegion string
			Dynamodb                          struct {
				Keys, NewImage, OldImage map[string]map[string]string
				SequenceNumber           string
				SizeBytes                int
				StreamViewType           string
			}
		}
		NextShardIterator string
	}
	testkit.MustUnmarshal(t, e.mustStreams("GetRecords", `{"ShardIterator":"`+it.ShardIterator+`"}`), &gr)
	require.Len(t, gr.Records, 3)
	for i, want := range []string{"INSERT", "MODIFY", "REMOVE"} {
		r := gr.Records[i]
		require.Equal(t, want, r.EventName)
		require.Equal(t, "aws:dynamodb", r.EventSource)
		require.Equal(t, "us-east-1", r.AwsRegion)
		require.Equal(t, map[string]map[string]string{"pk": {"S": "a"}, "sk": {"N": "1"}}, r.Dynamodb.Keys)
		require.Equal(t, "NEW_AND_OLD_IMAGES", r.Dynamodb.StreamViewType)
		require.Positive(t, r.Dynamodb.SizeBytes)
	}
	require.Equal(t, "two", gr.Records[1].Dynamodb.NewImage["v"]["S"])
	require.Equal(t, "one", gr.Records[1].Dynamodb.OldImage["v"]["S"])
	require.Nil(t, gr.Records[2].Dynamodb.NewImage, "a removal has no new image")
	require.Less(t, gr.Records[0].Dynamodb.SequenceNumber, gr.Records[1].Dynamodb.SequenceNumber)
	require.NotEmpty(t, gr.NextShardIterator, "an open shard goes on")

	// Disabled: the shard is closed at its last record, and a reader at
	// its end gets no next iterator.
	e.Must("UpdateTable", `{"TableName":"str","StreamSpecification":{"StreamEnabled":false}}`)
	testkit.MustUnmarshal(t, e.mustStreams("DescribeStream", `{"StreamArn":"`+e.arn+`"}`), &ds)
	require.Equal(t, "DISABLED", ds.StreamDescription.StreamStatus)
	require.Equal(t, gr.Records[2].Dynamodb.SequenceNumber, ds.StreamDescription.Shards[0].SequenceNumberRange.EndingSequenceNumber)
	var end struct {
		Records           []any
		NextShardIterator string
	}
	testkit.MustUnmarshal(t, e.mustStreams("GetRecords", `{"ShardIterator":"`+gr.NextShardIterator+`"}`), &end)
	require.Empty(t, end.Records)
	require.Empty(t, end.NextShardIterator, "a closed shard read to its end")
}

// TestStreamsErrors: the members' constraints, malformed and unknown
// stream ARNs, shards, sequence numbers and iterators.
func TestStreamsErrors(t *testing.T) {
	e := newStreamsEnv(t)
	var ds struct {
		StreamDescription struct{ Shards []struct{ ShardId string } }
	}
	testkit.MustUnmarshal(t, e.mustStreams("DescribeStream", `{"StreamArn":"`+e.arn+`"}`), &ds)
	shard := ds.StreamDescription.Shards[0].ShardId
	unknown := strings.Replace(e.arn, "table/str/", "table/nosuch/", 1)
	for _, tc := range []struct {
		name, op, body string
		typ, msg       string
	}{
		{"list: limit 0", "ListStreams", `{"Limit":0}`, "ValidationException",
			"1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"list: malformed start", "ListStreams", `{"ExclusiveStartStreamArn":"fake-stream"}`, "ValidationException", "Invalid StreamArn"},
		{"describe: no arn", "DescribeStream", `{}`, "ValidationException",
			"1 validation error detected: Value null at 'streamArn' failed to satisfy constraint: Member must not be null"},
		{"describe: malformed arn", "DescribeStream", `{"StreamArn":"fake-stream"}`, "ValidationException", "Invalid StreamArn"},
		{"describe: unknown stream", "DescribeStream", `{"StreamArn":"` + unknown + `"}`, "ResourceNotFoundException",
			"Requested resource not found: Stream: " + unknown + " not found"},
		{"iterator: unknown shard", "GetShardIterator", `{"StreamArn":"` + e.arn + `","ShardId":"shardId-00000000000000000000-00000000","ShardIteratorType":"LATEST"}`,
			"ResourceNotFoundException", "Requested resource not found: Shard does not exist"},
		{"iterator: sequence number missing", "GetShardIterator", `{"StreamArn":"` + e.arn + `","ShardId":"` + shard + `","ShardIteratorType":"AT_SEQUENCE_NUMBER"}`,
			"ValidationException", "One or more parameter values were invalid: Invalid SequenceNumber"},
		{"iterator: bad type", "GetShardIterator", `{"StreamArn":"` + e.arn + `","ShardId":"` + shard + `","ShardIteratorType":"FIRST"}`,
			"ValidationException", "1 validation error detected: Value 'FIRST' at 'shardIteratorType' failed to satisfy constraint: Member must satisfy enum value set: [TRIM_HORIZON, LATEST, AT_SEQUENCE_NUMBER, AFTER_SEQUENCE_NUMBER]"},
		{"records: malformed iterator", "GetRecords", `{"ShardIterator":"x"}`, "ValidationException", "Invalid ShardIterator"},
		{"records: limit 1001", "GetRecords", `{"ShardIterator":"x","Limit":1001}`, "ValidationException", "One or more parameter values were invalid: Limit should be less than or equal to 1000"},
	} {
		status, out := e.streams(tc.op, tc.body)
		require.Equal(t, 400, status, "%s: %s", tc.name, out)
		typ, msg := testkit.ErrorOf(out)
		require.Equal(t, tc.typ, typ, tc.name)
		require.Equal(t, tc.msg, msg, tc.name)
	}
}

// TestIteratorExpires: a shard iterator is good for 15 minutes of the
// service's clock.
func TestIteratorExpires(t *testing.T) {
	e := newStreamsEnv(t)
	var ds struct {
		StreamDescription struct{ Shards []struct{ ShardId string } }
	}
	testkit.MustUnmarshal(t, e.mustStreams("DescribeStream", `{"StreamArn":"`+e.arn+`"}`), &ds)
	var it struct{ ShardIterator string }
	testkit.MustUnmarshal(t, e.mustStreams("GetShardIterator", `{"StreamArn":"`+e.arn+`","ShardId":"`+ds.StreamDescription.Shards[0].ShardId+`","ShardIteratorType":"LATEST"}`), &it)
	e.Clock.Advance(15 * time.Minute)
	e.mustStreams("GetRecords", `{"ShardIterator":"`+it.ShardIterator+`"}`)
	e.Clock.Advance(time.Millisecond)
	status, out := e.streams("GetRecords", `{"ShardIterator":"`+it.ShardIterator+`"}`)
	require.Equal(t, 400, status, out)
	require.Equal(t, "ExpiredIteratorException", testkit.ErrorType(out))
}

// FuzzWellFormedStreamARN: any string is a stream ARN or not, never a
// panic, and one read as well-formed has a table name of DynamoDB's
// rules and a label.
func FuzzWellFormedStreamARN(f *testing.F) {
	for _, s := range []string{"arn:aws:dynamodb:us-east-1:000000000000:table/str/stream/2026-01-01T00:00:00.000",
		"fake-stream", "arn:aws:dynamodb:r:a:table/ab/stream/x", "arn:aws:dynamodb:r:a:table/abc/stream/", "arn:::::", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arn string) {
		if !wellFormedStreamARN(arn) {
			return
		}
		rest := arn[strings.Index(arn, ":table/")+len(":table/"):]
		table, label, ok := strings.Cut(rest, "/stream/")
		require.True(t, ok)
		require.NotEmpty(t, label)
		require.True(t, tablespec.ValidTableName(table), table)
	})
}
