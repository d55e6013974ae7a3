package emulator_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
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

// The stream handlers (Lambda event source mappings) through the HTTP
// target, each setting with Lambda's documented behaviour ("Lambda
// parameters for Amazon DynamoDB event source mappings", "Error
// handling" and "Reporting batch item failures" in Lambda's DynamoDB
// guide, "Lambda event filtering"). No test sleeps: Streams.Drain
// returns once every record written before it was handled.

// TestStreamHandlerEventShape: the event is Lambda's: Records with
// eventID, eventName, eventVersion 1.1, eventSource aws:dynamodb,
// awsRegion, the dynamodb member as the Streams API serves it and
// eventSourceARN; posted to the Invoke API's path of the function.
func TestStreamHandlerEventShape(t *testing.T) {
	env := newHandlerEnv(t, nil)
	id := env.mapping(t, func(m *emulator.EventSourceMapping) { m.Enabled = aws.Bool(false) }) // the three records read at once
	env.put(t, "o1", map[string]types.AttributeValue{"status": str("NEW")})
	env.put(t, "o1", map[string]types.AttributeValue{"status": str("PAID")})
	env.del(t, "o1")
	require.NoError(t, env.e.Streams().UpdateMapping(id, emulator.EventSourceMapping{Enabled: aws.Bool(true)}))
	env.drain(t)
	calls := env.h.invocations()
	require.Len(t, calls, 1)
	require.Equal(t, "/2015-03-31/functions/fn/invocations", calls[0].Path)
	recs := calls[0].Records
	require.Len(t, recs, 3)
	require.Equal(t, []string{"INSERT", "MODIFY", "REMOVE"}, []string{recs[0].EventName, recs[1].EventName, recs[2].EventName})
	for i, r := range recs {
		require.Equal(t, "1.1", r.EventVersion)
		require.Equal(t, "aws:dynamodb", r.EventSource)
		require.Equal(t, "us-east-1", r.AwsRegion)
		require.Equal(t, env.arn, r.EventSourceARN)
		require.NotEmpty(t, r.EventID)
		require.Equal(t, "NEW_AND_OLD_IMAGES", r.Dynamodb.StreamViewType)
		require.Equal(t, map[string]map[string]any{"id": {"S": "o1"}}, r.Dynamodb.Keys)
		require.Positive(t, r.Dynamodb.SizeBytes)
		require.NotEmpty(t, r.Dynamodb.ApproximateCreationDateTime.String())
		if i > 0 {
			prev, _ := strconv.ParseUint(recs[i-1].Dynamodb.SequenceNumber, 10, 64)
			cur, _ := strconv.ParseUint(r.Dynamodb.SequenceNumber, 10, 64)
			require.Greater(t, cur, prev)
		}
	}
	require.Equal(t, "NEW", recs[0].Dynamodb.NewImage["status"]["S"])
	require.Nil(t, recs[0].Dynamodb.OldImage)
	require.Equal(t, "NEW", recs[1].Dynamodb.OldImage["status"]["S"])
	require.Equal(t, "PAID", recs[2].Dynamodb.OldImage["status"]["S"])
	require.Nil(t, recs[2].Dynamodb.NewImage)
}

// TestStreamHandlerGoFunction: a Go function is a target; its error is
// a function error.
func TestStreamHandlerGoFunction(t *testing.T) {
	env := newHandlerEnv(t, nil)
	var mu sync.Mutex
	var got []string
	calls := 0
	env.e.Streams().SetFunction("inGo", func(_ context.Context, event []byte) ([]byte, error) {
		var ev struct{ Records []lambdaRecord }
		if err := json.Unmarshal(event, &ev); err != nil {
			return nil, err
		}
		mu.Lock()
		defer mu.Unlock()
		calls++
		if calls == 1 {
			return nil, fmt.Errorf("first call fails")
		}
		for _, r := range ev.Records {
			got = append(got, r.id())
		}
		return nil, nil
	})
	env.mapping(t, func(m *emulator.EventSourceMapping) { m.FunctionName = aws.String("inGo") })
	env.put(t, "a", nil)
	env.drain(t)
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, []string{"a"}, got)
	require.Equal(t, 2, calls)
	require.Empty(t, env.h.invocations(), "a Go function of the name is called instead of the endpoint")
}

// filterCase is a mapping's filters and the records they let through.
type filterCase struct {
	name     string
	patterns []string
	want     []string // "<eventName>:<id>" of the records delivered, in order
}

// TestStreamHandlerFilters: every comparison operator of Lambda's event
// filtering on DynamoDB-shaped records; a record matching no filter is
// dropped and never delivered, and the drain still completes.
func TestStreamHandlerFilters(t *testing.T) {
	cases := []filterCase{
		{"equals eventName", []string{`{"eventName":["INSERT"]}`}, []string{"INSERT:a", "INSERT:b", "INSERT:c", "INSERT:d"}},
		{"or within a list", []string{`{"eventName":["MODIFY","REMOVE"]}`}, []string{"MODIFY:a", "REMOVE:b"}},
		{"nested equals", []string{`{"dynamodb":{"NewImage":{"status":{"S":["PAID"]}}}}`}, []string{"MODIFY:a"}},
		{"and of two fields", []string{`{"eventName":["INSERT"],"dynamodb":{"NewImage":{"status":{"S":["NEW"]}}}}`}, []string{"INSERT:a", "INSERT:b"}},
		{"prefix", []string{`{"dynamodb":{"Keys":{"id":{"S":[{"prefix":"c"}]}}}}`}, []string{"INSERT:c"}},
		{"suffix", []string{`{"dynamodb":{"NewImage":{"email":{"S":[{"suffix":"@example.com"}]}}}}`}, []string{"INSERT:a"}},
		{"equals-ignore-case", []string{`{"dynamodb":{"NewImage":{"status":{"S":[{"equals-ignore-case":"paid"}]}}}}`}, []string{"MODIFY:a", "INSERT:d"}},
		{"anything-but", []string{`{"eventName":[{"anything-but":["INSERT","MODIFY"]}]}`}, []string{"REMOVE:b"}},
		{"anything-but a value", []string{`{"dynamodb":{"NewImage":{"status":{"S":[{"anything-but":"NEW"}]}}}}`}, []string{"INSERT:c", "INSERT:d", "MODIFY:a"}},
		{"anything-but prefix", []string{`{"dynamodb":{"Keys":{"id":{"S":[{"anything-but":{"prefix":"a"}}]}}}}`}, []string{"INSERT:b", "INSERT:c", "INSERT:d", "REMOVE:b"}},
		{"numeric range on a JSON number", []string{`{"dynamodb":{"SizeBytes":[{"numeric":[">",0,"<=",100000]}]}}`},
			[]string{"INSERT:a", "INSERT:b", "INSERT:c", "INSERT:d", "MODIFY:a", "REMOVE:b"}},
		{"numeric never matches a DynamoDB number (a string)", []string{`{"dynamodb":{"NewImage":{"qty":{"N":[{"numeric":[">",0]}]}}}}`}, nil},
		{"a DynamoDB number by its text", []string{`{"dynamodb":{"NewImage":{"qty":{"N":["5"]}}}}`}, []string{"INSERT:c"}},
		{"exists (on a leaf)", []string{`{"dynamodb":{"NewImage":{"email":{"S":[{"exists":true}]}}}}`}, []string{"INSERT:a", "MODIFY:a"}},
		{"does not exist", []string{`{"eventName":["INSERT"],"dynamodb":{"NewImage":{"email":{"S":[{"exists":false}]}}}}`}, []string{"INSERT:b", "INSERT:c", "INSERT:d"}},
		{"empty", []string{`{"dynamodb":{"NewImage":{"note":{"S":[""]}}}}`}, []string{"INSERT:d"}},
		{"or across filters", []string{`{"eventName":["REMOVE"]}`, `{"dynamodb":{"Keys":{"id":{"S":["c"]}}}}`}, []string{"INSERT:c", "REMOVE:b"}},
		{"$or", []string{`{"$or":[{"eventName":["REMOVE"]},{"dynamodb":{"NewImage":{"qty":{"N":["5"]}}}}]}`}, []string{"INSERT:c", "REMOVE:b"}},
		{"old image", []string{`{"dynamodb":{"OldImage":{"status":{"S":["NEW"]}}}}`}, []string{"MODIFY:a", "REMOVE:b"}},
		{"nothing matches", []string{`{"eventName":["NONE"]}`}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := newHandlerEnv(t, nil)
			env.mapping(t, func(m *emulator.EventSourceMapping) { m.FilterPatterns = tc.patterns })
			env.put(t, "a", map[string]types.AttributeValue{"status": str("NEW"), "email": str("a@example.com")})
			env.put(t, "b", map[string]types.AttributeValue{"status": str("NEW")})
			env.put(t, "c", map[string]types.AttributeValue{"status": str("OPEN"), "qty": num("5")})
			env.put(t, "d", map[string]types.AttributeValue{"status": str("Paid"), "note": str("")})
			env.put(t, "a", map[string]types.AttributeValue{"status": str("PAID"), "email": str("a@example.org")})
			env.del(t, "b")
			env.drain(t)
			var got []string
			for _, iv := range env.h.invocations() {
				for _, r := range iv.Records {
					got = append(got, r.EventName+":"+r.id())
				}
			}
			want := append([]string(nil), tc.want...)
			// The records come in stream order; the cases list them by
			// kind, so compare as sets of the stream's order.
			require.ElementsMatch(t, want, got)
		})
	}
}

// TestStreamHandlerBatchSizeAndWindow: a batching window holds records
// until BatchSize of them are there (the drain ends the window).
func TestStreamHandlerBatchSizeAndWindow(t *testing.T) {
	t.Run("batch size", func(t *testing.T) {
		env := newHandlerEnv(t, nil)
		env.mapping(t, func(m *emulator.EventSourceMapping) {
			m.BatchSize = aws.Int64(2)
			m.MaximumBatchingWindowInSeconds = aws.Int64(300)
		})
		for _, id := range []string{"a", "b", "c", "d", "e"} {
			env.put(t, id, nil)
		}
		env.drain(t)
		require.Equal(t, [][]string{{"a", "b"}, {"c", "d"}, {"e"}}, env.h.batches())
	})
	t.Run("window", func(t *testing.T) {
		env := newHandlerEnv(t, nil)
		env.mapping(t, func(m *emulator.EventSourceMapping) { m.MaximumBatchingWindowInSeconds = aws.Int64(300) })
		for _, id := range []string{"a", "b", "c", "d", "e"} {
			env.put(t, id, nil)
		}
		env.drain(t)
		require.Equal(t, [][]string{{"a", "b", "c", "d", "e"}}, env.h.batches())
	})
	t.Run("filtered records do not count", func(t *testing.T) {
		env := newHandlerEnv(t, nil)
		env.mapping(t, func(m *emulator.EventSourceMapping) {
			m.BatchSize = aws.Int64(2)
			m.MaximumBatchingWindowInSeconds = aws.Int64(300)
			m.FilterPatterns = []string{`{"dynamodb":{"Keys":{"id":{"S":[{"anything-but":["b","c"]}]}}}}`}
		})
		for _, id := range []string{"a", "b", "c", "d", "e"} {
			env.put(t, id, nil)
		}
		env.drain(t)
		require.Equal(t, [][]string{{"a", "d"}, {"e"}}, env.h.batches())
	})
}

// TestStreamHandlerBisect: a failed batch is split in two and each half
// retried; splitting does not count towards MaximumRetryAttempts, so the
// bad record alone is retried once more, then discarded.
func TestStreamHandlerBisect(t *testing.T) {
	env := newHandlerEnv(t, failOn("bad"))
	id := env.mapping(t, func(m *emulator.EventSourceMapping) {
		m.BatchSize = aws.Int64(4)
		m.MaximumBatchingWindowInSeconds = aws.Int64(300)
		m.BisectBatchOnFunctionError = aws.Bool(true)
		m.MaximumRetryAttempts = aws.Int64(1)
	})
	for _, id := range []string{"a", "b", "bad", "c"} {
		env.put(t, id, nil)
	}
	env.drain(t)
	require.Equal(t, [][]string{{"a", "b", "bad", "c"}, {"a", "b"}, {"bad", "c"}, {"bad"}, {"bad"}, {"c"}}, env.h.batches())
	fails, err := env.e.Streams().Failures(id)
	require.NoError(t, err)
	require.Len(t, fails, 1)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(fails[0], &doc))
	info := doc["DDBStreamBatchInfo"].(map[string]any)
	require.EqualValues(t, 1, info["batchSize"])
	require.Equal(t, "RetryAttemptsExhausted", doc["requestContext"].(map[string]any)["condition"])
	require.EqualValues(t, 2, doc["requestContext"].(map[string]any)["approximateInvokeCount"])
}

// TestStreamHandlerPartialBatchFailure: with ReportBatchItemFailures the
// retry starts at the failed record of lowest sequence number, the first
// record included; an empty itemIdentifier, or an answer that is not
// JSON, fails the whole batch; an empty list is a success.
func TestStreamHandlerPartialBatchFailure(t *testing.T) {
	seqOf := func(iv invocation, id string) string {
		for _, r := range iv.Records {
			if r.id() == id {
				return r.Dynamodb.SequenceNumber
			}
		}
		return "missing"
	}
	cases := []struct {
		name  string
		first func(iv invocation) string
		want  [][]string
	}{
		{"restart at the lowest failed record", func(iv invocation) string {
			return `{"batchItemFailures":[{"itemIdentifier":"` + seqOf(iv, "d") + `"},{"itemIdentifier":"` + seqOf(iv, "c") + `"}]}`
		}, [][]string{{"a", "b", "c", "d", "e"}, {"c", "d", "e"}}},
		{"an empty itemIdentifier fails the batch", func(invocation) string {
			return `{"batchItemFailures":[{"itemIdentifier":""}]}`
		}, [][]string{{"a", "b", "c", "d", "e"}, {"a", "b", "c", "d", "e"}}},
		{"the first record: retried whole", func(iv invocation) string {
			return `{"batchItemFailures":[{"itemIdentifier":"` + seqOf(iv, "a") + `"}]}`
		}, [][]string{{"a", "b", "c", "d", "e"}, {"a", "b", "c", "d", "e"}}},
		{"not JSON fails the batch", func(invocation) string { return `done` }, [][]string{{"a", "b", "c", "d", "e"}, {"a", "b", "c", "d", "e"}}},
		{"an empty list is a success", func(invocation) string { return `{"batchItemFailures":[]}` }, [][]string{{"a", "b", "c", "d", "e"}}},
		{"a null answer is a success", func(invocation) string { return `null` }, [][]string{{"a", "b", "c", "d", "e"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := newHandlerEnv(t, func(n int, iv invocation) reply {
				if n == 0 {
					return reply{body: tc.first(iv)}
				}
				return reply{body: `{"batchItemFailures":[]}`}
			})
			env.mapping(t, func(m *emulator.EventSourceMapping) {
				m.MaximumBatchingWindowInSeconds = aws.Int64(300)
				m.FunctionResponseTypes = []string{"ReportBatchItemFailures"}
			})
			for _, id := range []string{"a", "b", "c", "d", "e"} {
				env.put(t, id, nil)
			}
			env.drain(t)
			require.Equal(t, tc.want, env.h.batches())
		})
	}
}

// TestStreamHandlerBatchSizeOneReports: with BatchSize 1 a report always
// names the batch's first record. A record reported twice is delivered a
// third time; one reported on every try is given up on after
// MaximumRetryAttempts retries, its invocation record (functionError
// null: the function answered) sent to the destination, and the
// mapping's status counts it.
func TestStreamHandlerBatchSizeOneReports(t *testing.T) {
	for _, tc := range []struct {
		name    string
		reports int // how many tries of "a" are reported (-1: all)
		calls   int
		discard int
	}{
		{"reported twice", 2, 3, 0},
		{"reported on every try", -1, 3, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tries int
			env := newHandlerEnv(t, func(_ int, iv invocation) reply {
				if iv.ids()[0] != "a" {
					return reply{body: `{"batchItemFailures":[]}`}
				}
				tries++
				if tc.reports < 0 || tries <= tc.reports {
					return reply{body: `{"batchItemFailures":[{"itemIdentifier":"` + iv.Records[0].Dynamodb.SequenceNumber + `"}]}`}
				}
				return reply{body: `{"batchItemFailures":[]}`}
			})
			id := env.mapping(t, func(m *emulator.EventSourceMapping) {
				m.BatchSize = aws.Int64(1)
				m.FunctionResponseTypes = []string{"ReportBatchItemFailures"}
				m.MaximumRetryAttempts = aws.Int64(2)
				m.OnFailureDestination = aws.String(env.h.url + "/failures")
			})
			env.put(t, "a", nil)
			env.put(t, "b", nil)
			env.drain(t)
			want := make([][]string, tc.calls, tc.calls+1)
			for i := range want {
				want[i] = []string{"a"}
			}
			require.Equal(t, append(want, []string{"b"}), env.h.batches())
			docs := env.h.failureDocs()
			require.Len(t, docs, tc.discard)
			var st emulator.EventSourceMappingStatus
			for _, s := range env.e.Streams().Mappings() {
				if s.UUID == id {
					st = s
				}
			}
			require.EqualValues(t, tc.discard, st.Discarded)
			if tc.discard == 0 {
				return
			}
			rc := docs[0]["responseContext"].(map[string]any)
			require.Contains(t, rc, "functionError")
			require.Nil(t, rc["functionError"])
			require.EqualValues(t, 3, docs[0]["requestContext"].(map[string]any)["approximateInvokeCount"])
			require.Equal(t, env.h.invocations()[0].Records[0].Dynamodb.SequenceNumber,
				docs[0]["DDBStreamBatchInfo"].(map[string]any)["startSequenceNumber"])
			require.Contains(t, st.LastError, "RetryAttemptsExhausted")
		})
	}
}

// TestStreamHandlerRetriesThenOnFailure: a function error (HTTP 200 with
// X-Amz-Function-Error, or a non-2xx answer) is retried
// MaximumRetryAttempts times, then the batch's invocation record goes to
// the on-failure destination and the mapping goes on.
func TestStreamHandlerRetriesThenOnFailure(t *testing.T) {
	for _, tc := range []struct {
		name      string
		rep       reply
		funcError string
	}{
		{"function error", reply{funcError: "Unhandled", body: `{"errorMessage":"boom"}`}, "Unhandled"},
		{"HTTP 500", reply{status: 500, body: `oops`}, "Unhandled"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := newHandlerEnv(t, func(_ int, iv invocation) reply {
				if iv.ids()[0] == "bad" {
					return tc.rep
				}
				return reply{}
			})
			env.mapping(t, func(m *emulator.EventSourceMapping) {
				m.MaximumRetryAttempts = aws.Int64(2)
				m.OnFailureDestination = aws.String(env.h.url + "/failures")
				m.BatchSize = aws.Int64(1)
			})
			env.put(t, "bad", nil)
			env.put(t, "good", nil)
			env.drain(t)
			require.Equal(t, [][]string{{"bad"}, {"bad"}, {"bad"}, {"good"}}, env.h.batches())
			docs := env.h.failureDocs()
			require.Len(t, docs, 1)
			doc := docs[0]
			seq := env.h.invocations()[0].Records[0].Dynamodb.SequenceNumber
			rc := doc["requestContext"].(map[string]any)
			require.Equal(t, "RetryAttemptsExhausted", rc["condition"])
			require.EqualValues(t, 3, rc["approximateInvokeCount"])
			require.Equal(t, "arn:aws:lambda:us-east-1:"+strings.Split(env.arn, ":")[4]+":function:fn", rc["functionArn"])
			require.NotEmpty(t, rc["requestId"])
			resp := doc["responseContext"].(map[string]any)
			require.Equal(t, tc.funcError, resp["functionError"])
			require.Equal(t, "$LATEST", resp["executedVersion"])
			require.EqualValues(t, max(tc.rep.status, 200), resp["statusCode"])
			require.Equal(t, "1.0", doc["version"])
			_, err := time.Parse("2006-01-02T15:04:05.000Z", doc["timestamp"].(string)) // milliseconds, as the guide's example
			require.NoError(t, err)
			info := doc["DDBStreamBatchInfo"].(map[string]any)
			require.Equal(t, seq, info["startSequenceNumber"])
			require.Equal(t, seq, info["endSequenceNumber"])
			require.EqualValues(t, 1, info["batchSize"])
			require.Equal(t, env.arn, info["streamArn"])
			require.True(t, strings.HasPrefix(info["shardId"].(string), "shardId-"), info["shardId"])
			_, err = time.Parse("2006-01-02T15:04:05Z", info["approximateArrivalOfFirstRecord"].(string)) // seconds, as the guide's example
			require.NoError(t, err)
			require.Equal(t, info["approximateArrivalOfFirstRecord"], info["approximateArrivalOfLastRecord"])
		})
	}
}

// TestStreamHandlerOnFailureFile: a file:// destination in the
// directory Options.StreamHandlerFileDir names gets each invocation
// record as a line.
func TestStreamHandlerOnFailureFile(t *testing.T) {
	dir := t.TempDir()
	env := newHandlerEnvWith(t, emulator.Options{StreamHandlerFileDir: dir}, failOn("x"))
	path := filepath.Join(dir, "failures.jsonl")
	env.mapping(t, func(m *emulator.EventSourceMapping) {
		m.MaximumRetryAttempts = aws.Int64(0)
		m.OnFailureDestination = aws.String("file://" + path)
	})
	env.put(t, "x", nil)
	env.drain(t)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	require.Len(t, lines, 1)
	require.Contains(t, lines[0], `"condition":"RetryAttemptsExhausted"`)
}

// TestStreamHandlerRecordAge: a record older than
// MaximumRecordAgeInSeconds (by the emulator's clock) is discarded:
// not sent to a function that has not seen it, and given up on by one
// that keeps failing.
func TestStreamHandlerRecordAge(t *testing.T) {
	t.Run("never sent", func(t *testing.T) {
		env := newHandlerEnv(t, nil)
		id := env.mapping(t, func(m *emulator.EventSourceMapping) {
			m.Enabled = aws.Bool(false)
			m.MaximumRecordAgeInSeconds = aws.Int64(60)
		})
		env.put(t, "old", nil)
		_, err := env.e.Clock().Advance(2 * time.Minute)
		require.NoError(t, err)
		env.put(t, "new", nil)
		require.NoError(t, env.e.Streams().UpdateMapping(id, emulator.EventSourceMapping{Enabled: aws.Bool(true)}))
		env.drain(t)
		require.Equal(t, []string{"new"}, env.h.delivered())
		fails, err := env.e.Streams().Failures(id)
		require.NoError(t, err)
		require.Len(t, fails, 1)
		require.Contains(t, string(fails[0]), `"condition":"RecordAgeExceeded"`)
		require.Contains(t, string(fails[0]), `"approximateInvokeCount":0`)
	})
	t.Run("given up on while retried", func(t *testing.T) {
		env := newHandlerEnv(t, failOn("x"))
		env.h.called = make(chan struct{}, 1)
		id := env.mapping(t, func(m *emulator.EventSourceMapping) { m.MaximumRecordAgeInSeconds = aws.Int64(60) })
		env.put(t, "x", nil)
		<-env.h.called // failed once; retried without end (MaximumRetryAttempts -1)
		_, err := env.e.Clock().Advance(2 * time.Minute)
		require.NoError(t, err)
		env.drain(t)
		fails, err := env.e.Streams().Failures(id)
		require.NoError(t, err)
		require.Len(t, fails, 1)
		require.Contains(t, string(fails[0]), `"condition":"RecordAgeExceeded"`)
	})
}

// TestStreamHandlerStartingPosition: LATEST skips the records written
// before the mapping; TRIM_HORIZON starts at the oldest.
func TestStreamHandlerStartingPosition(t *testing.T) {
	for pos, want := range map[string][]string{"LATEST": {"after"}, "TRIM_HORIZON": {"before", "after"}} {
		t.Run(pos, func(t *testing.T) {
			env := newHandlerEnv(t, nil)
			env.put(t, "before", nil)
			env.mapping(t, func(m *emulator.EventSourceMapping) { m.StartingPosition = aws.String(pos) })
			env.put(t, "after", nil)
			env.drain(t)
			require.Equal(t, want, env.h.delivered())
		})
	}
}

// TestStreamHandlerOrderPerShard: 8 writers at once; every record is
// delivered once, and each item's writes in the order they were made
// (with one lane, the whole shard's order; with a ParallelizationFactor,
// each partition key's).
func TestStreamHandlerOrderPerShard(t *testing.T) {
	for _, factor := range []int64{1, 4} {
		t.Run("parallelization "+strconv.FormatInt(factor, 10), func(t *testing.T) {
			env := newHandlerEnv(t, nil)
			env.mapping(t, func(m *emulator.EventSourceMapping) {
				m.BatchSize = aws.Int64(7)
				m.ParallelizationFactor = aws.Int64(factor)
			})
			const writers, perWriter = 8, 40
			var wg sync.WaitGroup
			for w := range writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range perWriter {
						_, err := env.db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("orders"),
							Item: map[string]types.AttributeValue{"id": str("w" + strconv.Itoa(w)), "n": num(strconv.Itoa(i))}})
						require.NoError(t, err)
					}
				}()
			}
			wg.Wait()
			env.drain(t)
			next := map[string]int{}
			var lastSeq uint64
			total := 0
			for _, iv := range env.h.invocations() {
				require.LessOrEqual(t, len(iv.Records), 7)
				for _, r := range iv.Records {
					n, err := strconv.Atoi(r.Dynamodb.NewImage["n"]["N"].(string))
					require.NoError(t, err)
					require.Equal(t, next[r.id()], n, "item %s out of order", r.id())
					next[r.id()]++
					seq, err := strconv.ParseUint(r.Dynamodb.SequenceNumber, 10, 64)
					require.NoError(t, err)
					if factor == 1 {
						require.Greater(t, seq, lastSeq)
					}
					lastSeq = seq
					total++
				}
			}
			require.Equal(t, writers*perWriter, total)
		})
	}
}

// TestStreamHandlerDrainTimeout: a drain that cannot finish names the
// stuck mapping, its function and its last error.
func TestStreamHandlerDrainTimeout(t *testing.T) {
	env := newHandlerEnv(t, failOn("x"))
	id := env.mapping(t, nil)
	env.put(t, "x", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	err := env.e.Streams().Drain(ctx)
	require.Error(t, err)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Contains(t, err.Error(), id)
	require.Contains(t, err.Error(), "function fn")
	require.Contains(t, err.Error(), "bad record x")
}

// TestStreamHandlerTableName: a mapping by table name, made before the
// table, takes the table's stream once it exists.
func TestStreamHandlerTableName(t *testing.T) {
	e, db := emulatortest.NewWith(t, emulator.Options{})
	h := newHandlerServer(t, nil)
	e.Streams().SetLambdaEndpoint(h.url)
	_, err := e.Streams().CreateMapping(emulator.EventSourceMapping{TableName: aws.String("later"), FunctionName: aws.String("fn"),
		StartingPosition: aws.String("LATEST")})
	require.NoError(t, err)
	require.NoError(t, e.Streams().Drain(context.Background()))
	ctx := context.Background()
	_, err = db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("later"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage},
	})
	require.NoError(t, err)
	_, err = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("later"), Item: map[string]types.AttributeValue{"id": str("first")}})
	require.NoError(t, err)
	require.NoError(t, e.Streams().Drain(ctx))
	require.Equal(t, []string{"first"}, h.delivered())
}

// TestStreamHandlerMappingsFile: a mappings file sets the Lambda
// endpoint and makes its mappings; a TableName mapping written before
// the table exists takes its stream, and its filter applies.
func TestStreamHandlerMappingsFile(t *testing.T) {
	e, db := emulatortest.NewWith(t, emulator.Options{})
	h := newHandlerServer(t, nil)
	path := filepath.Join(t.TempDir(), "mappings.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"lambdaEndpoint":"`+h.url+`","mappings":[{"TableName":"tasks-command",
		"FunctionName":"sync","StartingPosition":"LATEST","MaximumRetryAttempts":10,
		"FilterCriteria":{"Filters":[{"Pattern":"{\"eventName\":[\"INSERT\"]}"}]}}]}`), 0o600))
	require.NoError(t, e.Streams().LoadMappings(path))
	ctx := context.Background()
	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("tasks-command"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage},
	})
	require.NoError(t, err)
	for _, v := range []string{"1", "2"} { // an INSERT, then a MODIFY the filter drops
		_, err = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tasks-command"),
			Item: map[string]types.AttributeValue{"id": str("t1"), "v": num(v)}})
		require.NoError(t, err)
	}
	require.NoError(t, e.Streams().Drain(ctx))
	calls := h.invocations()
	require.Len(t, calls, 1)
	require.Equal(t, "/2015-03-31/functions/sync/invocations", calls[0].Path)
	require.Equal(t, []string{"t1"}, calls[0].ids())
	require.Equal(t, "INSERT", calls[0].Records[0].EventName)
	st := e.Streams().Mappings()
	require.Len(t, st, 1)
	require.EqualValues(t, 1, st[0].Filtered)
}
