package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/internal/capture"
)

// The recorder's credentials in the tests: what it signs the forwarded
// requests with, and must never write.
const (
	recordKeyID  = "AKIDRECORDERTEST"
	recordSecret = "wJalrXUtnFEMI/K7MDENG/recorder+SECRET"
)

// startRecorder starts a recorder of upstream within prefix writing to
// a file in t's temporary folder; it returns the recorder's URL and the
// capture's path.
func startRecorder(t *testing.T, upstream, prefix string) (string, string, *recorder) {
	t.Helper()
	r, err := newRecorder(recorderOptions{Upstream: upstream, Prefix: prefix,
		Credentials: credentials.NewStaticCredentialsProvider(recordKeyID, recordSecret, "")})
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "session.jsonl")
	f, err := os.Create(path)
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	require.NoError(t, r.start(f))
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return srv.URL, path, r
}

// recordSession records the session against upstream and returns the
// capture's path.
func recordSession(t *testing.T, upstream string) string {
	t.Helper()
	url, path, _ := startRecorder(t, upstream, "rec1-")
	db, st := clients(url)
	sent := runSession(t, db, st, "rec1-")
	require.GreaterOrEqual(t, sent, 50, "the session's requests")
	return path
}

// emulatorUpstream starts an emulator on loopback and returns its URL.
func emulatorUpstream(t *testing.T) (string, *emulator.Emulator) {
	t.Helper()
	url, e, _ := emulatortest.NewServerWith(t, emulator.Options{})
	return url, e
}

func TestRecordEmulatorReplaysWithoutDepartures(t *testing.T) {
	upstream, _ := emulatorUpstream(t)
	path := recordSession(t, upstream)
	f, err := capture.ReadFile(path)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(f.Exchanges), 50)
	ops := map[string]bool{}
	for _, e := range f.Exchanges {
		ops[e.Operation()] = true
	}
	for _, op := range []string{"CreateTable", "PutItem", "GetItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "BatchGetItem",
		"TransactWriteItems", "TransactGetItems", "Query", "Scan", "ExecuteStatement", "BatchExecuteStatement", "ExecuteTransaction",
		"UpdateTable", "DescribeStream", "GetShardIterator", "GetRecords", "DeleteTable"} {
		require.True(t, ops[op], "the capture holds %s", op)
	}
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, l := range strings.Split(string(raw), "\n")[1:] {
		require.NotContains(t, l, "rec1-", "the prefix is written ${prefix}")
	}
	require.Contains(t, string(raw), `"TableName":"${prefix}orders"`)

	send, closeFn, err := sender("")
	require.NoError(t, err)
	defer closeFn()
	res, err := replay(context.Background(), f, send, "fresh-", nil)
	require.NoError(t, err)
	var buf bytes.Buffer
	res.writeText(&buf)
	require.Empty(t, res.Departures, buf.String())
	require.Equal(t, len(f.Exchanges), res.Sent)
	require.Equal(t, len(f.Exchanges), res.Compared)

	// The command: exit 0, its summary by operation.
	var out, errOut bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"replay", path}, &out, &errOut))
	require.Contains(t, out.String(), " 0 departures")
	require.Contains(t, out.String(), "GetRecords")
}

func TestCaptureHoldsNoCredentials(t *testing.T) {
	upstream, _ := emulatorUpstream(t)
	path := recordSession(t, upstream)
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, secret := range []string{recordSecret, recordKeyID, clientSecret, "AKIDCLIENTSIDE", "Signature=", "AWS4-HMAC-SHA256", "Credential=", "X-Amz-Date", "x-amzn-requestid"} {
		require.NotContains(t, strings.ToLower(string(raw)), strings.ToLower(secret))
	}
}

func TestReplayNamesAPlantedDeparture(t *testing.T) {
	upstream, _ := emulatorUpstream(t)
	path := recordSession(t, upstream)

	// The emulator replayed against departs: its first GetItem fails.
	target, e := emulatorUpstream(t)
	emulatortest.Inject(t, e, emulator.FaultRule{Operations: []string{"GetItem"}, Count: 1, Fault: emulator.FaultInternalServerError})
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"replay", "-endpoint", target, path}, &out, &errOut)
	require.ErrorIs(t, err, errDepartures)
	require.Equal(t, 1, exitStatus(err, io.Discard))
	text := out.String()
	require.Contains(t, text, "== behaviour: 1")
	require.Contains(t, text, "departure 1 (behaviour): "+path+":")
	require.Contains(t, text, "DynamoDB_20120810.GetItem")
	require.Contains(t, text, `request:  {"ConsistentRead":true,"Key":{"pk":{"S":"cust#1"},"sk":{"N":"1"}}`)
	require.Contains(t, text, "recorded: 200 {")
	require.Contains(t, text, "replayed: 500 {")
	require.Contains(t, text, "status: recorded 200, replayed 500")
	require.Contains(t, text, " 1 departures")

	// The same as JSON.
	out.Reset()
	emulatortest.Inject(t, e, emulator.FaultRule{Operations: []string{"GetItem"}, Count: 1, Fault: emulator.FaultInternalServerError})
	err = run(context.Background(), []string{"replay", "-json", "-endpoint", target, path}, &out, &errOut)
	require.ErrorIs(t, err, errDepartures)
	var res struct {
		Summary struct {
			Departures int            `json:"departures"`
			ByKind     map[string]int `json:"byKind"`
			Operations []opCount      `json:"operations"`
		} `json:"summary"`
		Departures []struct {
			Target, Kind       string
			Line               int
			Request            map[string]any
			Recorded, Replayed struct {
				Status int
				Body   map[string]any
			}
			Diffs []struct {
				Path               string
				Recorded, Replayed json.RawMessage
			}
		} `json:"departures"`
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &res), "bodies are JSON, not JSON text in strings")
	require.Equal(t, 1, res.Summary.Departures)
	require.Equal(t, map[string]int{"behaviour": 1}, res.Summary.ByKind)
	require.Len(t, res.Departures, 1)
	d := res.Departures[0]
	require.Equal(t, "DynamoDB_20120810.GetItem", d.Target)
	require.Equal(t, "behaviour", d.Kind)
	require.Positive(t, d.Line)
	require.Equal(t, true, d.Request["ConsistentRead"])
	require.Equal(t, 200, d.Recorded.Status)
	require.Equal(t, 500, d.Replayed.Status)
	require.Contains(t, d.Replayed.Body["__type"], "InternalServerError")
	require.Equal(t, "status", d.Diffs[0].Path)
	require.JSONEq(t, "200", string(d.Diffs[0].Recorded))
	require.JSONEq(t, "500", string(d.Diffs[0].Replayed))
	for _, o := range res.Summary.Operations {
		if o.Operation == "GetItem" {
			require.Equal(t, 1, o.Departures)
		} else {
			require.Zero(t, o.Departures, o.Operation)
		}
	}
}

func TestReplayIgnoresNamedFields(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(`{"capture":"dynamoemu","version":1,"tablePrefix":"p-"}
{"seq":1,"target":"DynamoDB_20120810.CreateTable","request":{"TableName":"${prefix}t","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"k","AttributeType":"S"}],"KeySchema":[{"AttributeName":"k","KeyType":"HASH"}]},"status":200,"response":{},"check":false}
{"seq":2,"target":"DynamoDB_20120810.PutItem","request":{"TableName":"${prefix}t","Item":{"k":{"S":"a"}},"ReturnConsumedCapacity":"TOTAL"},"status":200,"response":{"ConsumedCapacity":{"TableName":"${prefix}t","CapacityUnits":5}}}
`), 0o644))
	var out bytes.Buffer
	err := run(context.Background(), []string{"replay", path}, &out, io.Discard)
	require.ErrorIs(t, err, errDepartures)
	require.Contains(t, out.String(), "ConsumedCapacity.CapacityUnits: recorded 5, replayed 1")
	out.Reset()
	require.NoError(t, run(context.Background(), []string{"replay", "-ignore", "ConsumedCapacity.CapacityUnits", path}, &out, io.Discard))
	require.Contains(t, out.String(), "2 sent, 1 compared, 0 departures")
}

func TestReplayRefusesACorruptLine(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "c.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(`{"capture":"dynamoemu","version":1}
{"seq":1,"target":"DynamoDB_20120810.ListTables","request":{},"status":200,"response":{"TableNames":[]}}
{"seq":2,"target":"DynamoDB_20120810.ListTables","request":{},"status":200,"response":{"TableNames":[]
`), 0o644))
	err := run(context.Background(), []string{"replay", "-endpoint", srv.URL, path}, io.Discard, io.Discard)
	require.Error(t, err)
	require.Contains(t, err.Error(), path+":3: not a JSON object")
	require.Equal(t, 2, exitStatus(err, io.Discard))
	require.Zero(t, hits.Load(), "nothing of a file that fails to read is replayed")

	require.NoError(t, os.WriteFile(path, []byte(`{"capture":"dynamoemu","version":7}`+"\n"), 0o644))
	err = run(context.Background(), []string{"replay", path}, io.Discard, io.Discard)
	require.ErrorContains(t, err, path+":1: capture version 7 is not known (this build reads 1)")
}

func TestReplayStopsAtAFailedSetUp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(`{"capture":"dynamoemu","version":1}
{"seq":1,"target":"DynamoDB_20120810.DescribeTable","request":{"TableName":"${prefix}none"},"status":200,"response":{},"check":false}
{"seq":2,"target":"DynamoDB_20120810.ListTables","request":{},"status":200,"response":{"TableNames":[]}}
`), 0o644))
	var out bytes.Buffer
	err := run(context.Background(), []string{"replay", path}, &out, io.Discard)
	require.ErrorContains(t, err, "replay stopped after 1 of 2 exchanges")
	require.ErrorContains(t, err, path+":2: exchange 1 (DynamoDB_20120810.DescribeTable): a set-up exchange (check false) answered 400")
	require.Contains(t, out.String(), "stopped: ")
}

// forwardCounter is an upstream that counts what reaches it and answers
// as the emulator behind it.
func forwardCounter(t *testing.T) (string, *atomic.Int32) {
	t.Helper()
	_, e, _ := emulatortest.NewServerWith(t, emulator.Options{})
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		e.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &hits
}

func TestRecorderStaysWithinItsPrefix(t *testing.T) {
	upstream, hits := forwardCounter(t)
	// A table within the prefix that exists before the recording, and
	// one outside it.
	pre, _ := clients(upstream)
	ctx := context.Background()
	for _, tn := range []string{"rec1-kept", "prod-orders"} {
		_, err := pre.CreateTable(ctx, createInput(tn))
		require.NoError(t, err)
	}
	url, path, r := startRecorder(t, upstream, "rec1-")
	// The recorder signs with its own key: its namespace on the emulator.
	existing, err := r.existingTables(ctx)
	require.NoError(t, err)
	require.Empty(t, existing, "the recorder's credentials see their own namespace")
	db, _ := clients(url)
	before := hits.Load()

	for _, tc := range []struct {
		name string
		call func() error
		want string
	}{
		{"another table", func() error { _, err := db.CreateTable(ctx, createInput("prod-orders2")); return err }, `table \"prod-orders2\" is outside the prefix \"rec1-\"`},
		{"a batch naming another table", func() error {
			_, err := db.BatchGetItem(ctx, batchGet("rec1-a", "prod-orders"))
			return err
		}, `table \"prod-orders\" is outside the prefix`},
		{"a statement naming another table", func() error {
			_, err := db.ExecuteStatement(ctx, statement(`DELETE FROM "prod-orders" WHERE pk = 'a'`))
			return err
		}, `table \"prod-orders\" is outside the prefix`},
		{"an ARN naming another table", func() error {
			_, err := db.ListTagsOfResource(ctx, tagsOf("arn:aws:dynamodb:us-east-1:000000000000:table/prod-orders"))
			return err
		}, `table \"prod-orders\" is outside the prefix`},
		{"a table it did not create", func() error { _, err := db.DeleteTable(ctx, deleteInput("rec1-kept")); return err }, `table \"rec1-kept\" was not created by this recording`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			require.ErrorContains(t, err, "AccessDeniedException")
			require.ErrorContains(t, err, strings.ReplaceAll(tc.want, `\"`, `"`))
		})
	}
	require.Equal(t, before, hits.Load(), "nothing refused reached the upstream")

	// What it created it may delete.
	_, err = db.CreateTable(ctx, createInput("rec1-mine"))
	require.NoError(t, err)
	_, err = db.ListTables(ctx, nil)
	require.NoError(t, err)
	_, err = db.DeleteTable(ctx, deleteInput("rec1-mine"))
	require.NoError(t, err)
	f, err := capture.ReadFile(path)
	require.NoError(t, err)
	require.Len(t, f.Exchanges, 3, "the refusals are not written")
	require.Equal(t, "DynamoDB_20120810.ListTables", f.Exchanges[1].Target)
	require.JSONEq(t, `{"TableNames":["${prefix}mine"]}`, string(f.Exchanges[1].Response))
}

func TestRecorderAnnounces(t *testing.T) {
	r, err := newRecorder(recorderOptions{Upstream: "https://dynamodb.eu-west-1.amazonaws.com", Prefix: "rec1-",
		Credentials: credentials.NewStaticCredentialsProvider(recordKeyID, recordSecret, "")})
	require.NoError(t, err)
	text := r.announce("http://127.0.0.1:8001", "out.jsonl", recordKeyID, []string{"rec1-old"})
	require.Contains(t, text, "forwarding to https://dynamodb.eu-west-1.amazonaws.com (DynamoDB Streams to https://streams.dynamodb.eu-west-1.amazonaws.com), signed for eu-west-1")
	require.Contains(t, text, `only tables whose names start with "rec1-"`)
	require.Contains(t, text, "never deleted: rec1-old")
	require.Contains(t, text, "************TEST")
	require.NotContains(t, text, recordKeyID)

	_, err = newRecorder(recorderOptions{Upstream: "http://x", Prefix: "", Credentials: aws.AnonymousCredentials{}})
	require.ErrorContains(t, err, "-tablePrefix")
	_, err = newRecorder(recorderOptions{Upstream: "ftp://x", Prefix: "rec1-", Credentials: aws.AnonymousCredentials{}})
	require.ErrorContains(t, err, "-upstream")
	err = run(context.Background(), []string{"record", "-upstream", "http://127.0.0.1:1"}, io.Discard, io.Discard)
	require.ErrorContains(t, err, "give -upstream, -tablePrefix and -out")
}

func TestTouched(t *testing.T) {
	for _, tc := range []struct {
		op, body string
		want     []string
		err      string
	}{
		{"PutItem", `{"TableName":"a","Item":{"TableName":{"S":"b"}}}`, []string{"a"}, ""},
		{"BatchWriteItem", `{"RequestItems":{"a":[],"b":[]}}`, []string{"a", "b"}, ""},
		{"TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"a"}},{"Get":{"TableName":"b"}}]}`, []string{"a", "b"}, ""},
		{"ExecuteStatement", `{"Statement":"SELECT * FROM \"a\".\"idx\" WHERE x = 1"}`, []string{"a"}, ""},
		{"ExecuteStatement", `{"Statement":"insert into b value {'k': 1}"}`, []string{"b"}, ""},
		{"ExecuteStatement", `{"Statement":"UPDATE \"we\"\"ird\" SET x = 1"}`, []string{`we"ird`}, ""},
		{"ExecuteStatement", `{"Statement":"EXISTS"}`, nil, "cannot tell which table the statement"},
		{"DescribeStream", `{"StreamArn":"arn:aws:dynamodb:us-east-1:1:table/a/stream/2026"}`, []string{"a"}, ""},
		{"DeleteTable", `{"TableName":"arn:aws:dynamodb:us-east-1:1:table/a"}`, []string{"a"}, ""},
		{"UpdateTable", `{"TableName":"a","SSESpecification":{"KMSMasterKeyId":"arn:aws:kms:us-east-1:1:key/x"}}`, []string{"a"}, ""},
		{"RestoreTableFromBackup", `{"TargetTableName":"b","BackupArn":"arn:aws:dynamodb:us-east-1:1:table/a/backup/01"}`, []string{"a", "b"}, ""},
		{"ListTables", `{}`, nil, ""},
		{"DescribeBackup", `{"BackupArn":"arn:aws:dynamodb:us-east-1:1:backup/x"}`, nil, "cannot tell which table the ARN"},
		{"SomethingNew", `{"Name":"x"}`, nil, "SomethingNew names no table"},
		{"PutItem", `{`, nil, "not JSON"},
	} {
		got, err := touched(tc.op, []byte(tc.body))
		if tc.err != "" {
			require.ErrorContains(t, err, tc.err, tc.body)
			continue
		}
		require.NoError(t, err, tc.body)
		require.ElementsMatch(t, tc.want, got, tc.body)
	}
}
