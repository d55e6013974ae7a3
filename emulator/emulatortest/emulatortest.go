package emulatortest

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// Region is the region of the clients made here.
const Region = "us-east-1"

var keySeq atomic.Uint64

// uniqueAccessKey returns an access key id no other test of this process uses.
func uniqueAccessKey(t testing.TB) string {
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, t.Name())
	if len(name) > 40 {
		name = name[:40]
	}
	return fmt.Sprintf("AKIA%s%d", name, keySeq.Add(1))
}

// New returns a DynamoDB client wired straight into a fresh emulator's handler.
func New(t testing.TB) *dynamodb.Client {
	t.Helper()
	_, c := NewWith(t, emulator.Options{})
	return c
}

// NewWith is New with options; it also returns the emulator. Options
// that leave Consistency "" take it from ConsistencyEnv.
func NewWith(t testing.TB, opts emulator.Options) (*emulator.Emulator, *dynamodb.Client) {
	t.Helper()
	e, err := emulator.New(fromEnv(opts))
	if err != nil {
		t.Fatalf("emulatortest: %v", err)
	}
	t.Cleanup(func() { e.Close() })
	return e, Client(t, e, uniqueAccessKey(t))
}

// Client returns a client for e that signs with accessKey (each access key +
// region is its own database unless the emulator shares one).
func Client(t testing.TB, e *emulator.Emulator, accessKey string) *dynamodb.Client {
	t.Helper()
	hc := &http.Client{Transport: handlerTransport{e.Handler()}}
	t.Cleanup(hc.CloseIdleConnections)
	return newClient("http://dynamoemu.invalid", accessKey, hc)
}

// NewServer starts a fresh emulator on 127.0.0.1:0 and returns its URL and a
// client that talks to it over HTTP. The server closes at the end of the test.
func NewServer(t testing.TB) (url string, client *dynamodb.Client) {
	t.Helper()
	url, _, client = NewServerWith(t, emulator.Options{})
	return url, client
}

// NewServerWith is NewServer with options; it also returns the emulator.
// Options that leave Consistency "" take it from ConsistencyEnv.
func NewServerWith(t testing.TB, opts emulator.Options) (string, *emulator.Emulator, *dynamodb.Client) {
	t.Helper()
	e, err := emulator.New(fromEnv(opts))
	if err != nil {
		t.Fatalf("emulatortest: %v", err)
	}
	t.Cleanup(func() { e.Close() })
	// Served as cmd/dynamoemu serves: emulator.Server, its connection loop
	// (or net/http alone with DYNAMOEMU_HTTP_LOOP=std).
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("emulatortest: %v", err)
	}
	srv := e.NewServer(serverOptions())
	go func() { _ = srv.Serve(ln) }()
	hc := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(func() {
		hc.CloseIdleConnections()
		_ = srv.Close()
	})
	url := "http://" + ln.Addr().String()
	return url, e, newClient(url, uniqueAccessKey(t), hc)
}

// serverOptions are the server's: its connection loop (DYNAMOEMU_HTTP_LOOP)
// and the default timeouts times DYNAMOEMU_TEST_TIMEOUT_SCALE (unset: the
// defaults), for a test machine so busy that a client or the server under
// -race cannot move a large request or answer within them.
func serverOptions() emulator.ServerOptions {
	d := emulator.ServerOptions{}.WithDefaults()
	scaled := func(d time.Duration) time.Duration {
		if f, err := strconv.ParseFloat(os.Getenv("DYNAMOEMU_TEST_TIMEOUT_SCALE"), 64); err == nil && f > 0 {
			return time.Duration(float64(d) * f)
		}
		return d
	}
	return emulator.ServerOptions{
		Loop:              emulator.HTTPLoop(os.Getenv("DYNAMOEMU_HTTP_LOOP")),
		ReadHeaderTimeout: scaled(d.ReadHeaderTimeout),
		ReadTimeout:       scaled(d.ReadTimeout),
		WriteTimeout:      scaled(d.WriteTimeout),
	}
}

func newClient(endpoint, accessKey string, hc *http.Client) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       Region,
		BaseEndpoint: aws.String(endpoint),
		Credentials:  credentials.NewStaticCredentialsProvider(accessKey, "secret", ""),
		HTTPClient:   hc,
		Retryer:      ConnectionRetryer(),
	})
}

// ConnectionRetryer retries a request only when the connection failed
// (for example the SDK's own "use of closed network connection" race on a
// reused keep-alive connection, aws/aws-sdk-go-v2#2737), up to 3 attempts
// and without back-off budget; an answer from the emulator, a 500
// included, is never retried, so a test sees the first error it gets.
func ConnectionRetryer() aws.Retryer {
	return retry.NewStandard(func(o *retry.StandardOptions) {
		o.MaxAttempts = 3
		o.Retryables = []retry.IsErrorRetryable{retry.RetryableConnectionError{}}
		o.RateLimiter = ratelimit.None
	})
}

// handlerTransport is an http.RoundTripper that serves each request with an
// in-process handler.
type handlerTransport struct{ h http.Handler }

func (tr handlerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	// Read the body first, as a server would, so the handler sees a plain
	// request (RoundTrippers must not modify the caller's request).
	r := req.Clone(req.Context())
	if req.Body != nil {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
	}
	r.RequestURI = r.URL.RequestURI()
	r.RemoteAddr = "127.0.0.1:0"
	rec := httptest.NewRecorder()
	tr.h.ServeHTTP(rec, r)
	res := rec.Result()
	res.Request = req
	return res, nil
}
