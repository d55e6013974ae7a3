package emulator

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// fixedTestClock is the clock of the emulators compared by
// TestLoopMatchesStd: their answers must not differ by a timestamp.
func fixedTestClock() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

// startServer starts a Server of e with loop on 127.0.0.1:0; the test
// closes it. Timeouts so leaves zero are hangBounds'.
func startServer(t *testing.T, e *Emulator, so ServerOptions) (*Server, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := e.NewServer(hangBounds(so))
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return srv, ln.Addr().String()
}

// hangBounds is so with the read, header and write timeouts it leaves
// zero set to bounds that only catch a hang, times
// DYNAMOEMU_TEST_TIMEOUT_SCALE, for the test servers: under -race on a
// busy machine a body of megabytes, read while it is decoded, can
// outlast the 60 s default (which users get unchanged). Tests of a
// timeout set it.
func hangBounds(so ServerOptions) ServerOptions {
	set := func(d *time.Duration, bound time.Duration) {
		if *d == 0 {
			*d = testkit.Scaled(bound)
		}
	}
	set(&so.ReadHeaderTimeout, 2*time.Minute)
	set(&so.ReadTimeout, 5*time.Minute)
	set(&so.WriteTimeout, 5*time.Minute)
	return so
}

// TestLoopMatchesStd sends the same random requests, API calls of every
// form and requests the loop hands to net/http, to a server with the loop
// and to one without (each in front of its own emulator, with the same
// clock and the same history), and compares what the SDKs read of the
// answers: the status, Content-Type, Content-Encoding, x-amz-crc32,
// Content-Length, whether the connection closes, and the body.
func TestLoopMatchesStd(t *testing.T) {
	addrs := map[HTTPLoop]string{}
	for _, loop := range []HTTPLoop{LoopOwn, LoopStd} {
		e := newTestEmulator(t, Options{Clock: fixedTestClock, MaxBodyBytes: 64 << 10})
		_, addrs[loop] = startServer(t, e, ServerOptions{Loop: loop, MaxHeaderBytes: 4 << 10})
	}
	rnd := rand.New(rand.NewPCG(1, 25))
	setup := []string{
		apiCall("CreateTable", `{"TableName":"loop","BillingMode":"PAY_PER_REQUEST",
			"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],
			"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}`),
	}
	for i := range 12 { // one partition of 12 KB: Query answers are compressed when asked
		setup = append(setup, apiCall("PutItem",
			fmt.Sprintf(`{"TableName":"loop","Item":{"pk":{"S":"big"},"sk":{"N":"%d"},"pad":{"S":"%s"}}}`, i, strings.Repeat("p", 1000))))
	}
	for _, req := range setup {
		for _, addr := range addrs {
			if got := exchange(t, addr, []string{req}); got[0].status != 200 {
				t.Fatalf("setup: %+v", got[0])
			}
		}
	}
	for i := range 400 {
		var reqs []string
		for range 1 + rnd.IntN(3) { // pipelined on one connection
			reqs = append(reqs, randomRequest(rnd))
		}
		own, std := exchange(t, addrs[LoopOwn], reqs), exchange(t, addrs[LoopStd], reqs)
		if fmt.Sprint(own) != fmt.Sprint(std) {
			t.Fatalf("case %d, requests %q:\nloop:     %+v\nnet/http: %+v", i, reqs, own, std)
		}
	}
}

// apiCall is a raw API call of op with body.
func apiCall(op, body string) string { return rawRequest(op, testkit.DefaultAuth, len(body), body) }

// answer is what TestLoopMatchesStd compares of a response.
type answer struct {
	status                             int
	contentType, encoding, crc, length string
	closed                             bool
	body                               string
}

// exchange writes reqs on one connection at once and reads their answers
// (fewer when the connection closes first).
func exchange(t *testing.T, addr string, reqs []string) []answer {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, strings.Join(reqs, "")); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	var out []answer
	for range reqs {
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				break
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatalf("no answer from %s to %q", addr, reqs)
			}
			break // connection reset
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		out = append(out, answer{status: res.StatusCode, contentType: res.Header.Get("Content-Type"),
			encoding: res.Header.Get("Content-Encoding"), crc: res.Header.Get("X-Amz-Crc32"),
			length: res.Header.Get("Content-Length"), closed: res.Close, body: string(body)})
		if res.Close {
			break
		}
	}
	return out
}

// randomRequest builds one request: half of them well-formed API calls
// (answered 200, compressed when large and asked to be), the others API
// calls with a header or two wrong or unusual, and requests of other forms.
func randomRequest(rnd *rand.Rand) string {
	clean := rnd.IntN(2) == 0
	pick := func(s ...string) string {
		if clean {
			return s[0]
		}
		return s[rnd.IntN(len(s))]
	}
	any := func(s ...string) string { return s[rnd.IntN(len(s))] }
	target := any("GetItem", "PutItem", "Query", "ListTables", "UpdateItem")
	if !clean && rnd.IntN(4) == 0 {
		target = any("NoSuchOp", "")
	}
	sk := strconv.Itoa(rnd.IntN(15))
	body := map[string]string{
		"GetItem":    `{"TableName":"loop","Key":{"pk":{"S":"big"},"sk":{"N":"` + sk + `"}}}`,
		"PutItem":    `{"TableName":"loop","Item":{"pk":{"S":"p` + sk + `"},"sk":{"N":"1"},"v":{"S":"` + strings.Repeat("v", rnd.IntN(50)) + `"}}}`,
		"Query":      `{"TableName":"loop","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"big"}}}`,
		"ListTables": `{}`,
		"UpdateItem": `{"TableName":"loop","Key":{"pk":{"S":"u"},"sk":{"N":"1"}},"UpdateExpression":"ADD n :one","ExpressionAttributeValues":{":one":{"N":"1"}},"ReturnValues":"ALL_NEW"}`,
		"NoSuchOp":   `{}`,
		"":           `{}`,
	}[target]
	if !clean && rnd.IntN(10) == 0 {
		body = `{"TableName":` // not JSON
	}
	proto := any("HTTP/1.1", "HTTP/1.1", "HTTP/1.1", "HTTP/1.0")
	line := "POST / " + proto
	switch rnd.IntN(14) {
	case 0:
		line = "GET / " + proto
	case 1:
		line = "POST /?x=1 " + proto
	case 2:
		line = "POST /nowhere " + proto
	case 3:
		line = "post / " + proto
	}
	if clean {
		line = "POST / " + proto
	}
	var h []string
	if proto == "HTTP/1.1" || rnd.IntN(2) == 0 {
		h = append(h, "Host: "+pick("localhost:8000", "127.0.0.1", "evil.example", "[::1]:8000", "dynamodb"))
	}
	if target != "" {
		h = append(h, "X-Amz-Target: DynamoDB_20120810."+target)
	}
	h = append(h, any("Content-Type: application/x-amz-json-1.0", "Content-Type: application/x-amz-json-1.1", pick("Content-Type: application/x-amz-json-1.0", "")))
	h = append(h, pick("Authorization: "+testkit.DefaultAuth, "Authorization: "+testkit.DefaultAuth, "Authorization: "+testkit.Auth("bad-key", "us-east-1"),
		"Authorization: AWS4-HMAC-SHA256 nothing", ""))
	h = append(h, any("", "", "Accept-Encoding: gzip", "Accept-Encoding: deflate;q=0.5, gzip;q=0.1", "Accept-Encoding: identity"))
	h = append(h, any("", "", "", "Connection: close", "Connection: keep-alive", "X-Tenant-Code: t1"))
	h = append(h, pick("", "", "", "Origin: http://localhost:3000", "Origin: http://evil.example", "Expect: 100-continue", "Upgrade: websocket"))
	coded := []byte(body)
	c := rnd.IntN(8)
	if clean && c > 0 {
		c = 7
	}
	switch c {
	case 0:
		var zb bytes.Buffer
		zw := gzip.NewWriter(&zb)
		_, _ = zw.Write(coded)
		_ = zw.Close()
		coded = zb.Bytes()
		h = append(h, "Content-Encoding: gzip")
	case 1:
		h = append(h, "Content-Encoding: gzip") // not gzip
	case 2:
		h = append(h, "Content-Encoding: br")
	}
	var b strings.Builder
	b.WriteString(line + "\r\n")
	for _, v := range h {
		if v != "" {
			b.WriteString(v + "\r\n")
		}
	}
	c = rnd.IntN(12)
	if clean {
		c = 11
	}
	switch c {
	case 0: // chunked
		fmt.Fprintf(&b, "Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n", len(coded), coded)
		return b.String()
	case 1: // too large
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", 100<<10, bytes.Repeat([]byte{' '}, 100<<10))
		return b.String()
	case 2: // headers too large
		b.WriteString("X-Pad: " + strings.Repeat("h", 5<<10) + "\r\n")
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(coded), coded)
	return b.String()
}

// TestLoopHandOffKeepsPipelinedBytes: an API call followed on the same
// connection, in the same write, by a request the loop hands to net/http
// and another API call: three answers, in order.
func TestLoopHandOffKeepsPipelinedBytes(t *testing.T) {
	e := newTestEmulator(t, Options{})
	srv, addr := startServer(t, e, ServerOptions{})
	list := rawRequest("ListTables", testkit.DefaultAuth, 2, "{}")
	got := exchange(t, addr, []string{list, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n", list})
	var statuses []int
	for _, a := range got {
		statuses = append(statuses, a.status)
	}
	if fmt.Sprint(statuses) != "[200 200 200]" || !srv.loop.StdServing() {
		t.Fatalf("got statuses %v (net/http serving: %v), want [200 200 200] after a hand-off", statuses, srv.loop.StdServing())
	}
}

// TestLoopShutdown: Shutdown closes idle connections at once, lets an
// active request finish (its answer says Connection: close), shuts the
// handed-off connections' net/http server down, and returns when all are
// gone; Serve returns http.ErrServerClosed.
func TestLoopShutdown(t *testing.T) {
	e := newTestEmulator(t, Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := e.NewServer(ServerOptions{})
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	addr := ln.Addr().String()

	idle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	if got := exchangeOn(t, idle, rawRequest("ListTables", testkit.DefaultAuth, 2, "{}")); got.status != 200 {
		t.Fatalf("idle connection's request: %+v", got)
	}
	handed, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer handed.Close()
	if got := exchangeOn(t, handed, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"); got.status != 200 {
		t.Fatalf("handed-off connection's request: %+v", got)
	}

	gate := newTestGate()
	active, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer active.Close()
	if _, err := io.WriteString(active, rawRequest("TestBlock", testkit.DefaultAuth, len(gate.body), gate.body)); err != nil {
		t.Fatal(err)
	}
	for e.serve.Limit.InFlight.Load() != 1 {
		time.Sleep(time.Millisecond)
	}
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(context.Background()) }()

	for _, c := range []net.Conn{idle, handed} {
		_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if n, err := c.Read(make([]byte, 1)); n != 0 || err == nil {
			t.Fatalf("idle connection after Shutdown: read %d, %v; want it closed", n, err)
		}
	}
	if _, err := net.Dial("tcp", addr); err == nil {
		t.Error("a connection was accepted after Shutdown")
	}
	gate.open()
	res, err := http.ReadResponse(bufio.NewReader(active), nil)
	if err != nil || res.StatusCode != 200 || !res.Close {
		t.Fatalf("active request: got %v, %v; want 200 and Connection: close", res, err)
	}
	if err := <-shut; err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		t.Fatalf("Serve returned %v, want http.ErrServerClosed", err)
	}
	if n := srv.OpenConns(); n != 0 {
		t.Fatalf("open connections after Shutdown: %d", n)
	}
}

// exchangeOn writes one request on c and reads its answer.
func exchangeOn(t *testing.T, c net.Conn, req string) answer {
	t.Helper()
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	return answer{status: res.StatusCode, closed: res.Close, body: string(body)}
}

// TestLoopListenAndServe: Server.ListenAndServe serves API calls with the
// connection loop, as Serve does (the embedded http.Server's method would
// bypass it), and returns http.ErrServerClosed after Shutdown.
func TestLoopListenAndServe(t *testing.T) {
	for _, loop := range []HTTPLoop{LoopOwn, LoopStd} {
		t.Run(string(loop), func(t *testing.T) {
			e := newTestEmulator(t, Options{})
			srv := e.NewServer(ServerOptions{Loop: loop})
			free, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			srv.Addr = free.Addr().String()
			free.Close()
			served := make(chan error, 1)
			go func() { served <- srv.ListenAndServe() }()
			var c net.Conn
			for deadline := time.Now().Add(10 * time.Second); ; {
				if c, err = net.Dial("tcp", srv.Addr); err == nil || time.Now().After(deadline) {
					break
				}
				time.Sleep(time.Millisecond)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if got := exchangeOn(t, c, rawRequest("ListTables", testkit.DefaultAuth, 2, "{}")); got.status != 200 {
				t.Fatalf("ListTables: %+v", got)
			}
			inLoop := 0
			if srv.loop != nil {
				inLoop = srv.loop.Serving()
			}
			if want := map[HTTPLoop]int{LoopOwn: 1, LoopStd: 0}[loop]; inLoop != want {
				t.Fatalf("connections the loop serves: got %d, want %d", inLoop, want)
			}
			if err := srv.Shutdown(context.Background()); err != nil {
				t.Fatalf("Shutdown: %v", err)
			}
			if err := <-served; !errors.Is(err, http.ErrServerClosed) {
				t.Fatalf("ListenAndServe returned %v, want http.ErrServerClosed", err)
			}
		})
	}
}
