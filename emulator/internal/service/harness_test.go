package service

import (
	"bytes"
	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"testing/iotest"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// The service's tests send requests as clients do, through an
// http.Handler (testkit.Do), but without the edge: serviceHandler reads
// the access key and region with testkit.Credential, resolves
// X-Amz-Target, hands the body to the service and writes its answer or
// its error as the edge does (apierr.Classify, wire.AppendErrorBody). The
// edge's own work (credentials, limits, compression, hosts, CORS) is
// tested with the edge. The fixtures shared by the tests of several
// subjects are here too: itemsEnv (three tables and table-driven item
// cases) and the control-plane helpers on a fixed clock (tablesDo).

// wired are the features and stages the emulator hands its service
// (emulator/features.go), for the core's tests that run with them: the
// feature and stage packages import the core, so only the external test
// package may import them; its TestMain (wired_test.go) fills this
// (Wire) before any test runs.
var wired struct {
	features []Feature
	stages   []Stage
}

// Wire sets the features and stages the core's tests run with
// (testConfig).
func Wire(features []Feature, stages []Stage) { wired.features, wired.stages = features, stages }

// testConfig is cfg with the wired features and stages when it names no
// feature and no stage (wiredFeatures).
func testConfig(cfg Config) Config {
	if cfg.Features == nil && cfg.Stages == nil {
		cfg.Features, cfg.Stages = wiredFeatures(), wired.stages
	}
	return cfg
}

// wiredFeatures are the wired features and the tests' own operation
// (TestEcho).
func wiredFeatures() []Feature { return append(slices.Clone(wired.features), echoFeature{}) }

// newTestService returns a service configured by testConfig(cfg), closed
// when the test ends.
func newTestService(t testing.TB, cfg Config) *Service {
	t.Helper()
	s, err := New(testConfig(cfg))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// serviceHandler serves the DynamoDB API from s, for tests.
func serviceHandler(s *Service) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key, region := testkit.Credential(r.Header.Get("Authorization"))
		body, _ := io.ReadAll(r.Body)
		out, err := serveForTest(s, r, key, region, body)
		status := http.StatusOK
		if err != nil {
			ae, _ := apierr.Classify(err)
			status, out = ae.Class.Status, wire.AppendErrorBody(nil, ae)
		}
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.WriteHeader(status)
		_, _ = io.Copy(w, bytes.NewReader(out))
	})
}

// serveForTest serves body as the edge does: decoded as it arrives
// (here in reads of 4 KB), then served.
func serveForTest(s *Service, r *http.Request, key, region string, body []byte) ([]byte, error) {
	op, err := s.Lookup(r.Header.Get("X-Amz-Target"))
	if err != nil {
		return nil, err
	}
	src := wire.Body{R: iotest.HalfReader(&chunkReader{b: body, n: 8 << 10}), Size: int64(len(body)), Limit: 16 << 20}
	return s.Serve(op, &Request{
		Ctx: r.Context(), AccessKey: key, Region: region, Tenant: r.Header.Get("X-Tenant-Code"),
		RequestID: "test", Host: r.Host, Input: s.Decode(op, &src),
	})
}

// chunkReader reads b at most n bytes a read.
type chunkReader struct {
	b []byte
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), c.n)], c.b)
	c.b = c.b[n:]
	return n, nil
}

// doService sends one request to s (testkit.Do on serviceHandler).
func doService(t testing.TB, s *Service, target, auth, body string) (*http.Response, string) {
	t.Helper()
	return testkit.Do(t, serviceHandler(s), target, auth, body)
}

// echoedNamespace is the answer of the service's test-only operation
// TestEcho: the region and the namespace a request acts on.
type echoedNamespace struct {
	Region    string
	Namespace string
}

// echoFeature is the tests' own operation, TestEcho.
type echoFeature struct{}

func (echoFeature) Name() string { return "testEcho" }

func (echoFeature) Register(r Registrar) {
	Op(r, "TestEcho", boundary.List, func(c Call, in *struct{}) (*echoedNamespace, error) {
		return &echoedNamespace{Region: c.c.region, Namespace: c.c.ns.key}, nil
	})
}

// itemsEnv is an emulator with the tables the item-operation tests use:
//
//	ths: pk S (HASH), sk N (RANGE)
//	tha: pk S (HASH)
//	tbi: pk B (HASH)
type itemsEnv struct {
	t   testing.TB
	h   http.Handler
	emu *Service // nil when the test made the env from a handler alone
}

var itemsAuth = testkit.Auth("ITEMS", "us-east-1")

func newItemsEnv(t testing.TB) *itemsEnv {
	t.Helper()
	e, err := New(testConfig(Config{}))
	if err != nil {
		t.Fatal(err)
	}
	env := &itemsEnv{t: t, h: serviceHandler(e), emu: e}
	env.mustOK("CreateTable", `{"TableName":"ths","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}`)
	env.mustOK("CreateTable", `{"TableName":"tha","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	env.mustOK("CreateTable", `{"TableName":"tbi","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"B"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	return env
}

// call sends one request and returns the HTTP status and body.
func (env *itemsEnv) call(op, body string) (int, string) {
	env.t.Helper()
	res, out := testkit.Do(env.t, env.h, "DynamoDB_20120810."+op, itemsAuth, body)
	return res.StatusCode, out
}

func (env *itemsEnv) mustOK(op, body string) string {
	env.t.Helper()
	status, out := env.call(op, body)
	if status != http.StatusOK {
		env.t.Fatalf("%s %s: status %d, body %s", op, body, status, out)
	}
	return out
}

// itemCase is one request and what must come back: either an error (its
// type after '#' and its message) or, when errType is empty, a 200 whose
// JSON body equals want (want "" skips the body check).
type itemCase struct {
	name    string
	op      string
	body    string
	errType string
	errMsg  string
	want    string
}

func (env *itemsEnv) run(t *testing.T, cases []itemCase) {
	t.Helper()
	for _, tc := range cases {
		status, body := env.call(tc.op, tc.body)
		if tc.errType != "" {
			gotType, gotMsg := testkit.ErrorOf(body)
			if status != http.StatusBadRequest || gotType != tc.errType || gotMsg != tc.errMsg {
				t.Errorf("%s: got %d %s %q, want 400 %s %q\nbody: %s", tc.name, status, gotType, gotMsg, tc.errType, tc.errMsg, body)
			}
			continue
		}
		if status != http.StatusOK {
			t.Errorf("%s: got status %d, body %s; want 200", tc.name, status, body)
			continue
		}
		if tc.want != "" && !testkit.JSONEqual(body, tc.want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, body, tc.want)
		}
	}
}

const (
	vErr = "ValidationException"
	cErr = "ConditionalCheckFailedException"
	rErr = "ResourceNotFoundException"
)

func newItemsBenchEnv(b *testing.B) *itemsEnv {
	env := newItemsEnv(b)
	env.mustOK("PutItem", `{"TableName":"ths","Item":{"pk":{"S":"bench"},"sk":{"N":"1"},"v":{"N":"0"},"name":{"S":"some text of a typical item"},"tags":{"SS":["a","b"]}}}`)
	return env
}

// benchCall sends a prepared request; the body is rebuilt per call because
// the handler consumes it.
func benchCall(b *testing.B, h http.Handler, op string, body []byte) {
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("Authorization", itemsAuth)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	}
}

// tablesClock is the fixed request time of the control-plane tests.
var tablesClock = time.Date(2026, 11, 22, 1, 2, 3, 456_000_000, time.UTC)

const tablesEpoch = "1795309323.456" // tablesClock on the wire

func newTablesEmulator(t *testing.T) *Service {
	t.Helper()
	return newTestService(t, Config{Clock: func() time.Time { return tablesClock }})
}

// tablesResult is one response: the status, the error class and message
// (empty on success) and the body.
type tablesResult struct {
	status int
	typ    string
	msg    string
	body   string
}

func tablesDo(t *testing.T, e *Service, op, body string) tablesResult {
	t.Helper()
	res, b := doService(t, e, "DynamoDB_20120810."+op, testkit.DefaultAuth, body)
	r := tablesResult{status: res.StatusCode, body: b}
	if res.StatusCode != 200 {
		if r.typ, r.msg = testkit.ErrorOf(b); r.typ == "" {
			t.Fatalf("%s: undecodable error body %q", op, b)
		}
	}
	return r
}

// mustTables runs op and fails the test unless it succeeds.
func mustTables(t *testing.T, e *Service, op, body string) string {
	t.Helper()
	r := tablesDo(t, e, op, body)
	if r.status != 200 {
		t.Fatalf("%s %s: %d %s: %s", op, body, r.status, r.typ, r.msg)
	}
	return r.body
}

// TTLHooks reach the TTL feature's sweeper (emulator/internal/ttl) from
// the core's tests: the feature imports the core, so only the external
// test package (wired_test.go) may import it and fill TTLHooks.
var TTLHooks struct {
	// Sweep deletes every expired item of s now and says how many.
	Sweep func(s *Service) int
}

// SweepTTL is the TTL feature's sweep of s, for the tests that race it
// with the write paths (TestLockOrder, TestReplay, the vector tests).
func (s *Service) SweepTTL() int { return TTLHooks.Sweep(s) }
