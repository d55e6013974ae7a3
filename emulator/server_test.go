package emulator

import (
	"bytes"
	"encoding/json"
	"errors"
	"hash/crc32"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/httploop"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/stretchr/testify/require"
)

const echo = "DynamoDB_20120810.TestEcho"

func TestRouting(t *testing.T) {
	tests := []struct {
		name       string
		target     string
		auth       string
		body       string
		wantStatus int
		wantBody   string
	}{
		{"ok", echo, testkit.DefaultAuth, `{"TableName":"t"}`, 200,
			`{"TableName":"t","Region":"us-east-1","Namespace":"AKID1/us-east-1"}`},
		{"empty body is {}", echo, testkit.DefaultAuth, ``, 200,
			`{"Region":"us-east-1","Namespace":"AKID1/us-east-1"}`},
		{"unknown op", "DynamoDB_20120810.Nope", testkit.DefaultAuth, `{}`, 400,
			`{"__type":"com.amazon.coral.service#UnknownOperationException","Message":"An unknown operation was requested."}`},
		{"wrong service prefix", "DynamoDBStreams_20120810.TestEcho", testkit.DefaultAuth, `{}`, 400,
			`{"__type":"com.amazon.coral.service#UnknownOperationException","Message":"An unknown operation was requested."}`},
		{"no target", "", testkit.DefaultAuth, `{}`, 400,
			`{"__type":"com.amazon.coral.service#UnknownOperationException","Message":"An unknown operation was requested."}`},
		{"missing auth", echo, "", `{}`, 400,
			`{"__type":"com.amazon.coral.service#MissingAuthenticationTokenException","Message":"Request is missing Authentication Token"}`},
		{"auth without credential", echo, "AWS4-HMAC-SHA256 Signature=x", `{}`, 400, ""},
		{"malformed json", echo, testkit.DefaultAuth, `{"TableName":`, 400,
			`{"__type":"com.amazon.coral.service#SerializationException"}`},
		{"string gets number", echo, testkit.DefaultAuth, `{"TableName":5}`, 400,
			`{"__type":"com.amazon.coral.service#SerializationException","Message":"NUMBER_VALUE cannot be converted to String"}`},
		{"integer gets non-integer string", echo, testkit.DefaultAuth, `{"Limit":"5x"}`, 400,
			`{"__type":"com.amazon.coral.service#SerializationException","Message":"STRING_VALUE cannot be converted to Integer"}`},
		{"boolean gets true string", echo, testkit.DefaultAuth, `{"Panic":"true"}`, 400,
			`{"__type":"com.amazon.coral.service#SerializationException","Message":"STRING_VALUE cannot be converted to Boolean"}`},
		{"string gets true", echo, testkit.DefaultAuth, `{"TableName":true}`, 400,
			`{"__type":"com.amazon.coral.service#SerializationException","Message":"TRUE_VALUE cannot be converted to String"}`},
		{"string gets list", echo, testkit.DefaultAuth, `{"TableName":[]}`, 400,
			`{"__type":"com.amazon.coral.service#SerializationException","Message":"Start of list found where not expected"}`},
		{"body not an object", echo, testkit.DefaultAuth, `[1]`, 400,
			`{"__type":"com.amazon.coral.service#SerializationException","Message":"Start of list found where not expected"}`},
		{"attribute value invalid", echo, testkit.DefaultAuth, `{"Item":{"a":{}}}`, 400,
			`{"__type":"com.amazon.coral.validate#ValidationException","message":"` + apierr.MsgAVEmpty + `"}`},
		{"validation error", echo, testkit.DefaultAuth, `{"Fail":"validation"}`, 400,
			`{"__type":"com.amazon.coral.validate#ValidationException","message":"bad input"}`},
		{"conditional check with item", echo, testkit.DefaultAuth, `{"Fail":"condition","Item":{"b":{"N":"1"},"a":{"S":"x"}}}`, 400,
			`{"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException","message":"The conditional request failed","Item":{"a":{"S":"x"},"b":{"N":"1"}}}`},
		{"conditional check without item", echo, testkit.DefaultAuth, `{"Fail":"condition"}`, 400,
			`{"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException","message":"The conditional request failed"}`},
		{"misspelt operation", "DynamoDB_20120810.DescribeBackups", testkit.DefaultAuth, `{}`, 400,
			`{"__type":"com.amazon.coral.service#UnknownOperationException","Message":"An unknown operation was requested."}`},
		{"unclassified error is 500", echo, testkit.DefaultAuth, `{"Fail":"plain"}`, 500,
			`{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"Internal server error"}`},
		{"panic is 500", echo, testkit.DefaultAuth, `{"Panic":true}`, 500,
			`{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"Internal server error"}`},
	}
	e := newTestEmulator(t, Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, body := do(t, e, tt.target, tt.auth, tt.body)
			if res.StatusCode != tt.wantStatus {
				t.Fatalf("got status %d, want %d (body %s)", res.StatusCode, tt.wantStatus, body)
			}
			if tt.wantBody != "" && body != tt.wantBody {
				t.Fatalf("got body %s, want %s", body, tt.wantBody)
			}
			checkHeaders(t, res, body)
		})
	}
}

// checkHeaders checks what every answer carries.
func checkHeaders(t *testing.T, res *http.Response, body string) {
	t.Helper()
	if got, want := res.Header.Get("X-Amz-Crc32"), strconv.FormatUint(uint64(crc32.ChecksumIEEE([]byte(body))), 10); got != want {
		t.Errorf("got x-amz-crc32 %q, want %q", got, want)
	}
	if id := res.Header.Get("X-Amzn-RequestId"); len(id) != 36 || strings.Count(id, "-") != 4 {
		t.Errorf("got x-amzn-RequestId %q, want a UUID", id)
	}
	if got := res.Header.Get("Server"); got != "Server" {
		t.Errorf("got Server %q, want %q (AWS's)", got, "Server")
	}
	if ct := res.Header.Get("Content-Type"); ct != "application/x-amz-json-1.0" {
		t.Errorf("got Content-Type %q", ct)
	}
	if !json.Valid([]byte(body)) {
		t.Errorf("body is not JSON: %s", body)
	}
}

func TestContentType11(t *testing.T) {
	e := newTestEmulator(t, Options{})
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{}`))
	req.Header.Set("X-Amz-Target", echo)
	req.Header.Set("Content-Type", "application/x-amz-json-1.1")
	req.Header.Set("Authorization", testkit.DefaultAuth)
	rec := httptest.NewRecorder()
	e.Handler().ServeHTTP(rec, req)
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/x-amz-json-1.1" {
		t.Fatalf("got %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
}

func TestPanicIsLogged(t *testing.T) {
	var logs bytes.Buffer
	e := newTestEmulator(t, Options{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	res, _ := do(t, e, echo, testkit.DefaultAuth, `{"Panic":true}`)
	if res.StatusCode != 500 {
		t.Fatalf("got status %d, want 500", res.StatusCode)
	}
	out := logs.String()
	for _, want := range []string{`"msg":"panic in operation"`, `"panic":"test panic"`, `"op":"TestEcho"`, `"stack":`} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %s: %s", want, out)
		}
	}
}

func TestPresignedCredential(t *testing.T) {
	e := newTestEmulator(t, Options{})
	req := httptest.NewRequest(http.MethodPost, "/?X-Amz-Credential=Q%2F20260101%2Fap-northeast-1%2Fdynamodb%2Faws4_request", strings.NewReader(`{}`))
	req.Header.Set("X-Amz-Target", echo)
	rec := httptest.NewRecorder()
	e.Handler().ServeHTTP(rec, req)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"Namespace":"Q/ap-northeast-1"`) {
		t.Fatalf("got %d %s", rec.Code, rec.Body)
	}
}

func TestBodyLimit(t *testing.T) {
	e := newTestEmulator(t, Options{MaxBodyBytes: 64})
	small := `{"TableName":"` + strings.Repeat("x", 30) + `"}`
	if res, body := do(t, e, echo, testkit.DefaultAuth, small); res.StatusCode != 200 {
		t.Fatalf("small body: got %d %s", res.StatusCode, body)
	}
	big := `{"TableName":"` + strings.Repeat("x", 100) + `"}`
	res, body := do(t, e, echo, testkit.DefaultAuth, big)
	want := `{"__type":"com.amazon.coral.service#RequestEntityTooLargeException","Message":"The request entity is too large"}`
	if res.StatusCode != http.StatusRequestEntityTooLarge || body != want {
		t.Fatalf("big body: got %d %s", res.StatusCode, body)
	}

	// Without Content-Length the limit holds while reading, and reading stops
	// just past it.
	r := &countingReader{r: strings.NewReader(big + strings.Repeat(" ", 1<<20))}
	req := httptest.NewRequest(http.MethodPost, "/", r)
	req.ContentLength = -1
	req.Header.Set("X-Amz-Target", echo)
	req.Header.Set("Authorization", testkit.DefaultAuth)
	rec := httptest.NewRecorder()
	e.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("chunked big body: got %d", rec.Code)
	}
	if r.n > 64+1+512 {
		t.Fatalf("read %d bytes of an over-limit body", r.n)
	}
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	if len(p) > 512 {
		p = p[:512]
	}
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// TestHealthCheck: GET / is 200 "healthy: HOST " with AWS's headers (no
// Content-Type, x-amz-crc32, a request id); any other GET is 404 with
// DynamoDB's "<UnknownOperationException/>" and no echo of the path.
func TestHealthCheck(t *testing.T) {
	e := newTestEmulator(t, Options{})
	tests := []struct {
		method, path string
		status       int
		body         string
	}{
		{"GET", "/", 200, "healthy: example.com "},
		{"HEAD", "/", 200, "healthy: example.com "}, // net/http sends no body for HEAD
		{"GET", "/other", 404, notFoundBody},
		{"GET", "/index.htm", 404, notFoundBody},
		{"GET", "/" + strings.Repeat("p", 4000), 404, notFoundBody},
		{"PUT", "/", 404, notFoundBody},
		{"DELETE", "/", 404, notFoundBody},
		{"PATCH", "/x", 404, notFoundBody},
		{"OPTIONS", "/", 404, notFoundBody}, // no Origin: not a preflight
	}
	for _, tt := range tests {
		rec := httptest.NewRecorder()
		e.Handler().ServeHTTP(rec, httptest.NewRequest(tt.method, tt.path, nil))
		require.Equal(t, tt.status, rec.Code, "%s %.20s", tt.method, tt.path)
		require.Equal(t, tt.body, rec.Body.String(), "%s %.20s", tt.method, tt.path)
		require.NotEmpty(t, rec.Header().Get("X-Amzn-Requestid"))
		require.Empty(t, rec.Header().Values("Content-Type"))
		require.Equal(t, strconv.FormatUint(uint64(crc32.ChecksumIEEE([]byte(tt.body))), 10), rec.Header().Get("X-Amz-Crc32"))
	}
}

// TestCORS: loopback origins are answered without flags, -cors adds
// origins, "*" answers "*" (not the echoed origin), and a request without
// an Origin gets no CORS header whatever the options.
func TestCORS(t *testing.T) {
	tests := []struct {
		name       string
		origins    []string
		origin     string
		wantOrigin string
		wantVary   bool
	}{
		{"default foreign", nil, "http://a.test", "", false},
		{"default localhost", nil, "http://localhost:3000", "http://localhost:3000", true},
		{"default localhost no port", nil, "http://localhost", "http://localhost", true},
		{"default 127.0.0.1", nil, "http://127.0.0.1:5173", "http://127.0.0.1:5173", true},
		{"default ::1", nil, "http://[::1]:8080", "http://[::1]:8080", true},
		{"default https localhost", nil, "https://localhost:8443", "https://localhost:8443", true},
		{"default not a port", nil, "http://localhost.evil.example", "", false},
		{"default other loopback name", nil, "http://127.0.0.2:3000", "", false},
		{"default file page", nil, "null", "", false},
		{"default no origin", nil, "", "", false},
		{"any", []string{"*"}, "http://a.test", "*", false},
		{"any no origin", []string{"*"}, "", "", false},
		{"listed", []string{"http://a.test", "http://b.test"}, "http://b.test", "http://b.test", true},
		{"listed keeps loopback", []string{"http://a.test"}, "http://localhost:3000", "http://localhost:3000", true},
		{"not listed", []string{"http://a.test"}, "http://c.test", "", false},
		{"listed no origin", []string{"http://a.test"}, "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEmulator(t, Options{CORSOrigins: tt.origins})
			check := func(what string, h http.Header) {
				t.Helper()
				if got := h.Get("Access-Control-Allow-Origin"); got != tt.wantOrigin {
					t.Errorf("%s: got Access-Control-Allow-Origin %q, want %q", what, got, tt.wantOrigin)
				}
				if got := h.Get("Vary") == "Origin"; got != tt.wantVary {
					t.Errorf("%s: got Vary %q, want Origin: %v", what, h.Get("Vary"), tt.wantVary)
				}
				if tt.wantOrigin == "" {
					for k := range h {
						if strings.HasPrefix(k, "Access-Control-") {
							t.Errorf("%s: got %s %q, want no CORS header", what, k, h.Get(k))
						}
					}
				}
			}
			req := httptest.NewRequest(http.MethodOptions, "/", nil)
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			req.Header.Set("Access-Control-Request-Method", "POST")
			req.Header.Set("Access-Control-Request-Headers", "x-amz-target,content-type,authorization")
			rec := httptest.NewRecorder()
			e.Handler().ServeHTTP(rec, req)
			wantStatus := 200
			if tt.origin == "" {
				wantStatus = 404 // DynamoDB's answer to an OPTIONS without Origin
			}
			if rec.Code != wantStatus {
				t.Fatalf("preflight: got %d, want %d", rec.Code, wantStatus)
			}
			check("preflight", rec.Header())
			if tt.wantOrigin != "" {
				// DynamoDB's preflight answer: the request's method and
				// headers echoed, Max-Age 172800, its Expose-Headers list.
				require.Equal(t, "x-amz-target,content-type,authorization", rec.Header().Get("Access-Control-Allow-Headers"))
				require.Equal(t, "POST", rec.Header().Get("Access-Control-Allow-Methods"))
				require.Equal(t, "172800", rec.Header().Get("Access-Control-Max-Age"))
				require.Equal(t, corsExposed, rec.Header().Get("Access-Control-Expose-Headers"))
			}

			req = httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{}`))
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			req.Header.Set("X-Amz-Target", echo)
			req.Header.Set("Authorization", testkit.DefaultAuth)
			rec = httptest.NewRecorder()
			e.Handler().ServeHTTP(rec, req)
			check("request", rec.Header())
			if tt.wantOrigin != "" {
				require.Contains(t, rec.Header().Get("Access-Control-Expose-Headers"), "x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,Date")
				require.Contains(t, rec.Header().Get("Access-Control-Expose-Headers"), "x-amz-crc32")
				for _, h := range []string{"Access-Control-Max-Age", "Access-Control-Allow-Methods", "Access-Control-Allow-Headers"} {
					require.Empty(t, rec.Header().Get(h), "%s on a request that is not a preflight", h)
				}
			}
		})
	}
}

func TestErrorClasses(t *testing.T) {
	tests := []struct {
		err   error
		class error
		msg   string
	}{
		{apierr.Validation("m"), apierr.ErrValidation, "m"},
		{apierr.Validationf("x %d", 1), apierr.ErrValidation, "x 1"},
		{apierr.ResourceNotFound("m"), apierr.ErrResourceNotFound, "m"},
		{apierr.ResourceInUse("m"), apierr.ErrResourceInUse, "m"},
		{apierr.ConditionalCheckFailed(nil), apierr.ErrConditionalCheckFailed, "The conditional request failed"},
		{apierr.LimitExceeded("m"), apierr.ErrLimitExceeded, "m"},
		{apierr.ItemCollectionSizeLimitExceeded("m"), apierr.ErrItemCollectionSizeLimitExceeded, "m"},
		{apierr.Serialization("m"), apierr.ErrSerialization, "m"},
	}
	for _, tt := range tests {
		if !errors.Is(tt.err, tt.class) || tt.err.Error() != tt.msg {
			t.Errorf("%v: want class %v message %q", tt.err, tt.class, tt.msg)
		}
		if errors.Is(tt.err, apierr.ErrInternalServer) {
			t.Errorf("%v is also InternalServerError", tt.err)
		}
	}
	cause := errors.New("cause")
	if err := apierr.Validationf("wrapped: %w", cause); !errors.Is(err, cause) || !errors.Is(err, apierr.ErrValidation) {
		t.Errorf("errValidationf does not wrap: %v", err)
	}
}

func TestOptionsValidate(t *testing.T) {
	if _, err := New(Options{MaxBodyBytes: -1}); err == nil {
		t.Error("negative MaxBodyBytes accepted")
	}
	if _, err := New(Options{CORSOrigins: []string{" "}}); err == nil {
		t.Error("blank CORS origin accepted")
	}
}

// FuzzRequest: no body makes the handler panic or answer 500, and every
// answer is JSON with a matching crc32.
func FuzzRequest(f *testing.F) {
	for _, s := range []string{
		`{}`, ``, `{"TableName":"t","Item":{"a":{"S":"x"}}}`, `{"TableName":5}`, `{"Item":{"a":{"L":[{"M":{}}]}}}`,
		`{"Limit":1e99}`, `{"Item":{"a":{"NS":["1","x"]}}}`, `nul`, `{"Item":[]}`, "\xff",
		"{\"TableName\":\"t\",\"Item\":{\"a\":{\"S\":\"k\xfe\"}}}", `{"TableName":"t","Item":{"a":{"S":"\ud800"}}}`,
	} {
		f.Add([]byte(s))
	}
	e := newTestEmulator(f, Options{})
	f.Fuzz(func(t *testing.T, body []byte) {
		if bytes.Contains(body, []byte(`"Panic"`)) || bytes.Contains(body, []byte(`"Fail"`)) {
			return // the test op's deliberate failures
		}
		res, out := do(t, e, echo, testkit.DefaultAuth, string(body))
		if res.StatusCode >= 500 {
			t.Fatalf("status %d for %q: %s", res.StatusCode, body, out)
		}
		checkHeaders(t, res, out)
	})
}

func BenchmarkEchoRequest(b *testing.B) {
	e := newTestEmulator(b, Options{})
	body := []byte(`{"TableName":"orders","Item":` + testkit.Item240 + `}`)
	h := e.Handler()
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		req.Header.Set("X-Amz-Target", echo)
		req.Header.Set("Authorization", testkit.DefaultAuth)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}

func TestResponseHeaderNamesCanonical(t *testing.T) {
	for name, want := range map[string]string{"x-amzn-RequestId": httploop.HeaderRequestID, "x-amz-crc32": httploop.HeaderCRC32} {
		if got := http.CanonicalHeaderKey(name); got != want {
			t.Errorf("CanonicalHeaderKey(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestSmoke(t *testing.T) {
	e := newTestEmulator(t, Options{})
	res, body := do(t, e, "DynamoDB_20120810.TestEcho", testkit.DefaultAuth, `{"TableName":"t","Item":{"a":{"S":"x"}}}`)
	if res.StatusCode != 200 {
		t.Fatalf("status %d body %s", res.StatusCode, body)
	}
	want := `{"TableName":"t","Item":{"a":{"S":"x"}},"Region":"us-east-1","Namespace":"AKID1/us-east-1"}`
	if body != want {
		t.Fatalf("got %s, want %s", body, want)
	}
}

// TestPostAnyPath: a POST to any path but the emulator's own is an API
// call, as on AWS (which signs the path with the rest): no 415 from the
// admin guard, whatever the path's length.
func TestPostAnyPath(t *testing.T) {
	e := newTestEmulator(t, Options{})
	for _, path := range []string{"/prefix", "/a/b/", "/" + strings.Repeat("p", 3000)} {
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(`{}`))
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
		req.Header.Set("Authorization", testkit.DefaultAuth)
		rec := httptest.NewRecorder()
		e.Handler().ServeHTTP(rec, req)
		require.Equal(t, 200, rec.Code, "POST %.20s: %s", path, rec.Body)
		require.JSONEq(t, `{"TableNames":[]}`, rec.Body.String())
	}
	// Under /dynamoemu/ the path is the emulator's: unknown there, 404.
	req := httptest.NewRequest(http.MethodPost, "/dynamoemu/nothing", strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	e.Handler().ServeHTTP(rec, req)
	require.Equal(t, 404, rec.Code)
	require.Equal(t, notFoundBody, rec.Body.String())
}
