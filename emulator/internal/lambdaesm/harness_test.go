package lambdaesm

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamrec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// The feature in use in this package's tests, as the emulator uses it.
var testFeatures = []service.Feature{Feature{}}

// The package's tests run the feature on a service of its own (a test
// clock, tables made through the DynamoDB API as a client makes them)
// with Go functions that record what they are sent: the path a user's
// handler takes, without the HTTP of the Invoke API (api_test.go and
// invoke_test.go take that one).

// esmEnv is a service with the table "tbl" (key "id", S; a stream of new
// and old images) and its Manager, whose retries wait a millisecond.
type esmEnv struct {
	*servicetest.Env
	m   *Manager
	arn string // the table's stream
}

func newESMEnv(t *testing.T) *esmEnv {
	t.Helper()
	made := new(streamlog.Signal) // as the emulator hands it to the service and the Manager
	e := servicetest.New(t, service.Config{Features: testFeatures, Streams: streamrec.Options{Changes: made}})
	e.Must("CreateTable", `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],
		"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}}`)
	var d struct {
		Table struct{ LatestStreamArn string }
	}
	testkit.MustUnmarshal(t, e.Must("DescribeTable", `{"TableName":"tbl"}`), &d)
	m := Of(e.Svc)
	m.SetStreamChanges(made)
	m.SetRetryBackoff(time.Millisecond)
	t.Cleanup(m.Close)
	return &esmEnv{Env: e, m: m, arn: d.Table.LatestStreamArn}
}

// stream is the table's stream.
func (e *esmEnv) stream() service.Stream {
	e.T.Helper()
	s, ok := e.m.findStream(e.arn, e.Clock.Now())
	require.True(e.T, ok)
	return s
}

// put writes the item id with the extra attributes attrs (DynamoDB JSON
// members, "" for none).
func (e *esmEnv) put(id, attrs string) {
	e.T.Helper()
	item := `{"id":{"S":` + strconv.Quote(id) + `}`
	if attrs != "" {
		item += "," + attrs
	}
	e.Must("PutItem", `{"TableName":"tbl","Item":`+item+`}}`)
}

// puts writes the items ids, one a second of the test clock apart
// from the second after now (so each record has an age of its own).
func (e *esmEnv) puts(ids ...string) {
	e.T.Helper()
	for _, id := range ids {
		e.Clock.Advance(time.Second)
		e.put(id, "")
	}
}

// spec is a mapping of the table's stream to function fn from
// TRIM_HORIZON, edited by edit.
func (e *esmEnv) spec(edit func(s *Spec)) *Spec {
	s := &Spec{EventSourceArn: ptr(e.arn), FunctionName: ptr("fn"), StartingPosition: ptr(posTrimHorizon)}
	if edit != nil {
		edit(s)
	}
	return s
}

// create makes the mapping spec(edit) and returns its UUID.
func (e *esmEnv) create(edit func(s *Spec)) string {
	e.T.Helper()
	c, err := e.m.Create(e.spec(edit))
	require.NoError(e.T, err)
	return c.UUID
}

// enable turns the mapping uuid on (a test writes its records first,
// with the mapping disabled, so that the batches are what BatchSize
// makes of them).
func (e *esmEnv) enable(uuid string) {
	e.T.Helper()
	_, err := e.m.Update(uuid, &Spec{Enabled: ptr(true)})
	require.NoError(e.T, err)
}

// drain waits until every mapping handled every record written so far;
// the bound only catches a hang.
func (e *esmEnv) drain() {
	e.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), scaled(time.Minute))
	defer cancel()
	require.NoError(e.T, e.m.Drain(ctx))
}

// status is the mapping uuid's status.
func (e *esmEnv) status(uuid string) Status {
	e.T.Helper()
	for _, s := range e.m.Statuses() {
		if s.UUID == uuid {
			return s
		}
	}
	e.T.Fatalf("no mapping %s", uuid)
	return Status{}
}

// failures are the mapping uuid's invocation records, decoded.
func (e *esmEnv) failures(uuid string) []failureDoc {
	e.T.Helper()
	raw, err := e.m.Failures(uuid)
	require.NoError(e.T, err)
	out := make([]failureDoc, len(raw))
	for i, b := range raw {
		require.NoError(e.T, json.Unmarshal(b, &out[i]), string(b))
	}
	return out
}

// failureDoc is an invocation record as a destination reads it.
type failureDoc struct {
	RequestContext struct {
		RequestID              string `json:"requestId"`
		FunctionArn            string `json:"functionArn"`
		Condition              string `json:"condition"`
		ApproximateInvokeCount int    `json:"approximateInvokeCount"`
	} `json:"requestContext"`
	ResponseContext *struct {
		StatusCode      int     `json:"statusCode"`
		ExecutedVersion string  `json:"executedVersion"`
		FunctionError   *string `json:"functionError"`
	} `json:"responseContext"`
	Version            string `json:"version"`
	Timestamp          string `json:"timestamp"`
	DDBStreamBatchInfo struct {
		ShardID                         string `json:"shardId"`
		StartSequenceNumber             string `json:"startSequenceNumber"`
		EndSequenceNumber               string `json:"endSequenceNumber"`
		ApproximateArrivalOfFirstRecord string `json:"approximateArrivalOfFirstRecord"`
		ApproximateArrivalOfLastRecord  string `json:"approximateArrivalOfLastRecord"`
		BatchSize                       int    `json:"batchSize"`
		StreamArn                       string `json:"streamArn"`
	} `json:"DDBStreamBatchInfo"`
}

// event is what a function is sent, decoded: the records' ids and
// sequence numbers, and with a tumbling window the window's members.
type event struct {
	Records []struct {
		EventName string `json:"eventName"`
		Dynamodb  struct {
			Keys                        map[string]map[string]string `json:"Keys"`
			SequenceNumber              string                       `json:"SequenceNumber"`
			ApproximateCreationDateTime int64                        `json:"ApproximateCreationDateTime"`
		} `json:"dynamodb"`
		EventSourceARN string `json:"eventSourceARN"`
	}
	Window *struct {
		Start string `json:"start"`
		End   string `json:"end"`
	} `json:"window"`
	State   json.RawMessage `json:"state"`
	ShardID string          `json:"shardId"`
	Final   bool            `json:"isFinalInvokeForWindow"`
	Early   bool            `json:"isWindowTerminatedEarly"`
}

// ids are the ids of the event's records, in order.
func (ev event) ids() []string {
	out := make([]string, len(ev.Records))
	for i, r := range ev.Records {
		out[i] = r.Dynamodb.Keys["id"]["S"]
	}
	return out
}

// seq is the SequenceNumber of the event's record id ("" if none).
func (ev event) seq(id string) string {
	for _, r := range ev.Records {
		if r.Dynamodb.Keys["id"]["S"] == id {
			return r.Dynamodb.SequenceNumber
		}
	}
	return ""
}

// recorder is a function that records each event it is sent and
// answers as answer says (called with the invocation's number from 0).
type recorder struct {
	mu     sync.Mutex
	events []event
	answer func(n int, ev event) ([]byte, error)
}

// fn sets the recorder as the function "fn" of e's Manager.
func (e *esmEnv) fn(answer func(n int, ev event) ([]byte, error)) *recorder {
	r := &recorder{answer: answer}
	e.m.SetFunction("fn", r.call)
	return r
}

func (r *recorder) call(_ context.Context, payload []byte) ([]byte, error) {
	var ev event
	if err := json.Unmarshal(payload, &ev); err != nil {
		return nil, err
	}
	r.mu.Lock()
	n := len(r.events)
	r.events = append(r.events, ev)
	r.mu.Unlock()
	if r.answer == nil {
		return nil, nil
	}
	return r.answer(n, ev)
}

// batches are the ids of every invocation's records, in order.
func (r *recorder) batches() [][]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([][]string, len(r.events))
	for i, ev := range r.events {
		out[i] = ev.ids()
	}
	return out
}

// all are the events, in order.
func (r *recorder) all() []event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]event(nil), r.events...)
}

// report is a StreamsEventResponse naming the records ids of ev as
// failed.
func report(ev event, ids ...string) []byte {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = `{"itemIdentifier":` + strconv.Quote(ev.seq(id)) + `}`
	}
	return []byte(`{"batchItemFailures":[` + strings.Join(parts, ",") + `]}`)
}

// scaled is d times DYNAMOEMU_TEST_TIMEOUT_SCALE (a bound that only
// catches a hang, on a machine busier than usual).
func scaled(d time.Duration) time.Duration {
	if f, err := strconv.ParseFloat(os.Getenv("DYNAMOEMU_TEST_TIMEOUT_SCALE"), 64); err == nil && f > 0 {
		return time.Duration(float64(d) * f)
	}
	return d
}
