package httploop

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// sdkHead is a head as an SDK sends it: a GetItem call.
const sdkHead = "POST / HTTP/1.1\r\nHost: localhost:8000\r\nX-Amz-Target: DynamoDB_20120810.GetItem\r\n" +
	"Authorization: AWS4-HMAC-SHA256 Credential=AKID1/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=abc\r\n" +
	"Content-Type: application/x-amz-json-1.0\r\nContent-Length: 2\r\n\r\n"

// FuzzRequestHead: whatever the bytes, the head parser does not panic, and
// a head it finds eligible is one net/http reads as the same request:
// POST /, the same Content-Length, Host, X-Amz-Target, Authorization,
// Content-Type, Content-Encoding, Accept-Encoding, tenant and branch, and the same
// decision to close the connection after the answer.
func FuzzRequestHead(f *testing.F) {
	f.Add([]byte(sdkHead + "{}"))
	f.Add([]byte("POST / HTTP/1.0\r\nContent-Length: 0\r\n\r\n"))
	f.Add([]byte("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 007\r\nConnection: close\r\nAccept-Encoding: gzip\r\nContent-Encoding: gzip\r\n\r\n"))
	f.Add([]byte("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nX-Tenant-Code: t1\r\nconnection: keep-alive, close\r\n\r\n"))
	f.Add([]byte("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nX-Dynamoemu-Branch: t1\r\nX-Tenant-Code: t1\r\n\r\n"))
	f.Add([]byte("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n Folded: x\r\n\r\n"))
	f.Add([]byte("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"))
	f.Add([]byte("GET / HTTP/1.1\r\nHost: a\r\n\r\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		n := HeadEnd(b)
		if n < 0 {
			return
		}
		var h Head
		if !ParseHead(b[:n], &h) {
			return
		}
		r, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(b[:n])))
		if err != nil {
			t.Fatalf("eligible head %q: net/http refuses it: %v", b[:n], err)
		}
		got := []any{h.ContentLength, h.Host, h.Target, h.Auth, h.ContentType, h.ContentEncoding, h.AcceptEncoding, h.Tenant, h.Branch, h.Close || h.HTTP10}
		want := []any{r.ContentLength, r.Host, r.Header.Get("X-Amz-Target"), r.Header.Get("Authorization"), r.Header.Get("Content-Type"),
			r.Header.Get("Content-Encoding"), r.Header.Get("Accept-Encoding"), r.Header.Get("X-Tenant-Code"), r.Header.Get("X-Dynamoemu-Branch"), r.Close}
		if r.Method != http.MethodPost || r.RequestURI != "/" || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("head %q: got %q, net/http reads %s %s %q", b[:n], got, r.Method, r.RequestURI, want)
		}
	})
}

// TestParseHeadSDKCall: an SDK's call is eligible, and each field is read
// from its header; a head that is not the plainest POST / goes to
// net/http.
func TestParseHeadSDKCall(t *testing.T) {
	b := []byte(sdkHead + "{}")
	n := HeadEnd(b)
	require.Equal(t, len(sdkHead), n)
	var h Head
	require.True(t, ParseHead(b[:n], &h))
	// The head carries a fresh request ID (NewRequestID's form), made
	// in the same allocation as its strings: another for each parse.
	require.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`, h.ReqID)
	var h2 Head
	require.True(t, ParseHead(b[:n], &h2))
	require.NotEqual(t, h.ReqID, h2.ReqID)
	h.ReqID = ""
	require.Equal(t, Head{
		ContentLength: 2,
		Host:          "localhost:8000",
		Target:        "DynamoDB_20120810.GetItem",
		Auth:          "AWS4-HMAC-SHA256 Credential=AKID1/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=abc",
		ContentType:   "application/x-amz-json-1.0",
	}, h)

	for _, head := range []string{
		"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n",                       // not a POST
		"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n",             // a chunked body
		"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n", // repeated
		"POST / HTTP/1.0\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n",       // HTTP/1.0 keep-alive
		"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nOrigin: http://x\r\n\r\n",  // a browser's: CORS
		"POST / HTTP/1.1\r\nContent-Length: 1\r\n\r\n",                                 // HTTP/1.1 with no Host
	} {
		var h Head
		require.False(t, ParseHead([]byte(head), &h), "%q", head)
	}
	require.Equal(t, -1, HeadEnd([]byte("POST / HTTP/1.1\r\nHost: a\r\n")), "no empty line yet")
}
