package emulator

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// The HTTP server against hostile clients: silent and slow
// bodies and headers, idle connections, unread responses, huge headers,
// each reproduced on a real connection and asserted on bytes and answers,
// never on how long anything took. The access keys are in auth_test.go,
// the in-flight limit and memory returned after DeleteTable in
// limits_test.go.

// logSink collects the emulator's log lines (all levels) for tests that
// wait for one: lines arrive on a channel.
type logSink struct{ lines chan string }

func newLogSink() *logSink { return &logSink{lines: make(chan string, 4096)} }

func (s *logSink) Enabled(context.Context, slog.Level) bool { return true }
func (s *logSink) WithAttrs([]slog.Attr) slog.Handler       { return s }
func (s *logSink) WithGroup(string) slog.Handler            { return s }
func (s *logSink) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	r.Attrs(func(a slog.Attr) bool {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		return true
	})
	fmt.Fprintf(&b, " level=%s", r.Level)
	select {
	case s.lines <- b.String():
	default:
	}
	return nil
}

// await returns the first log line containing all of want; the test's
// own deadline bounds the wait.
func (s *logSink) await(t *testing.T, want ...string) string {
	t.Helper()
	for line := range s.lines {
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(line, w)
		}
		if ok {
			return line
		}
	}
	return ""
}

// hardServer is an emulator served over loopback by Server.
type hardServer struct {
	e    *Emulator
	srv  *Server
	addr string
	logs *logSink
}

// newHardServer serves an emulator of opts with so (timeouts it leaves
// zero are hangBounds').
func newHardServer(t *testing.T, opts Options, so ServerOptions) *hardServer {
	t.Helper()
	logs := newLogSink()
	opts.Logger = slog.New(logs)
	e := newTestEmulator(t, opts)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := e.NewServer(hangBounds(so))
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return &hardServer{e: e, srv: srv, addr: ln.Addr().String(), logs: logs}
}

// rawRequest is the head of a request announcing contentLength bytes of
// body, followed by body.
func rawRequest(op, auth string, contentLength int, body string) string {
	return "POST / HTTP/1.1\r\nHost: localhost\r\nX-Amz-Target: DynamoDB_20120810." + op +
		"\r\nContent-Type: application/x-amz-json-1.0\r\nAuthorization: " + auth +
		"\r\nContent-Length: " + strconv.Itoa(contentLength) + "\r\n\r\n" + body
}

func (h *hardServer) dial(t *testing.T) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", h.addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// waitInFlight waits until n requests are being served.
func (h *hardServer) waitInFlight(t *testing.T, n int64) {
	t.Helper()
	for h.e.serve.Limit.InFlight.Load() != n {
		time.Sleep(5 * time.Millisecond) // polling, bounded by the test deadline
	}
}

// waitReading waits until n requests are reading their bodies.
func (h *hardServer) waitReading(t *testing.T, n int64) {
	t.Helper()
	for h.e.serve.Limit.Reading.Load() != n {
		time.Sleep(5 * time.Millisecond) // polling, bounded by the test deadline
	}
}

// TestSilentBodiesHoldNoMemory: 100 connections announcing 16 MB bodies
// and sending a few bytes raise the live heap by less than 10 MB (it was
// 1.6 GB when Content-Length reserved the buffer).
func TestSilentBodiesHoldNoMemory(t *testing.T) {
	h := newHardServer(t, Options{}, ServerOptions{})
	before := testkit.LiveHeap()
	const conns = 100
	for range conns {
		c := h.dial(t)
		if _, err := io.WriteString(c, rawRequest("PutItem", testkit.DefaultAuth, defaultMaxBodyBytes, `{"TableName":"t","Item":{"pk":{"S":"`)); err != nil {
			t.Fatal(err)
		}
	}
	h.waitReading(t, conns)
	after := testkit.LiveHeap()
	grown := int64(after) - int64(before)
	t.Logf("live heap %d -> %d bytes (%+d) with %d silent 16 MB requests", before, after, grown, conns)
	if grown >= 10<<20 {
		t.Fatalf("live heap grew by %d bytes, want < 10 MB", grown)
	}
}

// TestBodyCutOff: a body that stops arriving is cut off at the read
// timeout: the client is answered 408 RequestTimeoutException saying how
// much arrived, the connection closes, and the log names the client and
// the bytes received.
func TestBodyCutOff(t *testing.T) {
	for _, loop := range []HTTPLoop{LoopOwn, LoopStd} {
		t.Run(string(loop), func(t *testing.T) {
			h := newHardServer(t, Options{}, ServerOptions{Loop: loop, ReadTimeout: 300 * time.Millisecond})
			c := h.dial(t)
			sent := `{"TableName":`
			_, err := io.WriteString(c, rawRequest("PutItem", testkit.DefaultAuth, 1000, sent))
			require.NoError(t, err)
			res, err := http.ReadResponse(bufio.NewReader(c), nil)
			require.NoError(t, err)
			body, err := io.ReadAll(res.Body)
			require.NoError(t, err)
			require.Equal(t, http.StatusRequestTimeout, res.StatusCode, string(body))
			require.True(t, res.Close, "the connection closes")
			typ, msg := testkit.ErrorOf(string(body))
			require.Equal(t, "RequestTimeoutException", typ)
			require.Contains(t, string(body), `"__type":"com.amazon.coral.service#RequestTimeoutException"`)
			require.Equal(t, "The request body did not arrive in time: the server's read timeout passed; 13 of its 1000 bytes were received.", msg)
			line := h.logs.await(t, "request body cut off", "received=13")
			require.Contains(t, line, "remote="+c.LocalAddr().String())
			require.Contains(t, line, "announced=1000")
			require.Contains(t, line, "level=WARN")
		})
	}
}

// TestIdleConnectionClosed: a keep-alive connection left idle is closed.
func TestIdleConnectionClosed(t *testing.T) {
	h := newHardServer(t, Options{}, ServerOptions{IdleTimeout: 300 * time.Millisecond})
	c := h.dial(t)
	if _, err := io.WriteString(c, rawRequest("ListTables", testkit.DefaultAuth, 2, `{}`)); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || string(body) != `{"TableNames":[]}` {
		t.Fatalf("got %d %s", res.StatusCode, body)
	}
	// Now idle: the server closes the connection.
	if n, err := br.Read(make([]byte, 1)); n != 0 || err == nil {
		t.Fatalf("got %d bytes, %v; want the connection closed", n, err)
	}
	h.logs.await(t, "connection cut off", "idle timeout")
	for h.srv.OpenConns() != 0 {
		time.Sleep(5 * time.Millisecond)
	}
}

// TestSlowHeadersCutOff: headers that stop arriving are cut off, on a new
// connection and on a keep-alive one between requests.
func TestSlowHeadersCutOff(t *testing.T) {
	h := newHardServer(t, Options{}, ServerOptions{ReadHeaderTimeout: 300 * time.Millisecond})
	partial := "POST / HTTP/1.1\r\nHost: localhost\r\nX-Amz-Tar"
	c := h.dial(t)
	if _, err := io.WriteString(c, partial); err != nil {
		t.Fatal(err)
	}
	_, _ = io.ReadAll(c) // net/http may answer 400 Bad Request; then the end
	h.logs.await(t, "connection cut off", "read timeout (request headers)")

	c = h.dial(t)
	if _, err := io.WriteString(c, rawRequest("ListTables", testkit.DefaultAuth, 2, `{}`)+partial); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	_, _ = io.ReadAll(br)
	h.logs.await(t, "connection cut off", "read timeout (request headers)")
}

// TestUnreadResponseDropped: a client that does not read a 16 MB
// response is cut off at the write timeout and the connection dropped.
func TestUnreadResponseDropped(t *testing.T) {
	h := newHardServer(t, Options{}, ServerOptions{WriteTimeout: time.Second})
	res, body := do(t, h.e, "DynamoDB_20120810.CreateTable", testkit.DefaultAuth, `{"TableName":"big","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	if res.StatusCode != 200 {
		t.Fatalf("CreateTable: %s", body)
	}
	const items = 41 // 41 items of 390 KB: a 16 MB BatchGetItem answer
	fillTable(t, h.e, "big", items)
	var keys []string
	for i := range items {
		keys = append(keys, fmt.Sprintf(`{"pk":{"S":"k%03d"}}`, i))
	}
	req := `{"RequestItems":{"big":{"Keys":[` + strings.Join(keys, ",") + `]}}}`
	c := h.dial(t)
	if _, err := io.WriteString(c, rawRequest("BatchGetItem", testkit.DefaultAuth, len(req), req)); err != nil {
		t.Fatal(err)
	}
	// Read nothing until the server gives up writing.
	h.logs.await(t, "connection cut off", "write timeout")
	got, _ := io.Copy(io.Discard, c) // what the kernel buffered, then the end
	if got >= 16<<20 {
		t.Fatalf("read %d bytes: the whole response arrived", got)
	}
	t.Logf("the client got %d bytes of a ~16 MB response before the connection was dropped", got)
	for h.srv.OpenConns() != 0 {
		time.Sleep(5 * time.Millisecond)
	}
}

// TestLargeHeadersRefused: headers past MaxHeaderBytes (a megabyte-long
// access key) get 431 and reach no handler.
func TestLargeHeadersRefused(t *testing.T) {
	h := newHardServer(t, Options{}, ServerOptions{})
	c := h.dial(t)
	if _, err := io.WriteString(c, rawRequest("ListTables", testkit.Auth(strings.Repeat("k", 1<<20), "us-east-1"), 2, `{}`)); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("got %d, want 431", res.StatusCode)
	}
	if n := h.e.namespaceCount(); n != 0 {
		t.Fatalf("got %d namespaces", n)
	}
}

// TestServerOptionsDefaults: zero options take the defaults.
func TestServerOptionsDefaults(t *testing.T) {
	e := newTestEmulator(t, Options{})
	s := e.NewServer(ServerOptions{})
	got := []any{s.ReadHeaderTimeout, s.ReadTimeout, s.WriteTimeout, s.IdleTimeout, s.MaxHeaderBytes}
	want := []any{defaultReadHeaderTimeout, defaultReadTimeout, defaultWriteTimeout, defaultIdleTimeout, defaultMaxHeaderBytes}
	b1, _ := json.Marshal(got)
	b2, _ := json.Marshal(want)
	if string(b1) != string(b2) {
		t.Fatalf("got %s, want %s", b1, b2)
	}
	if _, err := New(Options{MaxInFlight: -1}); err == nil {
		t.Error("negative MaxInFlight accepted")
	}
}
