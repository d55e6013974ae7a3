package sigv4

import (
	"crypto/sha256"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// sigNow is the server's time in the tests that fix it.
var sigNow = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

// TestSignatureAWSExample: the canonical request, string to sign and
// signature of the example in AWS's SigV4 documentation (IAM ListUsers,
// AKIDEXAMPLE, 20150830T123600Z).
func TestSignatureAWSExample(t *testing.T) {
	in := Input{method: "GET", path: "/", rawQuery: "Action=ListUsers&Version=2010-05-08",
		header: http.Header{"Content-Type": {"application/x-www-form-urlencoded; charset=utf-8"}, "X-Amz-Date": {"20150830T123600Z"}},
		host:   "iam.amazonaws.com", payloadHash: sha256.Sum256(nil)}
	a := Auth{algorithm: sigAlgorithm, signedHeaders: "content-type;host;x-amz-date", date: "20150830T123600Z"}
	canonical := canonicalRequest(&in, a)
	require.Equal(t, "GET\n/\nAction=ListUsers&Version=2010-05-08\ncontent-type:application/x-www-form-urlencoded; charset=utf-8\n"+
		"host:iam.amazonaws.com\nx-amz-date:20150830T123600Z\n\ncontent-type;host;x-amz-date\n"+
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", canonical)
	scope := Scope{KeyID: "AKIDEXAMPLE", date: "20150830", Region: "us-east-1", service: "iam", terminator: sigTerminator}
	sts := stringToSign(a, scope, canonical)
	require.Equal(t, "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/iam/aws4_request\n"+
		"f536975d06c0309214f805bb90ccff089219ecd68b2577efef23edd43b7e1a59", sts)
	require.Equal(t, "5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7",
		signature("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", scope, sts))
}

// TestCanonicalParts: the path encoded twice, the query sorted and
// encoded as RFC 3986 says, header values trimmed and joined.
func TestCanonicalParts(t *testing.T) {
	tests := []struct{ name, got, want string }{
		{"empty path", canonicalURI(""), "/"},
		{"root", canonicalURI("/"), "/"},
		{"escaped path encoded again", canonicalURI("/a%20b/c"), "/a%2520b/c"},
		{"query sorted", canonicalQuery("b=2&a=1&a=0", false), "a=0&a=1&b=2"},
		{"query name the start of another", canonicalQuery("a.=0&a-=1&a=2&a=10", false), "a=10&a=2&a-=1&a.=0"},
		{"query encoded", canonicalQuery("k=a+b&x=%7E&y=%2F", false), "k=a%20b&x=~&y=%2F"},
		{"query without value", canonicalQuery("flag&a=1", false), "a=1&flag="},
		{"signature left out", canonicalQuery("X-Amz-Signature=ab&X-Amz-Date=1", true), "X-Amz-Date=1"},
		{"header trimmed", canonicalHeaderValue(&Input{header: http.Header{"A": {"  x   y  "}}}, "a"), "x y"},
		{"header repeated", canonicalHeaderValue(&Input{header: http.Header{"Accept-Encoding": {"gzip", " identity"}}}, "accept-encoding"), "gzip,identity"},
		{"content-length from the request", canonicalHeaderValue(&Input{header: http.Header{}, length: 7}, "content-length"), "7"},
		{"absent header", canonicalHeaderValue(&Input{header: http.Header{}, length: -1}, "x-none"), ""},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, tt.got, tt.name)
	}
}

// TestParseAuthorization: the checks that need no key, in DynamoDB's
// order and words (dynalite's tests against DynamoDB, ScyllaDB's
// test_authorization.py, fhir-works-on-aws-deployment#379).
func TestParseAuthorization(t *testing.T) {
	const good = "AWS4-HMAC-SHA256 Credential=AKID/20261125/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=abc"
	tests := []struct {
		name, auth, date string
		class            error
		msg              string
	}{
		{name: "good", auth: good, date: "20261125T120000Z"},
		{name: "commas only", auth: "AWS4-HMAC-SHA256 Credential=AKID/20261125/us-east-1/dynamodb/aws4_request,SignedHeaders=host,Signature=abc", date: "20261125T120000Z"},
		{name: "not AWS4-", auth: "AWS4", class: apierr.ErrMissingAuthenticationToken, msg: "Request is missing Authentication Token"},
		{name: "basic", auth: "Basic dXNlcjpwYXNz", class: apierr.ErrMissingAuthenticationToken, msg: "Request is missing Authentication Token"},
		{name: "AWS4- alone", auth: "AWS4-", class: apierr.ErrIncompleteSignature,
			msg: "Authorization header requires 'Credential' parameter. Authorization header requires 'Signature' parameter. " +
				"Authorization header requires 'SignedHeaders' parameter. Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. Authorization=AWS4-"},
		{name: "no SignedHeaders", auth: "AWS4- Signature=b Credential=a", date: "a", class: apierr.ErrIncompleteSignature,
			msg: "Authorization header requires 'SignedHeaders' parameter. Authorization=AWS4- Signature=b Credential=a"},
		{name: "no equal sign", auth: "AWS4-HMAC-SHA256 Credential=AKID /20210706/us-east-2/dynamodb/aws4_request, SignedHeaders=host, Signature=f2",
			class: apierr.ErrIncompleteSignature,
			msg:   "'/20210706/us-east-2/dynamodb/aws4_request' not a valid key=value pair (missing equal-sign) in Authorization header: 'AWS4-HMAC-SHA256 Credential=AKID /20210706/us-east-2/dynamodb/aws4_request, SignedHeaders=host, Signature=f2'."},
	}
	for _, tt := range tests {
		a, err := ParseAuthorization(tt.auth, tt.date, "")
		if tt.class == nil {
			require.NoError(t, err, tt.name)
			require.Equal(t, "abc", a.signature, tt.name)
			continue
		}
		require.ErrorIs(t, err, tt.class, tt.name)
		require.Equal(t, tt.msg, err.Error(), tt.name)
	}
}

// TestCheckAuth: the date, the signed headers, the algorithm and the
// credential scope, in DynamoDB's order and words.
func TestCheckAuth(t *testing.T) {
	ok := Auth{algorithm: sigAlgorithm, credential: "AKID/20261125/us-east-1/dynamodb/aws4_request", signedHeaders: "host;x-amz-date", signature: "00", date: "20261125T120000Z"}
	with := func(f func(*Auth)) Auth { a := ok; f(&a); return a }
	tests := []struct {
		name  string
		a     Auth
		class error
		msg   string
	}{
		{name: "good", a: ok},
		{name: "trailing slash", a: with(func(a *Auth) { a.credential += "/" })},
		{name: "date format", a: with(func(a *Auth) { a.date = "201" }), class: apierr.ErrIncompleteSignature,
			msg: "Date must be in ISO-8601 'basic format'. Got '201'. See http://en.wikipedia.org/wiki/ISO_8601"},
		{name: "expired before anything else", a: with(func(a *Auth) { a.date = "20170101T010101Z"; a.credential = "cassandra/2/3/4/aws4_request" }),
			class: apierr.ErrInvalidSignature, msg: "Signature expired: 20170101T010101Z is now earlier than 20261125T114500Z (20261125T120000Z - 15 min.)"},
		{name: "host not signed", a: with(func(a *Auth) { a.signedHeaders = "x-amz-date" }), class: apierr.ErrInvalidSignature,
			msg: "'Host' must be a 'SignedHeader' in the AWS Authorization."},
		{name: "HOST signed", a: with(func(a *Auth) { a.signedHeaders = "HOST;x-amz-date" })},
		{name: "algorithm", a: with(func(a *Auth) { a.algorithm = "AWS4-HMAC-SHA25" }), class: apierr.ErrIncompleteSignature,
			msg: "Unsupported AWS 'algorithm': 'AWS4-HMAC-SHA25' (only AWS4-HMAC-SHA256 for now). "},
		{name: "four parts", a: with(func(a *Auth) { a.credential = "a/b/c/d" }), class: apierr.ErrIncompleteSignature,
			msg: "Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got 'a/b/c/d'"},
		{name: "every scope part", a: with(func(a *Auth) { a.credential = "a/b/c_d/d/e" }), class: apierr.ErrInvalidSignature,
			msg: "Credential should be scoped to a valid region, not 'c_d'. Credential should be scoped to correct service: 'dynamodb'. " +
				"Credential should be scoped with a valid terminator: 'aws4_request', not 'e'. " +
				"Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: 'b' != '20261125', from '20261125T120000Z'."},
		{name: "region alone", a: with(func(a *Auth) { a.credential = "AKID/20261125//dynamodb/aws4_request" }), class: apierr.ErrInvalidSignature,
			msg: "Credential should be scoped to a valid region, not ''. "},
	}
	for _, tt := range tests {
		_, _, err := CheckAuth(tt.a, sigNow, ServiceDynamoDB)
		if tt.class == nil {
			require.NoError(t, err, tt.name)
			continue
		}
		require.ErrorIs(t, err, tt.class, tt.name)
		require.Equal(t, tt.msg, err.Error(), tt.name)
	}
}

// FuzzParseAuthorization: any Authorization header (and date) gives a
// parsed authentication or a classified error, never a panic; what parses
// goes through CheckAuth without one either.
func FuzzParseAuthorization(f *testing.F) {
	f.Add("AWS4-HMAC-SHA256 Credential=AKID/20261125/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=abc", "20261125T120000Z")
	f.Add("AWS4-", "")
	f.Add("AWS4- Signature=b,Credential=a", "a")
	f.Add("AWS4-HMAC-SHA256 Credential=AKID /2021/r/s/t, SignedHeaders=host, Signature=f", "20210706T000000Z")
	f.Add("AWS4-x Credential=a/b/c/d/e/f SignedHeaders=;; Signature==", "20261125T120000Z")
	f.Add("  AWS4-\t,,=,", "99999999T999999Z")
	f.Fuzz(func(t *testing.T, auth, date string) {
		a, err := ParseAuthorization(auth, date, "")
		if err != nil {
			if _, ok := apierr.Classify(err); !ok {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		if a.credential == "" || a.signature == "" || a.signedHeaders == "" || a.date == "" {
			t.Fatalf("parsed %+v from %q without its parts", a, auth)
		}
		if _, _, err := CheckAuth(a, sigNow, ServiceDynamoDB); err != nil {
			if _, ok := apierr.Classify(err); !ok {
				t.Fatalf("unclassified error %v", err)
			}
		}
	})
}

// FuzzCanonicalQuery: any raw query gives a canonical query of encoded
// pairs only (no byte a signer would not send), the same whatever the
// order of its pairs, and the canonical URI of any path keeps to the same
// alphabet.
func FuzzCanonicalQuery(f *testing.F) {
	f.Add("Action=ListUsers&Version=2010-05-08", "/")
	f.Add("b=2&a=1&a=0&flag", "/a%20b/c")
	f.Add("X-Amz-Signature=ab&X-Amz-Date=1&%zz=1&k=a+b", "/%2F..//x")
	f.Add("&&=&==", "")
	f.Fuzz(func(t *testing.T, raw, path string) {
		allowed := func(s string, extra string) bool {
			for i := 0; i < len(s); i++ {
				c := s[i]
				if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.~%"+extra, c) >= 0) {
					return false
				}
			}
			return true
		}
		got := canonicalQuery(raw, true)
		if !allowed(got, "=&") {
			t.Fatalf("canonicalQuery(%q) = %q: a byte outside the encoded alphabet", raw, got)
		}
		parts := strings.Split(raw, "&")
		slices.Reverse(parts)
		if again := canonicalQuery(strings.Join(parts, "&"), true); again != got {
			t.Fatalf("canonicalQuery depends on the order: %q vs %q", got, again)
		}
		if u := canonicalURI(path); !allowed(u, "/") {
			t.Fatalf("canonicalURI(%q) = %q", path, u)
		}
	})
}
