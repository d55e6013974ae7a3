package testkit

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// DefaultAuth is the Authorization header of most tests: access key AKID1
// in us-east-1 (a SigV4 header whose signature the emulator never checks).
const DefaultAuth = "AWS4-HMAC-SHA256 Credential=AKID1/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=abc"

// Auth returns a SigV4 Authorization header for access key key in region.
func Auth(key, region string) string {
	return "AWS4-HMAC-SHA256 Credential=" + key + "/20260101/" + region + "/dynamodb/aws4_request, SignedHeaders=host, Signature=abc"
}

// Credential returns the access key and region of an Authorization header
// made by Auth (or DefaultAuth): the test harnesses' reading of it, not the
// edge's parser, which the edge's own tests test.
func Credential(auth string) (key, region string) {
	_, rest, _ := strings.Cut(auth, "Credential=")
	rest, _, _ = strings.Cut(rest, ",")
	parts := strings.Split(rest, "/")
	if len(parts) < 3 {
		return "", ""
	}
	return parts[0], parts[2]
}

// Do sends one API request to h (POST / with X-Amz-Target target, the
// Authorization header auth and a JSON body; "" leaves a header out) and
// returns the response and its body. It is the one way the emulator's
// tests send a request; each package adapts it to what it tests (the
// Emulator's handler, or the service's).
func Do(t testing.TB, h http.Handler, target, auth, body string) (*http.Response, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/", bytes.NewBufferString(body))
	if target != "" {
		req.Header.Set("X-Amz-Target", target)
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := rec.Result()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}
