package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/internal/capture"
)

// What a capture says about the upstream, the pace and the clients is
// never a departure of the emulator's: each test records through the
// recorder, replays through "dynamoemu replay" (run) and checks that
// only a planted wrong answer is named.

// retryingClients are clients that retry as an SDK does by default
// (5 tries), without waiting between tries.
func retryingClients(endpoint string) (*dynamodb.Client, *dynamodbstreams.Client) {
	creds := credentials.NewStaticCredentialsProvider("AKIDCLIENTSIDE", clientSecret, "")
	retryer := func() aws.Retryer {
		return retry.NewStandard(func(o *retry.StandardOptions) {
			o.MaxAttempts = 5
			o.Backoff = retry.BackoffDelayerFunc(func(int, error) (time.Duration, error) { return 0, nil })
			o.RateLimiter = noLimit{}
		})
	}
	db := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(endpoint), Credentials: creds, Retryer: retryer()})
	st := dynamodbstreams.New(dynamodbstreams.Options{Region: "us-east-1", BaseEndpoint: aws.String(endpoint), Credentials: creds, Retryer: retryer()})
	return db, st
}

// noLimit is a retry token bucket that never runs dry.
type noLimit struct{}

func (noLimit) GetToken(context.Context, uint) (func() error, error) {
	return func() error { return nil }, nil
}
func (noLimit) AddTokens(uint) error { return nil }

// replayCmd runs "dynamoemu replay -json ARGS" and returns its result
// and error.
func replayCmd(t *testing.T, args ...string) (replayJSON, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	err := run(ctx, append([]string{"replay", "-json"}, args...), &out, &errOut)
	var res replayJSON
	require.NoError(t, json.Unmarshal(out.Bytes(), &res), "%s\n%s", out.String(), errOut.String())
	return res, err
}

// replayJSON is what the tests read of -json.
type replayJSON struct {
	Summary struct {
		Exchanges, Sent, Compared, Departures, Skipped int
		Paired                                         int `json:"pairedOutOfOrder"`
		ByKind                                         map[string]int
	} `json:"summary"`
	Departures []struct {
		Target, Kind string
		Line         int
		Diffs        []struct {
			Path               string
			Recorded, Replayed json.RawMessage
		}
	} `json:"departures"`
	Ended, Stopped string
}

func TestFlakyUpstreamIsNotADeparture(t *testing.T) {
	upstream, _ := emulatorUpstream(t)
	u, err := url.Parse(upstream)
	require.NoError(t, err)
	proxy := httputil.NewSingleHostReverseProxy(u)
	var n atomic.Int32
	flaky := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Every third request fails as an upstream under strain does,
		// before reaching it: 500 or throttled; the SDK's retry passes.
		switch n.Add(1) % 6 {
		case 0:
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = io.WriteString(w, `{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"Internal server error"}`)
		case 3:
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"Rate of requests exceeds the allowed throughput."}`)
		default:
			proxy.ServeHTTP(w, r)
		}
	}))
	defer flaky.Close()
	url, path, rec := startRecorder(t, flaky.URL, "rec1-")
	db, st := retryingClients(url)
	runSession(t, db, st, "rec1-")
	rec.flushAll()

	f, err := capture.ReadFile(path)
	require.NoError(t, err)
	retried := 0
	for _, e := range f.Exchanges {
		require.Empty(t, e.Upstream, "line %d: every call succeeded in the end", e.Line)
		require.NotEqual(t, 500, e.Status)
		retried += len(e.Retries)
	}
	require.Greater(t, retried, 10, "the failed tries are written as retries of their call")

	res, err := replayCmd(t, path)
	require.NoError(t, err, "%+v", res)
	require.Zero(t, res.Summary.Departures)
	require.Equal(t, len(f.Exchanges), res.Summary.Sent, "each call sent once")

	// A wrong answer of the emulator's is still named.
	target, e := emulatorUpstream(t)
	emulatortest.Inject(t, e, emulator.FaultRule{Operations: []string{"Query"}, Count: 1, Fault: emulator.FaultInternalServerError})
	res, err = replayCmd(t, "-endpoint", target, path)
	require.ErrorIs(t, err, errDepartures)
	require.Len(t, res.Departures, 1)
	require.Equal(t, "DynamoDB_20120810.Query", res.Departures[0].Target)
	require.Equal(t, "behaviour", res.Departures[0].Kind)
}

func TestUpstreamKilledMidSession(t *testing.T) {
	upstream := httptest.NewServer(nil)
	e, err := emulator.New(emulator.Options{})
	require.NoError(t, err)
	defer e.Close()
	upstream.Config.Handler = e.Handler()
	var log bytes.Buffer
	var logMu sync.Mutex
	r, err := newRecorder(recorderOptions{Upstream: upstream.URL, Prefix: "rec1-",
		Credentials: credentials.NewStaticCredentialsProvider(recordKeyID, recordSecret, ""), Log: lockedWriter{&logMu, &log}})
	require.NoError(t, err)
	path := t.TempDir() + "/killed.jsonl"
	out, err := os.Create(path)
	require.NoError(t, err)
	defer out.Close()
	require.NoError(t, r.start(out))
	srv := httptest.NewServer(r)
	defer srv.Close()
	db, _ := retryingClients(srv.URL)
	ctx := context.Background()
	_, err = db.CreateTable(ctx, createInput("rec1-t"))
	require.NoError(t, err)
	for i := range 5 {
		_, err = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("rec1-t"), Item: map[string]types.AttributeValue{"pk": s(fmt.Sprint(i))}})
		require.NoError(t, err)
	}
	upstream.Close() // the upstream dies
	for i := range 3 {
		_, err = db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("rec1-t"), Key: map[string]types.AttributeValue{"pk": s(fmt.Sprint(i))}})
		require.Error(t, err)
	}
	r.flushAll()
	logMu.Lock()
	require.Contains(t, log.String(), "the upstream is unreachable")
	require.Contains(t, log.String(), "written as the upstream's failure: unreachable")
	logMu.Unlock()

	f, err := capture.ReadFile(path)
	require.NoError(t, err)
	for _, x := range f.Exchanges {
		t.Logf("%d %s %d %q %d", x.Line, x.Target, x.Status, x.Upstream, len(x.Retries))
	}
	require.Len(t, f.Exchanges, 9, "CreateTable, 5 PutItems, 3 GetItems each written once")
	for _, x := range f.Exchanges[6:] {
		require.True(t, x.Unreachable(), "line %d", x.Line)
		require.Len(t, x.Retries, 4, "the SDK's 4 retries")
	}
	res, err := replayCmd(t, path)
	require.NoError(t, err, "%+v", res)
	require.Zero(t, res.Summary.Departures)
	require.Equal(t, 6, res.Summary.Sent)
	require.Contains(t, res.Ended, "could not reach the upstream")
	require.Contains(t, res.Ended, ":8: exchange 7")
}

// lockedWriter serialises writes to w.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func TestPrefixInDataIsNotRewritten(t *testing.T) {
	upstream, _ := emulatorUpstream(t)
	url, path, _ := startRecorder(t, upstream, "ord")
	db, _ := clients(url)
	ctx := context.Background()
	in := createInput("ordt")
	in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS})
	in.KeySchema = append(in.KeySchema, types.KeySchemaElement{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange})
	_, err := db.CreateTable(ctx, in)
	require.NoError(t, err)
	// Sort keys that hold the prefix: rewritten, they would sort and
	// weigh otherwise.
	for _, sk := range []string{"ord", "ordinal", "b-ord", "cord", "aaa", "zzz-ordt"} {
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("ordt"), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
			Item: map[string]types.AttributeValue{"pk": s("order"), "sk": s(sk), "note": s(strings.Repeat("ord", 300))}})
		require.NoError(t, err)
	}
	_, err = db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("ordt"), KeyConditionExpression: aws.String("pk = :p"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("order")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	require.NoError(t, err)
	_, err = db.ExecuteStatement(ctx, statement(`SELECT sk FROM "ordt" WHERE pk = 'order' AND sk = 'ordinal'`))
	require.NoError(t, err)
	_, err = db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("ordt")})
	require.NoError(t, err)
	_, err = db.DeleteTable(ctx, deleteInput("ordt"))
	require.NoError(t, err)

	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Contains(t, string(raw), `"sk":{"S":"cord"}`, "item data is written as it was")
	require.Contains(t, string(raw), `"TableName":"${prefix}t"`)
	// Replayed with the same length and with a longer prefix: no departure.
	for _, args := range [][]string{{path}, {"-tablePrefix", "a-much-longer-prefix-", path}} {
		res, err := replayCmd(t, args...)
		require.NoError(t, err, "%+v", res)
		require.Zero(t, res.Summary.Departures)
	}
}

func TestParallelClientsOnOneCounter(t *testing.T) {
	upstream, _ := emulatorUpstream(t)
	url, path, _ := startRecorder(t, upstream, "rec1-")
	ctx := context.Background()
	db0, _ := clients(url)
	_, err := db0.CreateTable(ctx, createInput("rec1-counter"))
	require.NoError(t, err)
	const clientsN, each = 8, 20
	var wg sync.WaitGroup
	for range clientsN {
		db, _ := clients(url) // a client of its own: its own connections
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("rec1-counter"),
					Key: map[string]types.AttributeValue{"pk": s("hits")}, UpdateExpression: aws.String("ADD n :one"),
					ExpressionAttributeValues: map[string]types.AttributeValue{":one": n(1)}, ReturnValues: types.ReturnValueUpdatedNew})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	got, err := db0.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("rec1-counter"), Key: map[string]types.AttributeValue{"pk": s("hits")}, ConsistentRead: aws.Bool(true)})
	require.NoError(t, err)
	require.Equal(t, n(clientsN*each), got.Item["n"])

	f, err := capture.ReadFile(path)
	require.NoError(t, err)
	overlapped := 0
	for _, e := range f.Exchanges {
		if e.Overlap > 0 {
			overlapped++
			require.NotEmpty(t, e.Client)
		}
	}
	require.Greater(t, overlapped, clientsN, "the parallel updates are marked as overlapping")
	res, err := replayCmd(t, path)
	require.NoError(t, err, "%+v", res)
	require.Zero(t, res.Summary.Departures)
	require.Equal(t, clientsN*each+2, res.Summary.Compared)

	// A wrong answer among the parallel ones is still named.
	target, e := emulatorUpstream(t)
	emulatortest.Inject(t, e, emulator.FaultRule{Operations: []string{"UpdateItem"}, Count: 1, Fault: emulator.FaultInternalServerError})
	res, err = replayCmd(t, "-endpoint", target, path)
	require.ErrorIs(t, err, errDepartures)
	// The failed update departs, and the count it left one short.
	var targets []string
	for _, d := range res.Departures {
		targets = append(targets, d.Target)
	}
	require.Equal(t, "DynamoDB_20120810.UpdateItem", targets[0])
	require.Equal(t, "DynamoDB_20120810.GetItem", targets[len(targets)-1])
	require.Equal(t, "behaviour", res.Departures[0].Kind)
}

func TestLongIdleGapAndStableRecordings(t *testing.T) {
	var captures [2][]string
	for i := range captures {
		upstream, _ := emulatorUpstream(t)
		captures[i] = strings.Split(string(must(os.ReadFile(recordSession(t, upstream)))), "\n")
	}
	require.Equal(t, captures[0][1:], captures[1][1:], "two recordings of one session write the same lines (the header names the upstream)")

	// A recorder left running between two sessions: a wait of 10 minutes.
	lines := captures[0]
	lines[10] = strings.Replace(lines[10], `"response":`, `"afterMs":600000,"response":`, 1)
	path := t.TempDir() + "/idle.jsonl"
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644))
	res, err := replayCmd(t, path) // within replayCmd's 2 minutes: the wait is cut to 1 s
	require.NoError(t, err, "%+v", res)
	require.Zero(t, res.Summary.Departures)
	require.Empty(t, res.Stopped)
}
