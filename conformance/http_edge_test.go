package conformance

// The HTTP edge: what the endpoint answers before any operation runs. The
// records followed: dynalite's test/connection.js (architect/dynalite, run
// against DynamoDB: the health answer, the 404 "<UnknownOperationException/>"
// of other methods, the CORS answers); ScyllaDB's test/alternator tests, run
// against DynamoDB (test_health.py, test_cors.py, test_manual_requests.py's
// 16 KB limits of 2025, test_compressed_response.py's repeated
// Accept-Encoding of January 2026); DynamoDB's preflight answer in a survey
// of every AWS endpoint's CORS answers (2020-10-26). Where two records
// disagree the newer is followed and the test says so.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/stretchr/testify/require"
)

// edgeURL is the target's URL for hand-made HTTP requests, or skips.
func edgeURL(t *testing.T) string {
	t.Helper()
	tg := target(t)
	if tg.URL == "" {
		t.Skip("hand-made HTTP requests need DYNAMODB_ENDPOINT")
	}
	return strings.TrimSuffix(tg.URL, "/")
}

// httpDo sends req and returns its status, headers and body.
func httpDo(t *testing.T, req *http.Request) (int, http.Header, string) {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, res.Header, string(body)
}

// notFoundBodies are DynamoDB's two bodies for a request it does not route
// (dynalite's assert404: "Sometimes it's an HTML page instead").
var notFoundBodies = []string{
	"<UnknownOperationException/>\n",
	`<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">` + "\n" +
		`<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">` + "\n<head>\n  <title>Page Not Found</title>\n</head>\n<body>Page Not Found</body>\n</html>",
}

// TestHealthCheckAnswer: an unsigned GET / is 200 "healthy: " and the
// endpoint's name with a final space (AWS: "healthy:
// dynamodb.us-east-1.amazonaws.com "), with x-amz-crc32 and a request id
// (dynalite's "should return 200 if a GET", ScyllaDB's test_health_works).
func TestHealthCheckAnswer(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local answers GET / with 400 MissingAuthenticationToken")
	base := edgeURL(t)
	req, err := http.NewRequest(http.MethodGet, base+"/", nil)
	require.NoError(t, err)
	status, h, body := httpDo(t, req)
	u, err := url.Parse(base)
	require.NoError(t, err)
	require.Equal(t, 200, status)
	require.Equal(t, "healthy: "+u.Host+" ", body)
	require.NotEmpty(t, h.Get("x-amz-crc32"))
	require.NotEmpty(t, h.Get("x-amzn-RequestId"))
}

// TestHealthCheckOnlyAtRoot: a GET of another path is a 4xx
// (ScyllaDB's test_health_only_works_for_root_path: "in range(400, 405)"),
// and the answer does not repeat the path.
func TestHealthCheckOnlyAtRoot(t *testing.T) {
	t.Parallel()
	base := edgeURL(t)
	for _, path := range []string{"/abc", "/-", "/index.htm", "/" + strings.Repeat("p", 2000)} {
		req, err := http.NewRequest(http.MethodGet, base+path, nil)
		require.NoError(t, err)
		status, _, body := httpDo(t, req)
		require.True(t, status >= 400 && status <= 404, "GET %.20s: got %d", path, status)
		require.NotContains(t, body, "ppppppppp", "GET %.20s echoed the path", path)
	}
}

// TestOtherMethodsNotFound: PUT, DELETE, and OPTIONS without an Origin,
// are 404 with DynamoDB's body (dynalite's "should return 404 if a PUT",
// "... a DELETE", "... OPTIONS with no auth").
func TestOtherMethodsNotFound(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local answers them with 400 MissingAuthenticationToken")
	base := edgeURL(t)
	for _, method := range []string{http.MethodPut, http.MethodDelete, http.MethodOptions} {
		req, err := http.NewRequest(method, base+"/", nil)
		require.NoError(t, err)
		status, h, body := httpDo(t, req)
		require.Equal(t, 404, status, method)
		require.Contains(t, notFoundBodies, body, method)
		require.Empty(t, h.Get("Access-Control-Allow-Origin"), method)
	}
}

// TestCORSPreflight: a preflight with an Origin is 200 with an empty body,
// Access-Control-Allow-Origin "*", the requested method and headers echoed,
// Max-Age 172800 and DynamoDB's Expose-Headers list (the 2020 survey's
// answer of dynamodb.us-east-1; ScyllaDB's test_cors_allow_requested).
func TestCORSPreflight(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local answers Max-Age 1728000 and no Expose-Headers")
	base := edgeURL(t)
	const reqHeaders = "Content-Type,X-Amz-Target,user-agent,content-length,host,Authorization,amz-sdk-invocation-id,amz-sdk-request,x-amz-security-token"
	req, err := http.NewRequest(http.MethodOptions, base+"/", nil)
	require.NoError(t, err)
	req.Header.Set("Origin", "https://foo.example")
	req.Header.Set("Access-Control-Request-Method", "POST")
	req.Header.Set("Access-Control-Request-Headers", reqHeaders)
	status, h, body := httpDo(t, req)
	require.Equal(t, 200, status)
	require.Empty(t, body)
	require.Equal(t, "*", h.Get("Access-Control-Allow-Origin"))
	require.Equal(t, "POST", h.Get("Access-Control-Allow-Methods"))
	require.Equal(t, reqHeaders, h.Get("Access-Control-Allow-Headers"))
	require.Equal(t, "172800", h.Get("Access-Control-Max-Age"))
	require.True(t, strings.HasPrefix(h.Get("Access-Control-Expose-Headers"), "x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,Date"),
		"Expose-Headers %q", h.Get("Access-Control-Expose-Headers"))
	require.NotEmpty(t, h.Get("x-amzn-RequestId"))

	// ScyllaDB's test_cors_allow_requested: another method echoes a "dog".
	req, err = http.NewRequest(http.MethodOptions, base+"/", nil)
	require.NoError(t, err)
	req.Header.Set("Origin", "http://example.com/")
	req.Header.Set("Access-Control-Request-Method", "dog")
	req.Header.Set("Access-Control-Request-Headers", "cat, meerkat, mouse")
	_, h, _ = httpDo(t, req)
	require.Equal(t, "dog", h.Get("Access-Control-Allow-Methods"))
	require.Equal(t, "cat, meerkat, mouse", h.Get("Access-Control-Allow-Headers"))
}

// TestCORSOnRequests: an API call or GET with an Origin gets
// Access-Control-Allow-Origin and Expose-Headers, but none of the
// preflight's headers (ScyllaDB's test_cors_allow_origin and
// test_cors_allow_requested); without an Origin, no CORS header at all
// (test_cors_not_used).
func TestCORSOnRequests(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local adds no CORS header to a request that is not a preflight")
	base := edgeURL(t)
	r := rawSend(t, "ListTables", []byte(`{}`), map[string]string{"Origin": "http://example.com/", "Access-Control-Request-Method": "dog"})
	require.Equal(t, 200, r.Status)
	require.Equal(t, "*", r.Header.Get("Access-Control-Allow-Origin"))
	require.NotEmpty(t, r.Header.Get("Access-Control-Expose-Headers"))
	for _, h := range []string{"Access-Control-Max-Age", "Access-Control-Allow-Methods", "Access-Control-Allow-Headers"} {
		require.Empty(t, r.Header.Get(h), h)
	}
	req, err := http.NewRequest(http.MethodGet, base+"/", nil)
	require.NoError(t, err)
	req.Header.Set("Origin", "http://example.com/")
	_, h, _ := httpDo(t, req)
	require.Equal(t, "*", h.Get("Access-Control-Allow-Origin"))
	require.Empty(t, h.Get("Access-Control-Max-Age"))

	plain := rawSend(t, "ListTables", []byte(`{}`), nil)
	for k := range plain.Header {
		require.False(t, strings.HasPrefix(k, "Access-Control-"), "%s without an Origin", k)
	}
}

// signedListTables is a ListTables request to base signed with the
// suite's fake key, changed by edit before signing.
func signedListTables(t *testing.T, base string, edit func(*http.Request)) *http.Request {
	t.Helper()
	body := []byte(`{}`)
	req, err := http.NewRequest(http.MethodPost, base+"/", bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	if edit != nil {
		edit(req)
	}
	sum := sha256.Sum256(body)
	require.NoError(t, v4.NewSigner().SignHTTP(ctx(t), aws.Credentials{AccessKeyID: defaultAccessKey, SecretAccessKey: "fakesecret"},
		req, hex.EncodeToString(sum[:]), "dynamodb", defaultRegion, time.Now()))
	return req
}

// TestHeaderFieldsLimit: header fields totalling more than 16 KB are
// refused with 400; two short extra headers are not (ScyllaDB's
// test_too_large_request_headers: "DynamoDB limits the total size of the
// headers to 16 KB", 2025).
func TestHeaderFieldsLimit(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local (Jetty) answers 431 Request Header Fields Too Large")
	base := edgeURL(t)
	status, _, body := httpDo(t, signedListTables(t, base, func(r *http.Request) {
		r.Header.Set("Header1", "dog")
		r.Header.Set("Header2", "cat")
	}))
	require.Equal(t, 200, status, body)
	status, _, body = httpDo(t, signedListTables(t, base, func(r *http.Request) {
		r.Header.Set("Header1", strings.Repeat("x", 8192))
		r.Header.Set("Header2", strings.Repeat("y", 8192))
	}))
	require.Equal(t, 400, status, body)
	require.NotContains(t, body, "xxxxxxxx")
}

// TestRequestLineLimit: a request line over 16 KB is refused with 400, not
// read as a path to sign (ScyllaDB's test_too_large_request_line, 2025: "not
// one with a InvalidSignatureException error in its body").
func TestRequestLineLimit(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local (Jetty) answers 414 URI Too Long")
	base := edgeURL(t)
	req := signedListTables(t, base, nil)
	req.URL.Path = "/" + strings.Repeat("x", 17000)
	status, _, body := httpDo(t, req)
	require.Equal(t, 400, status, "%.200s", body)
	require.NotContains(t, body, "InvalidSignatureException")
	require.NotContains(t, body, "xxxxxxxx")
}

// TestMissingAuthentication: an API call without an Authorization header
// is MissingAuthenticationTokenException (dynalite's "should return
// MissingAuthenticationTokenException if no Authorization header").
func TestMissingAuthentication(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local answers com.amazonaws.dynamodb.v20120810#MissingAuthenticationToken, with another message")
	base := edgeURL(t)
	req, err := http.NewRequest(http.MethodPost, base+"/", strings.NewReader(`{}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	status, _, body := httpDo(t, req)
	require.Equal(t, 400, status)
	require.Contains(t, body, `"__type":"com.amazon.coral.service#MissingAuthenticationTokenException"`)
	require.Contains(t, body, "Request is missing Authentication Token")
}

// TestRepeatedAcceptEncoding: of several Accept-Encoding headers DynamoDB
// reads the first ("identity" then "gzip": not compressed; "gzip" then
// "identity": gzip), though the signature covers them all, joined
// (ScyllaDB's test_multiple_accept_encoding_headers, January 2026).
func TestRepeatedAcceptEncoding(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local never compresses a response")
	base := edgeURL(t)
	c := newClient(t)
	table := hashTable(t, c)
	mustPut(t, c, table, item{"pk": s("big"), "x": s(strings.Repeat("x", 5000))})
	for _, tc := range []struct {
		vals []string
		want string
	}{
		{[]string{"gzip", "identity"}, "gzip"},
		{[]string{"identity", "gzip"}, ""},
	} {
		body := []byte(`{"TableName":"` + table + `","Key":{"pk":{"S":"big"}}}`)
		req, err := http.NewRequest(http.MethodPost, base+"/", bytes.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.GetItem")
		req.Header["Accept-Encoding"] = tc.vals
		sum := sha256.Sum256(body)
		require.NoError(t, v4.NewSigner().SignHTTP(ctx(t), aws.Credentials{AccessKeyID: defaultAccessKey, SecretAccessKey: "fakesecret"},
			req, hex.EncodeToString(sum[:]), "dynamodb", defaultRegion, time.Now()))
		status, h, _ := httpDo(t, req)
		require.Equal(t, 200, status, "%v", tc.vals)
		require.Equal(t, tc.want, h.Get("Content-Encoding"), "%v", tc.vals)
	}
}
