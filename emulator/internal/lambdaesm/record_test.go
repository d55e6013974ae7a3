package lambdaesm

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// The on-failure record of "Retaining discarded batches for a DynamoDB
// event source" in Lambda's DynamoDB guide. Its example:
//
//	{"requestContext": {"requestId": "316aa6d0-8154-xmpl-9af7-85d5f4a6bc81",
//	   "functionArn": "arn:aws:lambda:us-east-2:123456789012:function:myfunction",
//	   "condition": "RetryAttemptsExhausted", "approximateInvokeCount": 1},
//	 "responseContext": {"statusCode": 200, "executedVersion": "$LATEST", "functionError": "Unhandled"},
//	 "version": "1.0", "timestamp": "2019-11-14T00:13:49.717Z",
//	 "DDBStreamBatchInfo": {"shardId": "shardId-00000001573689847184-864758bb",
//	   "startSequenceNumber": "800000000003126276362", "endSequenceNumber": "800000000003126276362",
//	   "approximateArrivalOfFirstRecord": "2019-11-14T00:13:19Z",
//	   "approximateArrivalOfLastRecord": "2019-11-14T00:13:19Z",
//	   "batchSize": 1, "streamArn": "arn:aws:dynamodb:us-east-2:123456789012:table/mytable/stream/2019-11-14T00:04:06.388"}}
//
// The timestamp has milliseconds; the arrivals (a record's
// ApproximateCreationDateTime, seconds) have none.

var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// TestInvocationRecordShape: the document, member for member and in the
// example's order, its timestamp the clock's to the millisecond.
func TestInvocationRecordShape(t *testing.T) {
	e := newESMEnv(t)
	e.fn(func(int, event) ([]byte, error) { return nil, errors.New("boom") })
	id := e.create(func(s *Spec) {
		s.BatchSize = ptr(int64(2))
		s.MaximumRetryAttempts = ptr(int64(0))
		s.Enabled = ptr(false)
	})
	e.puts("a", "b")                                       // 12:00:01 and 12:00:02
	e.Clock.Advance(47*time.Second + 717*time.Millisecond) // 12:00:49.717
	e.enable(id)
	e.drain()
	raw, err := e.m.Failures(id)
	require.NoError(t, err)
	require.Len(t, raw, 1)
	doc := string(raw[0])

	var keys []string
	d := json.NewDecoder(strings.NewReader(doc))
	_, _ = d.Token()
	for d.More() {
		k, err := d.Token()
		require.NoError(t, err)
		keys = append(keys, k.(string))
		var skip json.RawMessage
		require.NoError(t, d.Decode(&skip))
	}
	require.Equal(t, []string{"requestContext", "responseContext", "version", "timestamp", "DDBStreamBatchInfo"}, keys)

	var got failureDoc
	require.NoError(t, json.Unmarshal(raw[0], &got))
	require.Regexp(t, uuidPattern, got.RequestContext.RequestID)
	s := e.stream()
	first, _ := s.Bounds(e.Clock.Now())
	want := `{"requestContext":{"requestId":"` + got.RequestContext.RequestID + `",
		"functionArn":"arn:aws:lambda:us-east-1:` + strings.Split(e.arn, ":")[4] + `:function:fn",
		"condition":"RetryAttemptsExhausted","approximateInvokeCount":1},
	 "responseContext":{"statusCode":200,"executedVersion":"$LATEST","functionError":"Unhandled"},
	 "version":"1.0","timestamp":"2026-11-22T12:00:49.717Z",
	 "DDBStreamBatchInfo":{"shardId":"` + s.ShardID() + `",
		"startSequenceNumber":"` + seqText(first) + `","endSequenceNumber":"` + seqText(first+1) + `",
		"approximateArrivalOfFirstRecord":"2026-11-22T12:00:01Z","approximateArrivalOfLastRecord":"2026-11-22T12:00:02Z",
		"batchSize":2,"streamArn":"` + e.arn + `"}}`
	require.True(t, testkit.JSONEqual(want, doc), "got %s\nwant %s", doc, want)
}

// TestInvocationRecordTimestampMilliseconds: the timestamp keeps the
// clock's milliseconds, three digits always (the example's
// "2019-11-14T00:13:49.717Z"), none past them.
func TestInvocationRecordTimestampMilliseconds(t *testing.T) {
	for _, tc := range []struct {
		after time.Duration
		want  string
	}{
		{21 * time.Millisecond, "2026-11-22T12:00:00.021Z"},
		{0, "2026-11-22T12:00:00.000Z"},
		{999*time.Millisecond + 999*time.Microsecond, "2026-11-22T12:00:00.999Z"},
		{time.Hour + 100*time.Millisecond, "2026-11-22T13:00:00.100Z"},
	} {
		now := time.Date(2026, 11, 22, 21, 0, 0, 0, time.FixedZone("JST", 9*3600)).Add(tc.after) // 12:00 UTC, in UTC whatever the zone
		b := invocationRecord(testStream(t), settings{function: "fn"}, []item{{seq: 1, at: 1}}, "RecordAgeExceeded", 0, result{}, now)
		var doc failureDoc
		require.NoError(t, json.Unmarshal(b, &doc))
		require.Equal(t, tc.want, doc.Timestamp)
		require.Equal(t, "1970-01-01T00:00:01Z", doc.DDBStreamBatchInfo.ApproximateArrivalOfFirstRecord)
		require.Nil(t, doc.ResponseContext, "never invoked: no responseContext")
	}
}

// TestInvocationRecordResponseContext: functionError is the function's
// error type, "Unhandled" for an error without one (an HTTP error of the
// Invoke API), and null for a failure the function reported, as AWS
// sends them; statusCode is the Invoke API's.
func TestInvocationRecordResponseContext(t *testing.T) {
	s := testStream(t)
	one := []item{{seq: 5, at: 1}}
	for _, tc := range []struct {
		name   string
		last   result
		status int
		fe     *string
	}{
		{"a function error", result{status: 200, funcError: "Unhandled"}, 200, ptr("Unhandled")},
		{"a handled error type", result{status: 200, funcError: "Handled"}, 200, ptr("Handled")},
		{"an HTTP error", result{status: 502}, 502, ptr("Unhandled")},
		{"a reported failure", result{ok: true, status: 200, report: itemReport{kind: reportFrom}}, 200, nil},
		{"a complete failure by report", result{ok: true, status: 200, report: itemReport{kind: reportWhole}}, 200, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var doc failureDoc
			require.NoError(t, json.Unmarshal(invocationRecord(s, settings{function: "fn"}, one, "RetryAttemptsExhausted", 2, tc.last, time.Now()), &doc))
			require.NotNil(t, doc.ResponseContext)
			require.Equal(t, tc.status, doc.ResponseContext.StatusCode)
			require.Equal(t, tc.fe, doc.ResponseContext.FunctionError)
			require.Equal(t, 2, doc.RequestContext.ApproximateInvokeCount)
		})
	}
}

// testStream is the stream of a service's table, for the record's shard
// and ARN.
func testStream(t *testing.T) service.Stream { return newESMEnv(t).stream() }

// TestOnFailureDestinations: a file:// destination gets each record as a
// line of JSON, an http(s):// one as a POST, an ARN nothing (the record
// is kept); a destination that fails is logged and the mapping goes on.
func TestOnFailureDestinations(t *testing.T) {
	var mu sync.Mutex
	var posted []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		posted = append(posted, r.Method+" "+r.URL.Path+" "+r.Header.Get("Content-Type")+" "+string(b))
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	dir, err := CleanFileDir(t.TempDir()) // file:// destinations are confined to it (targets.go)
	require.NoError(t, err)
	path := filepath.Join(dir, "failures.jsonl")
	for _, dest := range []string{"file://" + path, srv.URL + "/failures", "arn:aws:sqs:us-east-1:000000000000:dlq",
		"file://" + filepath.Join(dir, "no", "such", "dir", "f.jsonl")} {
		t.Run(dest, func(t *testing.T) {
			e := newESMEnv(t)
			e.m.SetTargets(Targets{FileDir: dir})
			fn := e.fn(func(_ int, ev event) ([]byte, error) {
				if ev.ids()[0] == "x" {
					return nil, errors.New("x fails")
				}
				return nil, nil
			})
			id := e.create(func(s *Spec) {
				s.BatchSize = ptr(int64(1))
				s.MaximumRetryAttempts = ptr(int64(0))
				s.DestinationConfig = &DestinationConfig{OnFailure: &OnFailure{Destination: ptr(dest)}}
				s.Enabled = ptr(false)
			})
			e.puts("x", "y", "x2")
			e.enable(id)
			e.drain()
			require.Equal(t, [][]string{{"x"}, {"y"}, {"x2"}}, fn.batches())
			require.Len(t, e.failures(id), 1, "kept whatever the destination")
		})
	}
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	require.Len(t, lines, 1)
	require.Contains(t, lines[0], `"condition":"RetryAttemptsExhausted"`)
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, posted, 1)
	require.True(t, strings.HasPrefix(posted[0], "POST /failures application/json {\"requestContext\":"), posted[0])
}

// TestFailuresKeepTheLast: a mapping keeps the last maxKeptFailures
// invocation records.
func TestFailuresKeepTheLast(t *testing.T) {
	e := newESMEnv(t)
	id := e.create(nil)
	mp := e.m.lookup(id)
	s := e.stream()
	for i := range maxKeptFailures + 5 {
		mp.discard(s, mp.settings(), []item{{seq: uint64(i + 1)}}, "RecordAgeExceeded", 0, result{})
	}
	docs := e.failures(id)
	require.Len(t, docs, maxKeptFailures)
	require.Equal(t, seqText(6), docs[0].DDBStreamBatchInfo.StartSequenceNumber, "the oldest five dropped")
	require.EqualValues(t, maxKeptFailures+5, e.status(id).Discarded)
	_, err := e.m.Failures("no-such-uuid")
	require.Error(t, err)
}
