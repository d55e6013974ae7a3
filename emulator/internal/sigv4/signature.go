// Package sigv4 checks a request's AWS Signature Version 4 as DynamoDB
// checks it: the emulator's server (emulator/credentials.go) parses a
// request's authentication with ParseAuthorization or ParseQueryAuth,
// checks its date and scope with CheckAuth, and, once it knows the key's
// secret, its signature with CheckSignature over InputOf the request.
// A Keyring (keyring.go) holds the listed keys and admin tokens and runs
// those steps for a request: Begin before its body, Finish with the
// body's hash, AdminAuth for an admin endpoint. Without signature checks,
// CredentialOf and ParseCredential (credential.go) read only who and
// where a request's credential names.
// It is HTTP plumbing, not part of the Go API.
package sigv4

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// SigV4 verification, with Options.Credentials (emulator/credentials.go): the
// server checks a request's signature as AWS checks it, from AWS's
// specification of Signature Version 4 ("Create a signed AWS API
// request", IAM User Guide): the canonical request, the string to sign,
// the signing key derived from the secret by HMAC-SHA256, nothing taken
// from an SDK. The checks run in the order DynamoDB runs them, and fail
// with DynamoDB's errors and words (apierr/messages_signature.go says
// where each was recorded):
//
//  1. Authentication in the query string (X-Amz-Algorithm present) and in
//     an Authorization header at once: InvalidSignatureException.
//  2. Neither, or an Authorization that does not start "AWS4-":
//     MissingAuthenticationTokenException.
//  3. A word of the header that is not key=value, then the missing
//     parameters (Credential, Signature, SignedHeaders, a date header; in
//     the query string X-Amz-Algorithm, -Credential, -Signature,
//     -SignedHeaders, -Date): IncompleteSignatureException.
//  4. The date not in ISO 8601 basic format: IncompleteSignatureException.
//  5. The date more than 15 minutes before or after the server's time:
//     InvalidSignatureException, "Signature expired" / "Signature not yet
//     current".
//  6. host not among the signed headers: InvalidSignatureException.
//     6b. For an API call, X-Amz-Target not among them either: the
//     emulator's own rule (apierr.MsgTargetNotSigned says why), checked
//     after step 8.
//  7. An algorithm other than AWS4-HMAC-SHA256, then a credential of other
//     than five parts: IncompleteSignatureException.
//  8. The credential's region, service (dynamodb; lambda for Lambda's
//     event source mapping API, Keyring.Auth), terminator (aws4_request)
//     and date (the request's): InvalidSignatureException, every failing
//     sentence in one message.
//  9. An access key id the server does not know:
//     UnrecognizedClientException.
//  10. The signature: InvalidSignatureException with the canonical string
//     and the string to sign the server computed, as AWS shows them.
//  11. An X-Amz-Security-Token (the server issues no session tokens):
//     UnrecognizedClientException.
//
// Query-string authentication ("presigned" requests) is checked as AWS
// checks it: the same steps with the X-Amz-* parameters, the canonical
// query string without X-Amz-Signature. AWS's SDK maintainers reported
// DynamoDB accepting query-string signing (aws/aws-sdk-go#94, 2015), and
// DynamoDB answers a presigned request whose canonical request differs
// from what was signed with InvalidSignatureException (boto/boto3#3512,
// 2022): a URL presigned for one request does not carry another. The
// expiry window is the header's 15 minutes; X-Amz-Expires is not read.

// sigAlgorithm is the only algorithm AWS's DynamoDB accepts.
const sigAlgorithm = "AWS4-HMAC-SHA256"

// The signing names of the services whose requests the server checks.
const (
	// ServiceDynamoDB signs DynamoDB's and DynamoDB Streams' API and the
	// admin endpoints.
	ServiceDynamoDB = "dynamodb"
	// ServiceLambda signs Lambda's API (its event source mappings).
	ServiceLambda = "lambda"
)

// sigTerminator ends a credential scope.
const sigTerminator = "aws4_request"

// DateLayout is ISO 8601's basic format, as X-Amz-Date is written.
const DateLayout = "20060102T150405Z"

// sigSkew is how far a request's date may be from the server's time.
const sigSkew = 15 * time.Minute

// Auth is a request's SigV4 authentication, from its Authorization
// header or its query string.
type Auth struct {
	Query         bool   // from the query string (X-Amz-Algorithm and the rest)
	algorithm     string // AWS4-HMAC-SHA256
	credential    string // keyid/date/region/service/aws4_request
	signedHeaders string // "host;x-amz-date", lower case by convention
	signature     string // lower-case hex
	date          string // X-Amz-Date, or the Date header
}

// Query-string authentication parameters.
const (
	QAlgorithm     = "X-Amz-Algorithm"
	qCredential    = "X-Amz-Credential"
	qSignature     = "X-Amz-Signature"
	qSignedHeaders = "X-Amz-SignedHeaders"
	qDate          = "X-Amz-Date"
	QSecurityToken = "X-Amz-Security-Token"
)

// ParseAuthorization parses an Authorization header, auth, given the
// request's X-Amz-Date and Date headers (steps 2 and 3). DynamoDB reads the
// header as words separated by commas and blanks: the first is the
// algorithm, each other one key=value (a repeated key: the last).
func ParseAuthorization(auth, amzDate, date string) (Auth, error) {
	if !strings.HasPrefix(strings.TrimSpace(auth), "AWS4-") {
		return Auth{}, apierr.MissingAuthenticationToken()
	}
	words := strings.FieldsFunc(auth, func(r rune) bool { return r == ',' || r == ' ' })
	a := Auth{algorithm: words[0]}
	for _, w := range words[1:] {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			return Auth{}, apierr.New(apierr.ErrIncompleteSignature, fmt.Sprintf(apierr.MsgMissingPair, w, auth))
		}
		switch k {
		case "Credential":
			a.credential = v
		case "Signature":
			a.signature = v
		case "SignedHeaders":
			a.signedHeaders = v
		}
	}
	a.date = amzDate
	if a.date == "" {
		a.date = date
	}
	var msg strings.Builder
	for _, p := range [...]struct{ name, val string }{
		{"Credential", a.credential}, {"Signature", a.signature}, {"SignedHeaders", a.signedHeaders},
	} {
		if p.val == "" {
			fmt.Fprintf(&msg, apierr.MsgHeaderRequires, p.name)
		}
	}
	if a.date == "" {
		msg.WriteString(apierr.MsgHeaderRequiresDate)
	}
	if msg.Len() > 0 {
		fmt.Fprintf(&msg, apierr.MsgHeaderSuffix, auth)
		return Auth{}, apierr.New(apierr.ErrIncompleteSignature, msg.String())
	}
	return a, nil
}

// ParseQueryAuth reads query-string authentication from q (step 3).
func ParseQueryAuth(q url.Values) (Auth, error) {
	a := Auth{Query: true, algorithm: q.Get(QAlgorithm), credential: q.Get(qCredential),
		signature: q.Get(qSignature), signedHeaders: q.Get(qSignedHeaders), date: q.Get(qDate)}
	var msg strings.Builder
	for _, p := range [...]struct{ name, val string }{
		{QAlgorithm, a.algorithm}, {qCredential, a.credential}, {qSignature, a.signature},
		{qSignedHeaders, a.signedHeaders}, {qDate, a.date},
	} {
		if p.val == "" {
			fmt.Fprintf(&msg, apierr.MsgQueryRequires, p.name)
		}
	}
	if msg.Len() > 0 {
		msg.WriteString(apierr.MsgQuerySuffix)
		return Auth{}, apierr.New(apierr.ErrIncompleteSignature, msg.String())
	}
	return a, nil
}

// Scope is a parsed credential: keyid/date/region/service/terminator.
type Scope struct {
	// KeyID is the access key id.
	KeyID string
	// Region is the credential's region.
	Region                    string
	date, service, terminator string
}

// String is the credential scope without the key id, as the string to
// sign has it.
func (s Scope) String() string {
	return s.date + "/" + s.Region + "/" + s.service + "/" + s.terminator
}

// CheckAuth runs steps 4 to 8 on a, a request to service (its signing
// name, ServiceDynamoDB or ServiceLambda): the date against now, host
// among the signed headers, the algorithm, the credential's form and
// scope. It returns the request's time and the credential's parts.
func CheckAuth(a Auth, now time.Time, service string) (time.Time, Scope, error) {
	t, err := time.Parse(DateLayout, a.date)
	if err != nil || len(a.date) != len(DateLayout) {
		return time.Time{}, Scope{}, apierr.New(apierr.ErrIncompleteSignature, fmt.Sprintf(apierr.MsgDateFormat, a.date))
	}
	now = now.UTC()
	switch {
	case t.Before(now.Add(-sigSkew)):
		return time.Time{}, Scope{}, apierr.New(apierr.ErrInvalidSignature, fmt.Sprintf(apierr.MsgSignatureExpired,
			a.date, now.Add(-sigSkew).Format(DateLayout), now.Format(DateLayout)))
	case t.After(now.Add(sigSkew)):
		return time.Time{}, Scope{}, apierr.New(apierr.ErrInvalidSignature, fmt.Sprintf(apierr.MsgSignatureNotYetCurrent,
			a.date, now.Add(sigSkew).Format(DateLayout), now.Format(DateLayout)))
	}
	if !Signs(a, "host") {
		return time.Time{}, Scope{}, apierr.New(apierr.ErrInvalidSignature, apierr.MsgHostNotSigned)
	}
	if a.algorithm != sigAlgorithm {
		return time.Time{}, Scope{}, apierr.New(apierr.ErrIncompleteSignature, fmt.Sprintf(apierr.MsgUnsupportedAlgorithm, a.algorithm))
	}
	parts := strings.Split(strings.TrimRight(a.credential, "/"), "/")
	if len(parts) != 5 {
		return time.Time{}, Scope{}, apierr.New(apierr.ErrIncompleteSignature, fmt.Sprintf(apierr.MsgCredentialElements, a.credential))
	}
	s := Scope{KeyID: parts[0], date: parts[1], Region: parts[2], service: parts[3], terminator: parts[4]}
	var msg strings.Builder
	if !validRegion(s.Region) {
		fmt.Fprintf(&msg, apierr.MsgScopeRegion, s.Region)
	}
	if s.service != service {
		fmt.Fprintf(&msg, apierr.MsgScopeService, service)
	}
	if s.terminator != sigTerminator {
		fmt.Fprintf(&msg, apierr.MsgScopeTerminator, s.terminator)
	}
	if s.date != a.date[:8] {
		fmt.Fprintf(&msg, apierr.MsgScopeDate, s.date, a.date[:8], a.date)
	}
	if msg.Len() > 0 {
		return time.Time{}, Scope{}, apierr.New(apierr.ErrInvalidSignature, msg.String())
	}
	return t, s, nil
}

// signs reports whether header name (lower case) is among a's signed
// headers, in any case.
func Signs(a Auth, name string) bool {
	return slices.ContainsFunc(strings.Split(a.signedHeaders, ";"), func(h string) bool { return strings.EqualFold(h, name) })
}

// validRegion reports whether a credential's region is one the server
// answers: every region is (a namespace is an access key and a region),
// so any name AWS's regions could have, 1 to 64 letters, digits and
// hyphens, as the console checks it.
func validRegion(r string) bool {
	if r == "" || len(r) > 64 {
		return false
	}
	for i := 0; i < len(r); i++ {
		c := r[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Input is what the canonical request is made of: the request's
// method, escaped path, raw query, headers and Host, and its body's
// SHA-256.
type Input struct {
	method      string
	path        string // escaped, as the request line had it
	rawQuery    string
	header      http.Header
	host        string
	length      int64 // Content-Length, for a signed content-length the header map lacks
	payloadHash [sha256.Size]byte
}

// InputOf is the Input of r, whose body hashed to sum.
func InputOf(r *http.Request, sum [sha256.Size]byte) Input {
	return Input{method: r.Method, path: r.URL.EscapedPath(), rawQuery: r.URL.RawQuery,
		header: r.Header, host: r.Host, length: r.ContentLength, payloadHash: sum}
}

// canonicalRequest is SigV4's canonical request of in under a's signed
// headers.
func canonicalRequest(in *Input, a Auth) string {
	var b strings.Builder
	b.WriteString(in.method)
	b.WriteByte('\n')
	b.WriteString(canonicalURI(in.path))
	b.WriteByte('\n')
	b.WriteString(canonicalQuery(in.rawQuery, a.Query))
	b.WriteByte('\n')
	names := strings.Split(a.signedHeaders, ";")
	for _, name := range names {
		name = strings.ToLower(name)
		b.WriteString(name)
		b.WriteByte(':')
		b.WriteString(canonicalHeaderValue(in, name))
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	b.WriteString(strings.ToLower(a.signedHeaders))
	b.WriteByte('\n')
	b.WriteString(hex.EncodeToString(in.payloadHash[:]))
	return b.String()
}

// canonicalHeaderValue is the value of header name (lower case) in the
// canonical request: every instance's value trimmed, runs of blanks made
// one space, joined with commas (AWS joins repeated headers so:
// ScyllaDB's test_multiple_accept_encoding_headers, run against AWS). An
// absent header is empty.
func canonicalHeaderValue(in *Input, name string) string {
	var vals []string
	switch name {
	case "host":
		vals = []string{in.host}
	default:
		vals = in.header.Values(name)
		if len(vals) == 0 && name == "content-length" && in.length >= 0 {
			vals = []string{strconv.FormatInt(in.length, 10)}
		}
	}
	trimmed := make([]string, len(vals)) // not in place: vals may be the request's
	for i, v := range vals {
		trimmed[i] = strings.Join(strings.Fields(v), " ")
	}
	return strings.Join(trimmed, ",")
}

// canonicalURI is the canonical form of an escaped path: empty is "/",
// and every byte but the unreserved ones and "/" is percent-encoded once
// more (the path is encoded twice for every service but S3, as the SDKs
// sign it).
func canonicalURI(escaped string) string {
	if escaped == "" {
		return "/"
	}
	return uriEncode(escaped, false)
}

// canonicalQuery is the canonical query string of raw: every name and
// value decoded, then encoded as RFC 3986 has it, the pairs sorted by name
// then value, X-Amz-Signature left out when the query carries the
// signature.
func canonicalQuery(raw string, signed bool) string {
	if raw == "" {
		return ""
	}
	// Each pair is held as name NUL value: an encoded name or value has
	// no byte below "%", so the strings sort as the pairs do, by name then
	// value, with the sort of strings the server has anyway (a sort of
	// pairs would add a copy of the sort to the binary).
	var pairs []string
	for part := range strings.SplitSeq(raw, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		k, kerr := url.QueryUnescape(k)
		v, verr := url.QueryUnescape(v)
		if kerr != nil || verr != nil {
			continue // not what any signer sends: the signature will not match
		}
		if signed && k == qSignature {
			continue
		}
		pairs = append(pairs, uriEncode(k, true)+"\x00"+uriEncode(v, true))
	}
	slices.Sort(pairs)
	var b strings.Builder
	for i, p := range pairs {
		if i > 0 {
			b.WriteByte('&')
		}
		k, v, _ := strings.Cut(p, "\x00")
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(v)
	}
	return b.String()
}

// uriEncode percent-encodes every byte of s but the unreserved ones
// (A-Z a-z 0-9 - _ . ~) and, unless slash, "/", in upper-case hex.
func uriEncode(s string, slash bool) string {
	const hexDigits = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '-', c == '_', c == '.', c == '~', c == '/' && !slash:
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&15])
		}
	}
	return b.String()
}

// stringToSign is SigV4's string to sign of a canonical request.
func stringToSign(a Auth, scope Scope, canonical string) string {
	sum := sha256.Sum256([]byte(canonical))
	return sigAlgorithm + "\n" + a.date + "\n" + scope.String() + "\n" + hex.EncodeToString(sum[:])
}

// signature is the hex HMAC-SHA256 of sts under the key SigV4 derives from
// secret and scope.
func signature(secret string, scope Scope, sts string) string {
	key := hmacSHA256([]byte("AWS4"+secret), scope.date)
	key = hmacSHA256(key, scope.Region)
	key = hmacSHA256(key, scope.service)
	key = hmacSHA256(key, scope.terminator)
	return hex.EncodeToString(hmacSHA256(key, sts))
}

func hmacSHA256(key []byte, data string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(data))
	return h.Sum(nil)
}

// CheckSignature is step 10: whether a's signature is the one secret
// gives in, and AWS's answer if not.
func CheckSignature(in *Input, a Auth, scope Scope, secret string) error {
	canonical := canonicalRequest(in, a)
	sts := stringToSign(a, scope, canonical)
	want := signature(secret, scope, sts)
	if !hmac.Equal([]byte(want), []byte(a.signature)) {
		return apierr.New(apierr.ErrInvalidSignature, fmt.Sprintf(apierr.MsgSignatureMismatch, canonical, sts))
	}
	return nil
}
