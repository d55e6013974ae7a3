package benchmarks

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

const targetPrefix = "DynamoDB_20120810."

// serveEnv set in the environment makes this test binary an emulator server
// (see TestMain): the child process of the http-child transport.
const serveEnv = "DYNAMOEMU_BENCH_SERVE"

// noopPath (and any path under it) answers a request with a replay of the
// emulator's response to the same X-Amz-Target and body, recorded the first
// time: the same bytes on the wire without the emulator's work, the floor of
// what net/http, the runtime and the kernel cost per request.
const noopPath = "/debug/noop"

// childProfileEnv names a file for a CPU profile of the child server.
const childProfileEnv = "DYNAMOEMU_BENCH_CHILD_CPUPROFILE"

// childGOMAXPROCSEnv, when set, is the child server's GOMAXPROCS (the
// parent keeps its own).
const childGOMAXPROCSEnv = "DYNAMOEMU_BENCH_CHILD_GOMAXPROCS"

// childEnvEnv adds variables (space-separated K=V) to the child server's
// environment alone.
const childEnvEnv = "DYNAMOEMU_BENCH_CHILD_ENV"

// childBinEnv names another child server binary to start instead of this
// test binary: one that prints its address on stdout, answers rusagePath
// and noopPath like serveChild, and exits when stdin closes (httpexp/, the
// HTTP-path experiment, is one).
const childBinEnv = "DYNAMOEMU_BENCH_CHILD_BIN"

// rusagePath answers the child server's CPU time in nanoseconds.
const rusagePath = "/debug/rusage"

func TestMain(m *testing.M) {
	if os.Getenv(serveEnv) != "" {
		serveChild()
		return
	}
	code := m.Run()
	stopChild()
	os.Exit(code)
}

var keySeq atomic.Uint64

// newAccessKey returns a fresh access key: a database of its own, so every
// benchmark run starts from empty tables.
func newAccessKey() string { return fmt.Sprintf("AKIABENCH%d", keySeq.Add(1)) }

func authHeader(accessKey string) string {
	return "AWS4-HMAC-SHA256 Credential=" + accessKey + "/20260101/" + emulatortest.Region +
		"/dynamodb/aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, Signature=0"
}

// ---- items ----

// itemSize is the DynamoDB size of the items the benchmarks store.
const itemSize = 240

// benchItem returns a 10-attribute item of exactly itemSize bytes with
// partition key "user#<p>" and numeric sort key s (when sort is true).
func benchItem(tb testing.TB, p, s int, sort bool) storage.Item {
	it := storage.Item{"pk": storage.S(fmt.Sprintf("user#%07d", p))}
	if sort {
		it["sk"] = storage.N(storage.Number(strconv.Itoa(s)))
	}
	it["status"] = storage.S("active")
	it["count"] = storage.N(storage.Number(strconv.Itoa(s % 10)))
	it["price"] = storage.N("1234.5")
	it["flag"] = storage.Bool(s%2 == 0)
	it["tags"] = storage.SS([]string{"red", "green"})
	it["email"] = storage.S(fmt.Sprintf("someone.%d@example.com", p))
	for i := 0; len(it) < 10; i++ {
		it["f"+strconv.Itoa(i)] = storage.S("")
	}
	pad := itemSize - storage.ItemSize(it)
	if pad < 0 {
		tb.Fatalf("bench item already %d bytes", storage.ItemSize(it))
	}
	it["f0"] = storage.S(strings.Repeat("x", pad))
	if got := storage.ItemSize(it); got != itemSize || len(it) != 10 {
		tb.Fatalf("bench item is %d bytes, %d attributes", got, len(it))
	}
	return it
}

func itemJSON(tb testing.TB, p, s int, sort bool) string {
	return string(wire.AppendItem(nil, benchItem(tb, p, s, sort)))
}

// toSDK converts a storage item to the SDK's attribute values (scalars and
// sets of the bench items only).
func toSDK(it storage.Item) map[string]types.AttributeValue {
	out := make(map[string]types.AttributeValue, len(it))
	for k, v := range it {
		switch v.Kind() {
		case storage.KindS:
			out[k] = &types.AttributeValueMemberS{Value: v.Str()}
		case storage.KindN:
			out[k] = &types.AttributeValueMemberN{Value: v.Str()}
		case storage.KindBOOL:
			out[k] = &types.AttributeValueMemberBOOL{Value: v.Bool()}
		case storage.KindSS:
			out[k] = &types.AttributeValueMemberSS{Value: v.Members()}
		default:
			panic("toSDK: unsupported kind " + v.Kind().String())
		}
	}
	return out
}

// ---- the operations ----

// Tables: "bench" (pk S, sk N) holds item (1, 1) for GetItem and UpdateItem,
// partition user#0001000 with queryItems items for Query, and PutItem
// overwrites (1, 2). "scan" (pk S) holds scanItems items, one in ten with
// count 0.
const (
	queryPartition = 1000
	queryItems     = 10
	scanItems      = 1000
	scanLimit      = 500
)

// op is one benchmarked request, as a raw JSON body and as an SDK call.
type op struct {
	name   string // benchmark name
	target string // operation name
	body   func(tb testing.TB) string
	sdk    func(tb testing.TB) func(ctx context.Context, db *dynamodb.Client) error
}

var ops = []op{
	{
		name:   "PutItem",
		target: "PutItem",
		body: func(tb testing.TB) string {
			return `{"TableName":"bench","Item":` + itemJSON(tb, 1, 2, true) + `}`
		},
		sdk: func(tb testing.TB) func(context.Context, *dynamodb.Client) error {
			in := &dynamodb.PutItemInput{TableName: aws.String("bench"), Item: toSDK(benchItem(tb, 1, 2, true))}
			return func(ctx context.Context, db *dynamodb.Client) error {
				_, err := db.PutItem(ctx, in)
				return err
			}
		},
	},
	{
		name:   "GetItem",
		target: "GetItem",
		body: func(testing.TB) string {
			return `{"TableName":"bench","Key":{"pk":{"S":"user#0000001"},"sk":{"N":"1"}}}`
		},
		sdk: func(tb testing.TB) func(context.Context, *dynamodb.Client) error {
			in := &dynamodb.GetItemInput{TableName: aws.String("bench"), Key: map[string]types.AttributeValue{
				"pk": &types.AttributeValueMemberS{Value: "user#0000001"},
				"sk": &types.AttributeValueMemberN{Value: "1"},
			}}
			return func(ctx context.Context, db *dynamodb.Client) error {
				out, err := db.GetItem(ctx, in)
				if err == nil && len(out.Item) != 10 {
					err = fmt.Errorf("GetItem returned %d attributes", len(out.Item))
				}
				return err
			}
		},
	},
	{
		name:   "UpdateItemCondition",
		target: "UpdateItem",
		body: func(testing.TB) string {
			return `{"TableName":"bench","Key":{"pk":{"S":"user#0000001"},"sk":{"N":"1"}},` +
				`"UpdateExpression":"SET #c = #c + :one","ConditionExpression":"attribute_exists(pk) AND #c >= :zero",` +
				`"ExpressionAttributeNames":{"#c":"count"},"ExpressionAttributeValues":{":one":{"N":"1"},":zero":{"N":"0"}}}`
		},
		sdk: func(tb testing.TB) func(context.Context, *dynamodb.Client) error {
			in := &dynamodb.UpdateItemInput{
				TableName: aws.String("bench"),
				Key: map[string]types.AttributeValue{
					"pk": &types.AttributeValueMemberS{Value: "user#0000001"},
					"sk": &types.AttributeValueMemberN{Value: "1"},
				},
				UpdateExpression:         aws.String("SET #c = #c + :one"),
				ConditionExpression:      aws.String("attribute_exists(pk) AND #c >= :zero"),
				ExpressionAttributeNames: map[string]string{"#c": "count"},
				ExpressionAttributeValues: map[string]types.AttributeValue{
					":one":  &types.AttributeValueMemberN{Value: "1"},
					":zero": &types.AttributeValueMemberN{Value: "0"},
				},
			}
			return func(ctx context.Context, db *dynamodb.Client) error {
				_, err := db.UpdateItem(ctx, in)
				return err
			}
		},
	},
	{
		name:   "QueryPartition10",
		target: "Query",
		body: func(testing.TB) string {
			return `{"TableName":"bench","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"user#0001000"}}}`
		},
		sdk: func(tb testing.TB) func(context.Context, *dynamodb.Client) error {
			in := &dynamodb.QueryInput{
				TableName:                 aws.String("bench"),
				KeyConditionExpression:    aws.String("pk = :p"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "user#0001000"}},
			}
			return func(ctx context.Context, db *dynamodb.Client) error {
				out, err := db.Query(ctx, in)
				if err == nil && out.Count != queryItems {
					err = fmt.Errorf("Query returned %d items", out.Count)
				}
				return err
			}
		},
	},
	{
		name:   "ScanFiltered",
		target: "Scan",
		body: func(testing.TB) string {
			return `{"TableName":"scan","FilterExpression":"#c = :z","ExpressionAttributeNames":{"#c":"count"},` +
				`"ExpressionAttributeValues":{":z":{"N":"0"}},"Limit":500}`
		},
		sdk: func(tb testing.TB) func(context.Context, *dynamodb.Client) error {
			in := &dynamodb.ScanInput{
				TableName:                 aws.String("scan"),
				FilterExpression:          aws.String("#c = :z"),
				ExpressionAttributeNames:  map[string]string{"#c": "count"},
				ExpressionAttributeValues: map[string]types.AttributeValue{":z": &types.AttributeValueMemberN{Value: "0"}},
				Limit:                     aws.Int32(scanLimit),
			}
			return func(ctx context.Context, db *dynamodb.Client) error {
				out, err := db.Scan(ctx, in)
				if err == nil && out.ScannedCount != scanLimit {
					err = fmt.Errorf("Scan read %d items", out.ScannedCount)
				}
				return err
			}
		},
	},
	{
		// The versioned-document pattern: write a new version and keep "latest" in step,
		// in two tables, the second write conditional.
		name:   "TransactWrite2",
		target: "TransactWriteItems",
		body: func(tb testing.TB) string {
			return `{"TransactItems":[{"Put":{"TableName":"bench","Item":` + itemJSON(tb, 1, 2, true) + `}},` +
				`{"Update":{"TableName":"scan","Key":{"pk":{"S":"user#0000002"}},"UpdateExpression":"SET #c = #c + :one",` +
				`"ConditionExpression":"attribute_exists(pk)","ExpressionAttributeNames":{"#c":"count"},"ExpressionAttributeValues":{":one":{"N":"1"}}}}]}`
		},
		sdk: func(tb testing.TB) func(context.Context, *dynamodb.Client) error {
			in := &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: aws.String("bench"), Item: toSDK(benchItem(tb, 1, 2, true))}},
				{Update: &types.Update{
					TableName:                 aws.String("scan"),
					Key:                       map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "user#0000002"}},
					UpdateExpression:          aws.String("SET #c = #c + :one"),
					ConditionExpression:       aws.String("attribute_exists(pk)"),
					ExpressionAttributeNames:  map[string]string{"#c": "count"},
					ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}},
				}},
			}}
			return func(ctx context.Context, db *dynamodb.Client) error {
				_, err := db.TransactWriteItems(ctx, in)
				return err
			}
		},
	},
	{
		name:   "TransactGet2",
		target: "TransactGetItems",
		body: func(testing.TB) string {
			return `{"TransactItems":[{"Get":{"TableName":"bench","Key":{"pk":{"S":"user#0000001"},"sk":{"N":"1"}}}},` +
				`{"Get":{"TableName":"scan","Key":{"pk":{"S":"user#0000002"}}}}]}`
		},
		sdk: func(tb testing.TB) func(context.Context, *dynamodb.Client) error {
			in := &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
				{Get: &types.Get{TableName: aws.String("bench"), Key: map[string]types.AttributeValue{
					"pk": &types.AttributeValueMemberS{Value: "user#0000001"},
					"sk": &types.AttributeValueMemberN{Value: "1"},
				}}},
				{Get: &types.Get{TableName: aws.String("scan"), Key: map[string]types.AttributeValue{
					"pk": &types.AttributeValueMemberS{Value: "user#0000002"},
				}}},
			}}
			return func(ctx context.Context, db *dynamodb.Client) error {
				out, err := db.TransactGetItems(ctx, in)
				if err == nil && (len(out.Responses) != 2 || len(out.Responses[0].Item) != 10) {
					err = fmt.Errorf("TransactGetItems returned %v", out.Responses)
				}
				return err
			}
		},
	},
}

// poster sends one raw JSON request and returns the status and body.
type poster func(op, body string) (int, string, error)

// setup creates and fills the benchmark tables through post.
func setup(tb testing.TB, post poster) {
	tb.Helper()
	must := func(op, body string) {
		status, out, err := post(op, body)
		if err != nil || status != http.StatusOK {
			tb.Fatalf("%s: status %d, %v: %s", op, status, err, out)
		}
	}
	must("CreateTable", `{"TableName":"bench","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],`+
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}`)
	must("CreateTable", `{"TableName":"scan","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],`+
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	must("PutItem", `{"TableName":"bench","Item":`+itemJSON(tb, 1, 1, true)+`}`)
	for s := range queryItems {
		must("PutItem", `{"TableName":"bench","Item":`+itemJSON(tb, queryPartition, s, true)+`}`)
		must("PutItem", `{"TableName":"bench","Item":`+itemJSON(tb, queryPartition+1, s, true)+`}`)
	}
	for i := range scanItems {
		must("PutItem", `{"TableName":"scan","Item":`+itemJSON(tb, i, i, false)+`}`)
	}
}

// ---- transports ----

// rawRequest is a prebuilt request served straight by the handler into a
// reusable ResponseWriter: only the server's work is timed.
type rawRequest struct {
	req  *http.Request
	data []byte
	body *rewindBody
	w    *discardWriter
}

type rewindBody struct{ bytes.Reader }

func (*rewindBody) Close() error { return nil }

// discardWriter is an http.ResponseWriter that keeps the status and the body.
type discardWriter struct {
	h      http.Header
	status int
	out    bytes.Buffer
}

func (w *discardWriter) Header() http.Header { return w.h }
func (w *discardWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *discardWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.out.Write(p)
}

func newRawRequest(accessKey, op, body string) *rawRequest {
	r := &rawRequest{data: []byte(body), body: &rewindBody{}, w: &discardWriter{h: http.Header{}}}
	r.req = httptest.NewRequest(http.MethodPost, "/", nil)
	r.req.Body = r.body
	r.req.ContentLength = int64(len(body))
	r.req.Header.Set("X-Amz-Target", targetPrefix+op)
	r.req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	r.req.Header.Set("Authorization", authHeader(accessKey))
	return r
}

// serve runs the request once and returns the status.
func (r *rawRequest) serve(h http.Handler) int {
	r.body.Reset(r.data)
	r.w.status = 0
	r.w.out.Reset()
	h.ServeHTTP(r.w, r.req)
	return r.w.status
}

func handlerPoster(h http.Handler, accessKey string) poster {
	return func(op, body string) (int, string, error) {
		r := newRawRequest(accessKey, op, body)
		status := r.serve(h)
		return status, r.w.out.String(), nil
	}
}

func httpPoster(hc *http.Client, url, accessKey string) poster {
	return func(op, body string) (int, string, error) {
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		if err != nil {
			return 0, "", err
		}
		req.Header.Set("X-Amz-Target", targetPrefix+op)
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("Authorization", authHeader(accessKey))
		res, err := hc.Do(req)
		if err != nil {
			return 0, "", err
		}
		defer res.Body.Close()
		out, err := io.ReadAll(res.Body)
		return res.StatusCode, string(out), err
	}
}

func sdkClient(url, accessKey string, hc *http.Client) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       emulatortest.Region,
		BaseEndpoint: aws.String(url),
		Credentials:  credentials.NewStaticCredentialsProvider(accessKey, "secret", ""),
		HTTPClient:   hc,
		Retryer:      aws.NopRetryer{},
	})
}

func newEmulator(tb testing.TB) *emulator.Emulator {
	e, err := emulator.New(emulator.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return e
}

// BenchmarkOps runs every operation through every transport:
// BenchmarkOps/<op>/<transport>.
func BenchmarkOps(b *testing.B) {
	for _, o := range ops {
		b.Run(o.name, func(b *testing.B) {
			b.Run("handler", func(b *testing.B) { benchHandler(b, o) })
			b.Run("sdk", func(b *testing.B) { benchSDKInProcess(b, o) })
			b.Run("http", func(b *testing.B) { benchHTTPInProcess(b, o) })
			b.Run("http-child", func(b *testing.B) { benchHTTPChild(b, o) })
		})
	}
}

// benchHandler times the server alone: a prebuilt request, the handler, a
// ResponseWriter that only keeps the bytes.
func benchHandler(b *testing.B, o op) {
	e := newEmulator(b)
	h := e.Handler()
	ak := newAccessKey()
	setup(b, handlerPoster(h, ak))
	r := newRawRequest(ak, o.target, o.body(b))
	if status := r.serve(h); status != http.StatusOK {
		b.Fatalf("status %d: %s", status, r.w.out.String())
	}
	before, _ := processCPU()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if status := r.serve(h); status != http.StatusOK {
			b.Fatalf("status %d: %s", status, r.w.out.String())
		}
	}
	b.StopTimer()
	// CPU time of the process per operation (the GC's included): on a
	// shared machine, steadier than ns/op, which counts time waiting for
	// a core.
	if after, ok := processCPU(); ok {
		b.ReportMetric(float64(after.user+after.sys-before.user-before.sys)/float64(b.N), "cpu-ns/op")
	}
}

// benchSDKInProcess times aws-sdk-go-v2 calling the handler in process.
func benchSDKInProcess(b *testing.B, o op) {
	e := newEmulator(b)
	ak := newAccessKey()
	setup(b, handlerPoster(e.Handler(), ak))
	db := emulatortest.Client(b, e, ak)
	benchSDK(b, o, db)
}

// benchHTTPInProcess times the SDK over loopback HTTP to a server in this
// process (client and server share the CPUs, as in a Go test suite).
func benchHTTPInProcess(b *testing.B, o op) {
	e := newEmulator(b)
	srv := httptest.NewServer(e.Handler())
	b.Cleanup(srv.Close)
	ak := newAccessKey()
	setup(b, httpPoster(srv.Client(), srv.URL, ak))
	benchSDK(b, o, sdkClient(srv.URL, ak, srv.Client()))
}

// benchHTTPChild times the SDK over loopback HTTP to a server in a child
// process, and reports the CPU time each side spends per operation.
func benchHTTPChild(b *testing.B, o op) { benchHTTPChildPath(b, o, "") }

// benchHTTPChildPath is benchHTTPChild with the SDK's endpoint at path of
// the child (noopPath for the floor).
func benchHTTPChildPath(b *testing.B, o op, path string) {
	url := startChild(b)
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	b.Cleanup(hc.CloseIdleConnections)
	ak := newAccessKey()
	setup(b, httpPoster(hc, url, ak))
	db := sdkClient(url+path, ak, hc)
	call := o.sdk(b)
	ctx := context.Background()
	if err := call(ctx, db); err != nil {
		b.Fatal(err)
	}
	serverBefore := childCPU(b, hc, url)
	clientBefore, _ := processCPU()
	b.ReportAllocs()
	b.ResetTimer()
	retries := 0
	for b.Loop() {
		retries += callRetrying(b, ctx, db, call)
	}
	b.StopTimer()
	reportRetries(b, retries)
	serverAfter := childCPU(b, hc, url)
	clientAfter, ok := processCPU()
	if ok {
		n := float64(b.N)
		b.ReportMetric(float64(serverAfter.user-serverBefore.user)/n, "server-user-ns/op")
		b.ReportMetric(float64(serverAfter.sys-serverBefore.sys)/n, "server-sys-ns/op")
		b.ReportMetric(float64(clientAfter.user+clientAfter.sys-clientBefore.user-clientBefore.sys)/n, "client-cpu-ns/op")
	}
}

// BenchmarkHTTPFloor runs every operation like http-child, with the same
// SDK client, request and response bytes, but the child answers from a
// replay of the emulator's response instead of running the emulator: what
// the SDK's traffic costs net/http, the Go runtime and the kernel on this
// machine, the floor under http-child's figures. BenchmarkOps/<op>/http-child
// minus BenchmarkHTTPFloor/<op> is the emulator's own share over HTTP.
func BenchmarkHTTPFloor(b *testing.B) {
	for _, o := range ops {
		b.Run(o.name, func(b *testing.B) { benchHTTPChildPath(b, o, noopPath) })
	}
}

func benchSDK(b *testing.B, o op, db *dynamodb.Client) {
	call := o.sdk(b)
	ctx := context.Background()
	if err := call(ctx, db); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	retries := 0
	for b.Loop() {
		retries += callRetrying(b, ctx, db, call)
	}
	reportRetries(b, retries)
}

// maxRetries bounds callRetrying's retries of one call.
const maxRetries = 10

// callRetrying makes one SDK call, retrying (at most maxRetries times) the client-side
// race of aws-sdk-go-v2 with net/http that fails a read with "use of closed
// network connection" after a 200 response (aws/aws-sdk-go-v2#1825, #2737;
// seen here on Scan pages over loopback). It returns the retries made.
func callRetrying(b *testing.B, ctx context.Context, db *dynamodb.Client, call func(context.Context, *dynamodb.Client) error) int {
	for tries := 0; ; tries++ {
		err := call(ctx, db)
		if err == nil {
			return tries
		}
		if tries == maxRetries || !strings.Contains(err.Error(), "use of closed network connection") {
			b.Fatal(err)
		}
	}
}

// reportRetries reports the client-side retries per op, when there were any.
func reportRetries(b *testing.B, retries int) {
	if retries > 0 {
		b.ReportMetric(float64(retries)/float64(b.N), "retries/op")
	}
}

// ---- the child server ----

var child struct {
	once  sync.Once
	cmd   *exec.Cmd
	stdin io.WriteCloser // kept open: the child exits when it closes
	url   string
	err   error
}

// startChild starts (once per process) this test binary as an emulator
// server and returns its URL.
func startChild(b *testing.B) string {
	child.once.Do(func() {
		cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^$")
		if bin := os.Getenv(childBinEnv); bin != "" {
			cmd = exec.Command(bin)
		}
		cmd.Env = append(os.Environ(), serveEnv+"=1")
		if n := os.Getenv(childGOMAXPROCSEnv); n != "" {
			cmd.Env = append(cmd.Env, "GOMAXPROCS="+n)
		}
		cmd.Env = append(cmd.Env, strings.Fields(os.Getenv(childEnvEnv))...)
		cmd.Stderr = os.Stderr
		stdin, err := cmd.StdinPipe()
		if err != nil {
			child.err = err
			return
		}
		child.stdin = stdin
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			child.err = err
			return
		}
		if err := cmd.Start(); err != nil {
			child.err = err
			return
		}
		line, err := bufio.NewReader(stdout).ReadString('\n')
		if err != nil {
			_ = cmd.Process.Kill()
			child.err = fmt.Errorf("child server: %v", err)
			return
		}
		child.cmd = cmd
		child.url = "http://" + strings.TrimSpace(line)
	})
	if child.err != nil {
		b.Fatal(child.err)
	}
	return child.url
}

func stopChild() {
	if child.cmd != nil {
		_ = child.stdin.Close() // the child stops its profile and exits
		_ = child.cmd.Wait()
	}
}

// serveChild is the child process: an emulator on a free loopback port
// (printed on stdout) plus rusagePath; it exits when stdin closes.
func serveChild() {
	e, err := emulator.New(emulator.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	api := e.Handler()
	var h http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == rusagePath {
			t, _ := processCPU()
			_, _ = fmt.Fprintf(w, "%d %d", t.user, t.sys)
			return
		}
		if strings.HasPrefix(r.URL.Path, noopPath) {
			replay.serve(w, r, api)
			return
		}
		api.ServeHTTP(w, r)
	})
	if os.Getenv(adaptiveEnv) != "" {
		h = newAdaptiveProcs().wrap(h)
	}
	if path := os.Getenv(childProfileEnv); path != "" {
		f, err := os.Create(path)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		pprof.StopCPUProfile()
		os.Exit(0)
	}()
	fmt.Println(ln.Addr().String())
	// Served as cmd/dynamoemu serves: emulator.Server with its default
	// options and connection loop (internal/httploop), or net/http alone with
	// DYNAMOEMU_HTTP_LOOP=std in the child's environment
	// (DYNAMOEMU_BENCH_CHILD_ENV=DYNAMOEMU_HTTP_LOOP=std). The API's
	// POST / is the loop's; rusagePath and noopPath (the floor) are
	// handed to net/http with their connection, which net/http keeps.
	srv := e.NewServer(emulator.ServerOptions{Loop: emulator.HTTPLoop(os.Getenv(httpLoopEnv))})
	srv.Handler = h
	_ = srv.Serve(ln)
}

// httpLoopEnv chooses the child server's connection loop (own or std).
const httpLoopEnv = "DYNAMOEMU_HTTP_LOOP"

// replayer answers each request with the emulator's response to the first
// request with the same X-Amz-Target and body.
type replayer struct {
	mu      sync.Mutex
	replies map[string]map[string]*reply // by target, then body
	buf     []byte                       // request body; requests are serial
}

type reply struct {
	status int
	header http.Header
	body   []byte
}

var replay = replayer{replies: map[string]map[string]*reply{}}

func (p *replayer) serve(w http.ResponseWriter, r *http.Request, api http.Handler) {
	p.mu.Lock()
	defer p.mu.Unlock()
	buf := bytes.NewBuffer(p.buf[:0])
	_, _ = buf.ReadFrom(r.Body)
	p.buf = buf.Bytes()
	target := r.Header.Get("X-Amz-Target")
	rep := p.replies[target][string(p.buf)]
	if rep == nil {
		rec := httptest.NewRecorder()
		r2 := r.Clone(r.Context())
		r2.URL.Path = "/"
		r2.Body = io.NopCloser(bytes.NewReader(p.buf))
		api.ServeHTTP(rec, r2)
		rep = &reply{status: rec.Code, header: rec.Header().Clone(), body: rec.Body.Bytes()}
		if p.replies[target] == nil {
			p.replies[target] = map[string]*reply{}
		}
		p.replies[target][string(p.buf)] = rep
	}
	h := w.Header()
	for k, v := range rep.header {
		h[k] = v
	}
	w.WriteHeader(rep.status)
	_, _ = w.Write(rep.body)
}

// cpuTime is a process's CPU time so far, in nanoseconds.
// cpuTime is a process's CPU time (nanoseconds) and its minor page
// faults (processCPU's; a child's figures leave faults 0).
type cpuTime struct{ user, sys, faults int64 }

// rusageClient asks the child for its CPU time on connections of its own:
// a GET on one of the benchmark's connections would move that connection
// from the connection loop to net/http for good.
var rusageClient = &http.Client{Transport: &http.Transport{}}

// childCPU returns the child server's CPU time so far.
func childCPU(b *testing.B, _ *http.Client, url string) cpuTime {
	res, err := rusageClient.Get(url + rusagePath)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	if err != nil {
		b.Fatal(err)
	}
	var t cpuTime
	if _, err := fmt.Sscanf(string(out), "%d %d", &t.user, &t.sys); err != nil {
		b.Fatalf("child rusage %q: %v", out, err)
	}
	return t
}

// ---- memory ----

// BenchmarkMemoryPerItem PutItems 100,000 items of 240 bytes through the
// handler and reports the growth of the live heap per stored item.
func BenchmarkMemoryPerItem(b *testing.B) {
	const n = 100_000
	for _, bc := range []struct {
		name         string
		sort         bool
		perPartition int
	}{
		{"hash-only", false, 1},
		{"composite/100-per-partition", true, 100},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var perItem float64
			for b.Loop() {
				e := newEmulator(b)
				h := e.Handler()
				ak := newAccessKey()
				post := handlerPoster(h, ak)
				keys := `"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}]`
				if bc.sort {
					keys = `"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],` +
						`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}]`
				}
				if status, out, _ := post("CreateTable", `{"TableName":"mem","BillingMode":"PAY_PER_REQUEST",`+keys+`}`); status != http.StatusOK {
					b.Fatalf("CreateTable: %d %s", status, out)
				}
				r := newRawRequest(ak, "PutItem", "")
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				for i := range n {
					r.data = append(append(append(r.data[:0], `{"TableName":"mem","Item":`...),
						wire.AppendItem(nil, benchItem(b, i/bc.perPartition, i%bc.perPartition, bc.sort))...), '}')
					r.req.ContentLength = int64(len(r.data))
					if status := r.serve(h); status != http.StatusOK {
						b.Fatalf("PutItem: %d %s", status, r.w.out.String())
					}
				}
				r = nil
				runtime.GC()
				runtime.ReadMemStats(&after)
				perItem = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / n
				runtime.KeepAlive(e)
			}
			b.ReportMetric(perItem, "bytes/item")
		})
	}
}
