package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// requestFrame is a DynamoDB API call as the bridge frames it.
func requestFrame(op string, body any) []byte {
	b, err := json.Marshal(body)
	if err != nil {
		panic(err)
	}
	return fmt.Appendf(nil, "POST /\nHost: wasm\nX-Amz-Target: DynamoDB_20120810.%s\n"+
		"Content-Type: application/x-amz-json-1.0\n"+
		"Authorization: AWS4-HMAC-SHA256 Credential=test/20240101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00\n\n%s", op, b)
}

// response is a response frame, parsed.
type response struct {
	status int
	header http.Header
	body   []byte
}

func parseResponse(t testing.TB, frame []byte) response {
	t.Helper()
	head, body, ok := bytes.Cut(frame, []byte("\n\n"))
	require.True(t, ok, "no empty line in %q", frame)
	lines := bytes.Split(head, []byte{'\n'})
	status, err := strconv.Atoi(string(lines[0]))
	require.NoError(t, err)
	h := http.Header{}
	for _, l := range lines[1:] {
		name, value, ok := bytes.Cut(l, []byte(": "))
		require.True(t, ok, "header line %q", l)
		h.Add(string(name), string(value))
	}
	return response{status: status, header: h, body: body}
}

func mustEngine(t testing.TB, args ...string) *engine {
	t.Helper()
	e, err := newEngine(args)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, e.emu.Close()) })
	return e
}

var createTable = map[string]any{
	"TableName":            "bench",
	"AttributeDefinitions": []any{map[string]any{"AttributeName": "pk", "AttributeType": "S"}, map[string]any{"AttributeName": "sk", "AttributeType": "S"}},
	"KeySchema":            []any{map[string]any{"AttributeName": "pk", "KeyType": "HASH"}, map[string]any{"AttributeName": "sk", "KeyType": "RANGE"}},
	"BillingMode":          "PAY_PER_REQUEST",
}

func benchItem(i int) map[string]any {
	return map[string]any{
		"pk": map[string]any{"S": "p"}, "sk": map[string]any{"S": fmt.Sprintf("item#%06d", i)},
		"name": map[string]any{"S": fmt.Sprintf("name %d", i)}, "n": map[string]any{"N": strconv.Itoa(i)},
		"tags": map[string]any{"SS": []string{"a", "b"}},
	}
}

func TestServeFrames(t *testing.T) {
	e := mustEngine(t)
	tests := []struct {
		name       string
		frame      []byte
		wantStatus int
		wantBody   string // a part of the body
	}{
		{"create table", requestFrame("CreateTable", createTable), 200, `"TableStatus":"CREATING"`},
		{"put item", requestFrame("PutItem", map[string]any{"TableName": "bench", "Item": benchItem(1)}), 200, `{}`},
		{"query", requestFrame("Query", map[string]any{"TableName": "bench", "KeyConditionExpression": "pk = :p",
			"ExpressionAttributeValues": map[string]any{":p": map[string]any{"S": "p"}}}), 200, `"Count":1`},
		{"unknown table", requestFrame("GetItem", map[string]any{"TableName": "nope", "Key": map[string]any{"pk": map[string]any{"S": "p"}}}), 400, "ResourceNotFoundException"},
		{"unknown operation", requestFrame("Frobnicate", map[string]any{}), 400, "UnknownOperationException"},
		{"GET / is the health answer", []byte("GET /\nHost: wasm\n\n"), 200, "healthy: wasm "},
		{"GET of another path", []byte("GET /nope\nHost: wasm\n\n"), 404, "UnknownOperationException"},
		{"no request line", []byte("POST"), 400, errFrame.Error()},
		{"no method", []byte(" /\n\n"), 400, errFrame.Error()},
		{"no target", []byte("POST\n\n"), 400, errFrame.Error()},
		{"target not a path", []byte("POST nope\n\n"), 400, errFrame.Error()},
		{"headers not ended", []byte("POST /\nHost: wasm\n"), 400, errFrame.Error()},
		{"header without colon", []byte("POST /\nHost\n\n"), 400, errFrame.Error()},
		{"header without name", []byte("POST /\n: x\n\n"), 400, errFrame.Error()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := parseResponse(t, e.serve(tc.frame, nil))
			require.Equal(t, tc.wantStatus, got.status, "body %s", got.body)
			require.Contains(t, string(got.body), tc.wantBody)
		})
	}
}

// An answer keeps the handler's headers (the SDK checks X-Amz-Crc32) and
// is never compressed, whatever the request accepts.
func TestServeHeaders(t *testing.T) {
	e := mustEngine(t)
	for i := range 200 { // a Scan answer past the compression threshold
		if i == 0 {
			require.Equal(t, 200, parseResponse(t, e.serve(requestFrame("CreateTable", createTable), nil)).status)
		}
		require.Equal(t, 200, parseResponse(t, e.serve(requestFrame("PutItem", map[string]any{"TableName": "bench", "Item": benchItem(i)}), nil)).status)
	}
	frame := requestFrame("Scan", map[string]any{"TableName": "bench"})
	frame = bytes.Replace(frame, []byte("Host: wasm\n"), []byte("Host: wasm\nAccept-Encoding: gzip\n"), 1)
	got := parseResponse(t, e.serve(frame, nil))
	require.Equal(t, 200, got.status)
	require.Empty(t, got.header.Get("Content-Encoding"))
	require.NotEmpty(t, got.header.Get("X-Amz-Crc32"))
	require.NotEmpty(t, got.header.Get("X-Amzn-Requestid"))
	require.Contains(t, string(got.body), `"Count":200`)
}

// -sharedDb puts every access key in one database; without it each key
// has its own, as on the server.
func TestEngineArgs(t *testing.T) {
	otherKey := func(f []byte) []byte {
		return bytes.Replace(f, []byte("Credential=test/"), []byte("Credential=other/"), 1)
	}
	list := requestFrame("ListTables", map[string]any{})
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"a database per key", nil, `{"TableNames":[]}`},
		{"shared", []string{"-sharedDb"}, `{"TableNames":["bench"]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := mustEngine(t, tc.args...)
			require.Equal(t, 200, parseResponse(t, e.serve(requestFrame("CreateTable", createTable), nil)).status)
			require.JSONEq(t, tc.want, string(parseResponse(t, e.serve(otherKey(list), nil)).body))
		})
	}
	for _, args := range [][]string{{"-port", "8000"}, {"extra"}, {"-ttlSweepInterval", "-1s"}, {"-ttlSweepInterval", "soon"}} {
		_, err := newEngine(args)
		require.Error(t, err, "args %q", args)
	}
	e := mustEngine(t, "-ttlSweepInterval", "10ms")
	require.Equal(t, 10*time.Millisecond, e.ttlSweep)
	require.Equal(t, time.Minute, mustEngine(t).ttlSweep, "the server's default")
}

func FuzzServeFrame(f *testing.F) {
	f.Add(requestFrame("CreateTable", createTable))
	f.Add(requestFrame("PutItem", map[string]any{"TableName": "bench", "Item": benchItem(1)}))
	f.Add([]byte("GET /\nHost: wasm\n\n"))
	f.Add([]byte("POST /?x=%zz\n\n"))
	f.Add([]byte("POST /\nX-Amz-Target:\n\n{"))
	e := mustEngine(f)
	f.Fuzz(func(t *testing.T, frame []byte) {
		got := e.serve(frame, nil)
		head, _, ok := bytes.Cut(got, []byte("\n\n"))
		require.True(t, ok, "answer %q has no empty line", got)
		line, _, _ := bytes.Cut(head, []byte{'\n'})
		status, err := strconv.Atoi(string(line))
		require.NoError(t, err, "status line %q", line)
		require.Less(t, status, 500, "answer %q", got)
	})
}

// BenchmarkServe is the engine's cost per call natively, on the calls
// npm/test/wasm-bench.js times in WebAssembly.
func BenchmarkServe(b *testing.B) {
	const items = 3000
	calls := []struct {
		name  string
		frame func(i int) []byte
	}{
		{"PutItem", func(i int) []byte {
			return requestFrame("PutItem", map[string]any{"TableName": "bench", "Item": benchItem(i % items)})
		}},
		{"GetItem", func(i int) []byte {
			return requestFrame("GetItem", map[string]any{"TableName": "bench", "Key": map[string]any{
				"pk": map[string]any{"S": "p"}, "sk": map[string]any{"S": fmt.Sprintf("item#%06d", i%items)}}})
		}},
		{"Query25", func(i int) []byte {
			return requestFrame("Query", map[string]any{"TableName": "bench", "Limit": 25,
				"KeyConditionExpression": "pk = :p AND sk > :s", "ExpressionAttributeValues": map[string]any{
					":p": map[string]any{"S": "p"}, ":s": map[string]any{"S": fmt.Sprintf("item#%06d", i%(items-30))}}})
		}},
	}
	e := mustEngine(b)
	require.Equal(b, 200, parseResponse(b, e.serve(requestFrame("CreateTable", createTable), nil)).status)
	var out []byte
	for _, c := range calls {
		frames := make([][]byte, items)
		for i := range frames {
			frames[i] = c.frame(i)
		}
		b.Run(c.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				out = e.serve(frames[i%items], out[:0])
				if out[0] != '2' {
					b.Fatalf("answer %s", out)
				}
				i++
			}
		})
	}
}
