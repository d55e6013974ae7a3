package emulator_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// createMapping POSTs CreateEventSourceMapping's body to the server at
// url, as the AWS CLI does, and returns the status, X-Amzn-ErrorType and
// message.
func createMapping(t *testing.T, url, body string) (int, string, string) {
	t.Helper()
	return sendMapping(t, http.MethodPost, url+"/2015-03-31/event-source-mappings/", body)
}

func sendMapping(t *testing.T, method, target, body string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(method, target, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var v struct{ Message string }
	_ = json.Unmarshal(b, &v) // "message" or "Message": json matches either
	return resp.StatusCode, resp.Header.Get("X-Amzn-ErrorType"), v.Message
}

// mappingBody is CreateEventSourceMapping's body with an Endpoint and an
// on-failure destination ("" leaves either out).
func mappingBody(endpoint, dest string) string {
	m := map[string]any{"TableName": "orders", "FunctionName": "fn", "StartingPosition": "LATEST"}
	if endpoint != "" {
		m["Endpoint"] = endpoint
	}
	if dest != "" {
		m["DestinationConfig"] = map[string]any{"OnFailure": map[string]any{"Destination": dest}}
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// TestStreamHandlerTargetsConfined: a mapping sends a table's records to
// its Endpoint and its on-failure destination, so without the
// operator's leave those stay on this machine: an http(s) Endpoint or
// destination must name loopback (-streamHandlerRemote lifts it), and a
// file:// destination is refused unless it is inside the directory
// -streamHandlerFileDir names. A refusal is Lambda's
// InvalidParameterValueException naming the flag, and makes nothing;
// an update is checked as a create, and so is the Go API.
func TestStreamHandlerTargetsConfined(t *testing.T) {
	filesDir := t.TempDir()
	outside := t.TempDir()
	closed, e, _ := emulatortest.NewServerWith(t, emulator.Options{})
	withDir, _, _ := emulatortest.NewServerWith(t, emulator.Options{StreamHandlerFileDir: filesDir})
	open, _, _ := emulatortest.NewServerWith(t, emulator.Options{StreamHandlerRemote: true})

	tests := []struct {
		name, server, endpoint, dest string
		refused                      string // the refusal's words; "": made
	}{
		{"loopback 127.0.0.1", closed, "http://127.0.0.1:3002", "", ""},
		{"loopback in 127/8", closed, "http://127.9.8.7:3002", "", ""},
		{"loopback ::1", closed, "http://[::1]:3002", "", ""},
		{"localhost", closed, "http://localhost:3002", "", ""},
		{"a name under localhost", closed, "https://fn.localhost", "", ""},
		{"another host", closed, "http://elsewhere.example:9999", "", "-streamHandlerRemote"},
		{"another address", closed, "http://10.0.0.7:9999", "", "-streamHandlerRemote"},
		{"all interfaces", closed, "http://0.0.0.0:9999", "", "-streamHandlerRemote"},
		{"loopback as the user part", closed, "http://127.0.0.1@elsewhere.example:9999", "", "-streamHandlerRemote"},
		{"another host, allowed", open, "http://elsewhere.example:9999", "", ""},
		{"an Endpoint that is a file", open, "file:///etc/passwd", "", "is not an http:// or https:// URL"},
		{"a destination of another host", closed, "", "https://elsewhere.example/failures", "-streamHandlerRemote"},
		{"a destination on loopback", closed, "", "http://127.0.0.1:9/failures", ""},
		{"a destination of another host, allowed", open, "", "https://elsewhere.example/failures", ""},
		{"an ARN destination", closed, "", "arn:aws:sqs:us-east-1:000000000000:dlq", ""},
		{"a file without the directory", closed, "", "file://" + filepath.Join(filesDir, "f.jsonl"), "-streamHandlerFileDir DIR"},
		{"a file, remote allowed", open, "", "file://" + filepath.Join(filesDir, "f.jsonl"), "-streamHandlerFileDir DIR"},
		{"a file in the directory", withDir, "", "file://" + filepath.Join(filesDir, "f.jsonl"), ""},
		{"a file below it", withDir, "", "file://" + filepath.Join(filesDir, "sub", "f.jsonl"), ""},
		{"a file elsewhere", withDir, "", "file://" + filepath.Join(outside, "f.jsonl"), "is outside"},
		{"a way out by ..", withDir, "", "file://" + filesDir + "/../" + filepath.Base(outside) + "/f.jsonl", "is outside"},
		{"the directory itself", withDir, "", "file://" + filesDir, "is outside"},
		{"a relative path", withDir, "", "file://f.jsonl", "absolute path"},
	}
	for _, tc := range tests {
		status, typ, msg := createMapping(t, tc.server, mappingBody(tc.endpoint, tc.dest))
		if tc.refused == "" {
			require.Equal(t, http.StatusAccepted, status, "%s: %s %s", tc.name, typ, msg)
			continue
		}
		require.Equal(t, http.StatusBadRequest, status, tc.name)
		require.Equal(t, "InvalidParameterValueException", typ, tc.name)
		require.Contains(t, msg, tc.refused, tc.name)
	}
	require.Len(t, e.Streams().Mappings(), 7, "the refused mappings of the closed server were made")

	// An update is checked as a create: the mapping keeps its settings.
	uuid := e.Streams().Mappings()[0].UUID
	status, typ, msg := sendMapping(t, http.MethodPut, closed+"/2015-03-31/event-source-mappings/"+uuid, `{"Endpoint":"http://elsewhere.example:9999"}`)
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, "InvalidParameterValueException", typ)
	require.Contains(t, msg, "-streamHandlerRemote")
	status, _, msg = sendMapping(t, http.MethodPut, closed+"/2015-03-31/event-source-mappings/"+uuid,
		`{"DestinationConfig":{"OnFailure":{"Destination":"file:///etc/cron.d/x"}}}`)
	require.Equal(t, http.StatusBadRequest, status)
	require.Contains(t, msg, "-streamHandlerFileDir")
	status, _, _ = sendMapping(t, http.MethodPut, closed+"/2015-03-31/event-source-mappings/"+uuid, `{"Endpoint":"http://localhost:3003"}`)
	require.Equal(t, http.StatusAccepted, status, "an update to loopback")

	// The Go API is checked alike.
	_, err := e.Streams().CreateMapping(emulator.EventSourceMapping{TableName: aws.String("orders"), FunctionName: aws.String("fn"),
		StartingPosition: aws.String("LATEST"), Endpoint: aws.String("http://elsewhere.example")})
	require.ErrorContains(t, err, "-streamHandlerRemote")
	_, err = e.Streams().CreateMapping(emulator.EventSourceMapping{TableName: aws.String("orders"), FunctionName: aws.String("fn"),
		StartingPosition: aws.String("LATEST"), OnFailureDestination: aws.String("file:///tmp/x.jsonl")})
	require.ErrorContains(t, err, "Options.StreamHandlerFileDir")
	require.Len(t, e.Streams().Mappings(), 7)

	_, err = emulator.New(emulator.Options{StreamHandlerFileDir: filepath.Join(outside, "missing")})
	require.ErrorContains(t, err, "StreamHandlerFileDir")
}

// TestStreamHandlerFileDestinationStaysInside: a file:// destination is
// written through the directory itself (os.Root), so a symbolic link
// placed in it does not lead the records out: the batch is still given
// up on (and kept), and nothing is written outside.
func TestStreamHandlerFileDestinationStaysInside(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "link")))
	env := newHandlerEnvWith(t, emulator.Options{StreamHandlerFileDir: dir}, failOn("x", "y"))
	inside := env.mapping(t, func(m *emulator.EventSourceMapping) {
		m.MaximumRetryAttempts = aws.Int64(0)
		m.OnFailureDestination = aws.String("file://" + filepath.Join(dir, "failures.jsonl"))
		m.FilterPatterns = []string{`{"dynamodb":{"Keys":{"id":{"S":["x"]}}}}`}
	})
	escaping := env.mapping(t, func(m *emulator.EventSourceMapping) {
		m.MaximumRetryAttempts = aws.Int64(0)
		m.OnFailureDestination = aws.String("file://" + filepath.Join(dir, "link", "failures.jsonl"))
		m.FilterPatterns = []string{`{"dynamodb":{"Keys":{"id":{"S":["y"]}}}}`}
	})
	env.put(t, "x", nil)
	env.put(t, "y", nil)
	env.drain(t)
	b, err := os.ReadFile(filepath.Join(dir, "failures.jsonl"))
	require.NoError(t, err)
	require.Equal(t, 1, bytes.Count(b, []byte("\n")), "%s", b)
	_, err = os.Stat(filepath.Join(outside, "failures.jsonl"))
	require.True(t, os.IsNotExist(err), "a record was written through the link: %v", err)
	for _, id := range []string{inside, escaping} {
		fails, err := env.e.Streams().Failures(id)
		require.NoError(t, err)
		require.Len(t, fails, 1, "the batch given up on is kept")
	}
}

// TestStreamHandlerNoRedirect: the function's endpoint is called, never
// a place it redirects to (Lambda's Invoke API does not redirect): a
// redirect is the function's failure.
func TestStreamHandlerNoRedirect(t *testing.T) {
	var elsewhere atomic.Int64
	far := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { elsewhere.Add(1) }))
	t.Cleanup(far.Close)
	env := newHandlerEnv(t, nil)
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, far.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirect.Close)
	id := env.mapping(t, func(m *emulator.EventSourceMapping) {
		m.MaximumRetryAttempts = aws.Int64(0)
		m.Endpoint = aws.String(redirect.URL)
	})
	env.put(t, "x", nil)
	env.drain(t)
	require.Zero(t, elsewhere.Load(), "the redirect was followed")
	fails, err := env.e.Streams().Failures(id)
	require.NoError(t, err)
	require.Len(t, fails, 1)
	require.Contains(t, string(fails[0]), `"statusCode":307`)
}

// TestStreamHandlerTargetsOfFiles: the operator's files are checked
// alike: a mappings file or a serverless.yml whose mapping names
// another host or a file is refused, naming the flag, unless the
// options allow it; the function's default endpoint (the file's
// lambdaEndpoint, -lambdaEndpoint) is the operator's own and may be
// anywhere.
func TestStreamHandlerTargetsOfFiles(t *testing.T) {
	files := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(files, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o600))
		return p
	}
	remote := write("remote.json", `{"mappings":[{"TableName":"t","FunctionName":"f","StartingPosition":"LATEST",
		"Endpoint":"http://lambda.example:3002"}]}`)
	defaultRemote := write("default.json", `{"lambdaEndpoint":"http://lambda.example:3002",
		"mappings":[{"TableName":"t","FunctionName":"f","StartingPosition":"LATEST"}]}`)
	sls := write("serverless.yml", `service: shop
functions:
  audit:
    events:
      - stream:
          type: dynamodb
          arn: arn:aws:dynamodb:us-east-1:000000000000:table/invoices/stream/x
          destinations:
            onFailure: file://`+filepath.Join(files, "failures.jsonl")+`
`)

	e, _ := emulatortest.NewWith(t, emulator.Options{})
	require.ErrorContains(t, e.Streams().LoadMappings(remote), "-streamHandlerRemote")
	require.NoError(t, e.Streams().LoadMappings(defaultRemote))
	_, err := e.Streams().LoadServerless(sls, func(string) string { return "" })
	require.ErrorContains(t, err, "-streamHandlerFileDir")
	require.Len(t, e.Streams().Mappings(), 1)

	allowed, _ := emulatortest.NewWith(t, emulator.Options{StreamHandlerRemote: true, StreamHandlerFileDir: files})
	require.NoError(t, allowed.Streams().LoadMappings(remote))
	_, err = allowed.Streams().LoadServerless(sls, func(string) string { return "" })
	require.NoError(t, err)
	require.Len(t, allowed.Streams().Mappings(), 2)
}

// syncLog is a log's text, written by the server's goroutines.
type syncLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestStreamHandlerTargetsCheckedAtRestart: the saved mappings are made
// again at a restart through the same checks: a mapping whose Endpoint
// or destination the options no longer allow (made when they did, or
// saved by a version that checked nothing) is not made again, the log
// says which and why, and it is gone from the next save.
func TestStreamHandlerTargetsCheckedAtRestart(t *testing.T) {
	data, files := t.TempDir(), t.TempDir()
	allow := emulator.Options{DataDir: data, StreamHandlerFileDir: files, StreamHandlerRemote: true}
	e, err := emulator.New(allow)
	require.NoError(t, err)
	toFile, err := e.Streams().CreateMapping(emulator.EventSourceMapping{TableName: aws.String("orders"), FunctionName: aws.String("fn"),
		StartingPosition: aws.String("LATEST"), OnFailureDestination: aws.String("file://" + filepath.Join(files, "f.jsonl"))})
	require.NoError(t, err)
	toHost, err := e.Streams().CreateMapping(emulator.EventSourceMapping{TableName: aws.String("orders"), FunctionName: aws.String("fn"),
		StartingPosition: aws.String("LATEST"), Endpoint: aws.String("http://lambda.example:3002")})
	require.NoError(t, err)
	local, err := e.Streams().CreateMapping(emulator.EventSourceMapping{TableName: aws.String("orders"), FunctionName: aws.String("fn"),
		StartingPosition: aws.String("LATEST"), Endpoint: aws.String("http://localhost:3002")})
	require.NoError(t, err)
	require.NoError(t, e.Close())

	uuids := func(e *emulator.Emulator) []string {
		var out []string
		for _, s := range e.Streams().Mappings() {
			out = append(out, s.UUID)
		}
		return out
	}
	e, err = emulator.New(allow)
	require.NoError(t, err)
	require.Equal(t, []string{toFile, toHost, local}, uuids(e), "allowed: all made again")
	require.NoError(t, e.Close())

	var log syncLog
	e, err = emulator.New(emulator.Options{DataDir: data, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	require.NoError(t, err)
	require.Equal(t, []string{local}, uuids(e), "not allowed: left out")
	require.Contains(t, log.String(), toFile)
	require.Contains(t, log.String(), toHost)
	require.Contains(t, log.String(), "-streamHandlerFileDir")
	require.Contains(t, log.String(), "-streamHandlerRemote")
	require.NoError(t, e.Close())

	e, err = emulator.New(allow)
	require.NoError(t, err)
	defer e.Close()
	require.Equal(t, []string{local}, uuids(e), "the left-out mappings are gone from the save")
	require.NoError(t, e.Streams().Drain(context.Background()))
}
