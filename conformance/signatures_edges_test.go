package conformance

// Signed requests whose signature covers something the client changed
// after signing, or a header it wrote oddly: the cases of ScyllaDB's
// tests run against AWS that current botocore exercises.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"testing"
	"time"

	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/stretchr/testify/require"
)

// keySignedListTables is a ListTables request to st signed for the path "/"
// by st's key, with edit applied before signing and after applied after.
func keySignedListTables(t *testing.T, st signingTarget, edit, after func(*http.Request)) *http.Request {
	t.Helper()
	body := []byte(`{"Limit":1}`)
	req, err := http.NewRequest(http.MethodPost, st.url+"/", bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	if edit != nil {
		edit(req)
	}
	sum := sha256.Sum256(body)
	require.NoError(t, v4.NewSigner().SignHTTP(ctx(t), st.key, req, hex.EncodeToString(sum[:]), "dynamodb", defaultRegion, time.Now()))
	if after != nil {
		after(req)
	}
	return req
}

// TestSignatureUnknownPath: a request signed for "/" and sent to
// "/garbage" is refused with InvalidSignatureException, not served: the
// path is part of what is signed (ScyllaDB's test_manual_requests.py,
// test_too_large_request_line: "we expect to ... get a
// InvalidSignatureException (this is what happens on AWS)").
func TestSignatureUnknownPath(t *testing.T) {
	t.Parallel()
	st := signingEndpoint(t)
	req := keySignedListTables(t, st, nil, func(r *http.Request) { r.URL.Path = "/garbage" })
	a := doSigned(t, req)
	require.Equal(t, 400, a.status, a.body)
	require.Equal(t, "InvalidSignatureException", a.typ, a.body)
}

// TestSignatureAcceptEncoding: Accept-Encoding under SigV4, as ScyllaDB's
// tests run against AWS send it with botocore (test_compressed_response.py):
// a signed value with runs of spaces is served, the spaces trimmed as the
// canonical request trims them (test_signature_trims_accept_encoding_spaces);
// a signed "identity" replaced by "gzip" after signing is
// InvalidSignatureException (test_multiple_accept_encoding_headers); and
// one added after signing, unsigned, as botocore's HTTP layer adds
// "identity", is served.
func TestSignatureAcceptEncoding(t *testing.T) {
	t.Parallel()
	st := signingEndpoint(t)
	set := func(v string) func(*http.Request) {
		return func(r *http.Request) { r.Header.Set("Accept-Encoding", v) }
	}
	a := doSigned(t, keySignedListTables(t, st, set("gzip,  deflate,    br"), nil))
	require.Equal(t, 200, a.status, "spaces in a signed Accept-Encoding: %s", a.body)
	a = doSigned(t, keySignedListTables(t, st, set("identity"), set("gzip")))
	require.Equal(t, 400, a.status, "a signed Accept-Encoding replaced: %s", a.body)
	require.Equal(t, "InvalidSignatureException", a.typ, a.body)
	a = doSigned(t, keySignedListTables(t, st, nil, set("identity")))
	require.Equal(t, 200, a.status, "an unsigned Accept-Encoding: %s", a.body)
}

// TestSignatureSplitAcceptEncoding: a signed Accept-Encoding sent as
// several headers, one a value, is served: the canonical request joins
// them with commas, as DynamoDB does (ScyllaDB's
// test_multiple_accept_encoding_headers, run against DynamoDB, January
// 2026: "We can split the header into multiple ones and it works with
// signing"; which of them picks the coding: TestRepeatedAcceptEncoding).
func TestSignatureSplitAcceptEncoding(t *testing.T) {
	t.Parallel()
	st := signingEndpoint(t)
	for _, vals := range [][]string{{"gzip", "identity"}, {"identity", "gzip"}} {
		req := keySignedListTables(t, st,
			func(r *http.Request) { r.Header.Set("Accept-Encoding", strings.Join(vals, ",")) },
			func(r *http.Request) { r.Header["Accept-Encoding"] = vals })
		a := doSigned(t, req)
		require.Equal(t, 200, a.status, "%q: %s", vals, a.body)
	}
}
