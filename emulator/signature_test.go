package emulator

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/sigv4"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// The keys of the signature tests.
const (
	sigKey    = "AKIDSIGNED0000000001"
	sigSecret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYSIGNEDKEY"
	sigShared = "AKIDSIGNED0000000002" // Namespace "team"
	sigTeam2  = "AKIDSIGNED0000000003" // Namespace "team" too
	sigRegion = "us-east-1"
)

// sigNow is the server's time in the tests that fix it.
var sigNow = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

// sigOptions are options with the test keys.
func sigOptions() Options {
	return Options{Credentials: []Credential{
		{AccessKeyID: sigKey, SecretAccessKey: sigSecret},
		{AccessKeyID: sigShared, SecretAccessKey: sigSecret, Namespace: "team"},
		{AccessKeyID: sigTeam2, SecretAccessKey: "another secret", Namespace: "team"},
	}, AdminTokens: []string{"token-0123456789abcdef"}}
}

// sigAnswer is a decoded answer: status, error type (after '#') and message.
type sigAnswer struct {
	status      int
	typ, msg    string
	body        string
	jsonMessage bool // the message was in "message", not "Message"
}

func readSigAnswer(t *testing.T, res *http.Response) sigAnswer {
	t.Helper()
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	a := sigAnswer{status: res.StatusCode, body: string(data)}
	var e struct {
		Type string  `json:"__type"`
		Low  *string `json:"message"`
		Cap  *string `json:"Message"`
	}
	if json.Unmarshal(data, &e) == nil {
		a.typ = e.Type[strings.LastIndexByte(e.Type, '#')+1:]
		switch {
		case e.Low != nil:
			a.msg, a.jsonMessage = *e.Low, true
		case e.Cap != nil:
			a.msg = *e.Cap
		}
	}
	return a
}

// sigRequest is a ListTables request to base, signed (unless key is "")
// by key and secret at the time at, then changed by edit.
func sigRequest(t *testing.T, base, key, secret string, at time.Time, edit func(*http.Request)) *http.Request {
	t.Helper()
	body := []byte(`{}`)
	req, err := http.NewRequest(http.MethodPost, base+"/", bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	if key != "" {
		sum := sha256.Sum256(body)
		err = v4.NewSigner().SignHTTP(context.Background(), aws.Credentials{AccessKeyID: key, SecretAccessKey: secret},
			req, hex.EncodeToString(sum[:]), "dynamodb", sigRegion, at)
		require.NoError(t, err)
	}
	if edit != nil {
		edit(req)
	}
	return req
}

func sendSig(t *testing.T, req *http.Request) sigAnswer {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	return readSigAnswer(t, res)
}

// TestSignedRequests: with Credentials, the server answers each way of
// getting a signature wrong as DynamoDB does (apierr/messages_signature.go
// names the records), and takes a right one; without Credentials, any
// signature passes.
func TestSignedRequests(t *testing.T) {
	e := newTestEmulator(t, sigOptions())
	e.keys.Now = func() time.Time { return sigNow }
	_, addr := startServer(t, e, ServerOptions{})
	base := "http://" + addr
	open := newTestEmulator(t, Options{})
	_, openAddr := startServer(t, open, ServerOptions{})
	openBase := "http://" + openAddr

	dateOf := func(t time.Time) string { return t.UTC().Format(sigv4.DateLayout) }
	presign := func(t *testing.T, base string, body []byte, edit func(*http.Request)) *http.Request {
		req, err := http.NewRequest(http.MethodPost, base+"/", bytes.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		sum := sha256.Sum256(body)
		uri, hdr, err := v4.NewSigner().PresignHTTP(context.Background(), aws.Credentials{AccessKeyID: sigKey, SecretAccessKey: sigSecret},
			req, hex.EncodeToString(sum[:]), "dynamodb", sigRegion, sigNow)
		require.NoError(t, err)
		out, err := http.NewRequest(http.MethodPost, uri, bytes.NewReader(body))
		require.NoError(t, err)
		for k, v := range hdr {
			if !strings.EqualFold(k, "Host") {
				out.Header[k] = v
			}
		}
		if edit != nil {
			edit(out)
		}
		return out
	}
	tests := []struct {
		name     string
		req      func(t *testing.T, base string) *http.Request
		typ, msg string // want with Credentials; "" type: 200
		prefix   bool   // msg is a prefix of the message ("" msg: not checked)
		open     int    // status wanted without Credentials
	}{
		{name: "right key", req: func(t *testing.T, b string) *http.Request {
			return sigRequest(t, b, sigKey, sigSecret, sigNow, nil)
		}, open: 200},
		{name: "key with a namespace", req: func(t *testing.T, b string) *http.Request {
			return sigRequest(t, b, sigShared, sigSecret, sigNow, nil)
		}, open: 200},
		{name: "wrong secret", req: func(t *testing.T, b string) *http.Request {
			return sigRequest(t, b, sigKey, "not-the-secret", sigNow, nil)
		}, typ: "InvalidSignatureException", prefix: true,
			msg:  "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.\n\nThe Canonical String for this request should have been\n'POST\n/\n\n",
			open: 200},
		{name: "unknown key", req: func(t *testing.T, b string) *http.Request {
			return sigRequest(t, b, "AKIDUNKNOWN", sigSecret, sigNow, nil)
		}, typ: "UnrecognizedClientException", msg: "The security token included in the request is invalid.", open: 200},
		{name: "clock 16 minutes behind", req: func(t *testing.T, b string) *http.Request {
			return sigRequest(t, b, sigKey, sigSecret, sigNow.Add(-16*time.Minute), nil)
		}, typ: "InvalidSignatureException",
			msg:  "Signature expired: " + dateOf(sigNow.Add(-16*time.Minute)) + " is now earlier than " + dateOf(sigNow.Add(-15*time.Minute)) + " (" + dateOf(sigNow) + " - 15 min.)",
			open: 200},
		{name: "clock 16 minutes ahead", req: func(t *testing.T, b string) *http.Request {
			return sigRequest(t, b, sigKey, sigSecret, sigNow.Add(16*time.Minute), nil)
		}, typ: "InvalidSignatureException",
			msg:  "Signature not yet current: " + dateOf(sigNow.Add(16*time.Minute)) + " is still later than " + dateOf(sigNow.Add(15*time.Minute)) + " (" + dateOf(sigNow) + " + 15 min.)",
			open: 200},
		{name: "clock 14 minutes behind", req: func(t *testing.T, b string) *http.Request {
			return sigRequest(t, b, sigKey, sigSecret, sigNow.Add(-14*time.Minute), nil)
		}, open: 200},
		{name: "missing Authorization", req: func(t *testing.T, b string) *http.Request {
			return sigRequest(t, b, "", "", sigNow, nil)
		}, typ: "MissingAuthenticationTokenException", msg: "Request is missing Authentication Token", open: 400},
		{name: "body changed after signing", req: func(t *testing.T, b string) *http.Request {
			return sigRequest(t, b, sigKey, sigSecret, sigNow, func(r *http.Request) {
				r.Body = io.NopCloser(strings.NewReader(`{"Limit":1}`))
				r.ContentLength = int64(len(`{"Limit":1}`))
			})
		}, typ: "InvalidSignatureException", prefix: true, msg: "The request signature we calculated does not match", open: 200},
		{name: "session token", req: func(t *testing.T, b string) *http.Request {
			req := sigRequest(t, b, "", "", sigNow, nil)
			body := []byte(`{}`)
			sum := sha256.Sum256(body)
			require.NoError(t, v4.NewSigner().SignHTTP(context.Background(),
				aws.Credentials{AccessKeyID: sigKey, SecretAccessKey: sigSecret, SessionToken: "tok"},
				req, hex.EncodeToString(sum[:]), "dynamodb", sigRegion, sigNow))
			return req
		}, typ: "UnrecognizedClientException", msg: "The security token included in the request is invalid", open: 200},
		{name: "credential scoped to another service", req: func(t *testing.T, b string) *http.Request {
			req := sigRequest(t, b, "", "", sigNow, nil)
			sum := sha256.Sum256([]byte(`{}`))
			require.NoError(t, v4.NewSigner().SignHTTP(context.Background(), aws.Credentials{AccessKeyID: sigKey, SecretAccessKey: sigSecret},
				req, hex.EncodeToString(sum[:]), "s3", sigRegion, sigNow))
			return req
		}, typ: "InvalidSignatureException", msg: "Credential should be scoped to correct service: 'dynamodb'. ", open: 200},
		// The SDK's presigner moves X-Amz-Target into the query string:
		// the call names no operation (as on AWS, which reads it from the
		// header alone).
		{name: "presigned", req: func(t *testing.T, b string) *http.Request {
			return presign(t, b, []byte(`{}`), nil)
		}, typ: "UnknownOperationException", open: 400},
		{name: "presigned, the operation in an unsigned header", req: func(t *testing.T, b string) *http.Request {
			return presign(t, b, []byte(`{}`), func(r *http.Request) { r.Header.Set("X-Amz-Target", "DynamoDB_20120810.DescribeLimits") })
		}, typ: "InvalidSignatureException", msg: "'X-Amz-Target' must be a 'SignedHeader' in the AWS Authorization.", open: 200},
		{name: "presigned and an Authorization header", req: func(t *testing.T, b string) *http.Request {
			return presign(t, b, []byte(`{}`), func(r *http.Request) {
				r.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
				r.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+sigKey+"/20261125/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00")
			})
		}, typ: "InvalidSignatureException", msg: "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header.", open: 200},
		{name: "operation not signed", req: func(t *testing.T, b string) *http.Request {
			req := sigRequest(t, b, "", "", sigNow, nil)
			req.Header.Del("X-Amz-Target")
			sum := sha256.Sum256([]byte(`{}`))
			require.NoError(t, v4.NewSigner().SignHTTP(context.Background(), aws.Credentials{AccessKeyID: sigKey, SecretAccessKey: sigSecret},
				req, hex.EncodeToString(sum[:]), "dynamodb", sigRegion, sigNow))
			req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
			return req
		}, typ: "InvalidSignatureException", msg: "'X-Amz-Target' must be a 'SignedHeader' in the AWS Authorization.", open: 200},
		{name: "query with X-Amz-Algorithm alone", req: func(t *testing.T, b string) *http.Request {
			return sigRequest(t, b+"/?X-Amz-Algorithm=AWS4-HMAC-SHA256", "", "", sigNow, nil)
		}, typ: "IncompleteSignatureException",
			msg: "AWS query-string parameters must include 'X-Amz-Credential'. AWS query-string parameters must include 'X-Amz-Signature'. " +
				"AWS query-string parameters must include 'X-Amz-SignedHeaders'. AWS query-string parameters must include 'X-Amz-Date'. Re-examine the query-string parameters.",
			open: 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sendSig(t, tt.req(t, base))
			if tt.typ == "" {
				require.Equal(t, 200, got.status, "%s", got.body)
			} else {
				require.Equal(t, 400, got.status, "%s", got.body)
				require.Equal(t, tt.typ, got.typ)
				switch {
				case tt.msg == "":
				case tt.prefix:
					require.True(t, strings.HasPrefix(got.msg, tt.msg), "got %q", got.msg)
				default:
					require.Equal(t, tt.msg, got.msg)
				}
			}
			// Without Credentials: no checks.
			require.Equal(t, tt.open, sendSig(t, tt.req(t, openBase)).status)
		})
	}
}

// TestSignatureMismatchMessage: the canonical string and string to sign in
// the answer are the server's, and they are the SDK's: signing again with
// the right secret gives a request the server takes.
func TestSignatureMismatchMessage(t *testing.T) {
	e := newTestEmulator(t, sigOptions())
	e.keys.Now = func() time.Time { return sigNow }
	_, addr := startServer(t, e, ServerOptions{})
	got := sendSig(t, sigRequest(t, "http://"+addr, sigKey, "wrong", sigNow, nil))
	require.Equal(t, "InvalidSignatureException", got.typ)
	require.True(t, got.jsonMessage, "AWS spells it \"message\": %s", got.body)
	canonical, sts, ok := strings.Cut(strings.TrimPrefix(got.msg, "The request signature we calculated does not match the signature you provided. "+
		"Check your AWS Secret Access Key and signing method. Consult the service documentation for details.\n\nThe Canonical String for this request should have been\n'"),
		"'\n\nThe String-to-Sign should have been\n'")
	require.True(t, ok, "%q", got.msg)
	sts = strings.TrimSuffix(sts, "'\n")
	sum := sha256.Sum256([]byte(`{}`))
	require.Equal(t, "POST\n/\n\ncontent-length:2\ncontent-type:application/x-amz-json-1.0\nhost:"+addr+
		"\nx-amz-date:20261125T120000Z\nx-amz-target:DynamoDB_20120810.ListTables\n\ncontent-length;content-type;host;x-amz-date;x-amz-target\n"+
		hex.EncodeToString(sum[:]), canonical)
	csum := sha256.Sum256([]byte(canonical))
	require.Equal(t, "AWS4-HMAC-SHA256\n20261125T120000Z\n20261125/us-east-1/dynamodb/aws4_request\n"+hex.EncodeToString(csum[:]), sts)
}

// TestSignedSDK: the AWS SDK for Go as a client, with and without
// Credentials: the right key works and lands in its namespace (a key's
// Namespace shared), a wrong secret and an unknown key fail with
// DynamoDB's errors.
func TestSignedSDK(t *testing.T) {
	e := newTestEmulator(t, sigOptions())
	_, addr := startServer(t, e, ServerOptions{})
	open := newTestEmulator(t, Options{})
	_, openAddr := startServer(t, open, ServerOptions{})
	client := func(addr, key, secret string) *dynamodb.Client {
		return dynamodb.New(dynamodb.Options{Region: sigRegion, BaseEndpoint: aws.String("http://" + addr),
			Credentials: credentials.NewStaticCredentialsProvider(key, secret, ""), RetryMaxAttempts: 1})
	}
	ctx := context.Background()
	tests := []struct {
		name, key, secret string
		code              string // with Credentials; "" works
	}{
		{"right key", sigKey, sigSecret, ""},
		{"wrong secret", sigKey, "wrong", "InvalidSignatureException"},
		{"unknown key", "AKIDUNKNOWN", sigSecret, "UnrecognizedClientException"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := client(addr, tt.key, tt.secret).ListTables(ctx, &dynamodb.ListTablesInput{})
			if tt.code == "" {
				require.NoError(t, err)
			} else {
				var ae smithy.APIError
				require.True(t, errors.As(err, &ae), "%v", err)
				require.Equal(t, tt.code, ae.ErrorCode())
			}
			_, err = client(openAddr, tt.key, tt.secret).ListTables(ctx, &dynamodb.ListTablesInput{})
			require.NoError(t, err, "without Credentials any key works")
		})
	}

	// A key's Namespace names its database: two keys of one namespace
	// share tables; a key without one has its own.
	team := client(addr, sigShared, sigSecret)
	_, err := team.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("shared"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}},
		BillingMode:          "PAY_PER_REQUEST"})
	require.NoError(t, err)
	other, err := client(addr, sigTeam2, "another secret").ListTables(ctx, &dynamodb.ListTablesInput{})
	require.NoError(t, err)
	require.Equal(t, []string{"shared"}, other.TableNames)
	own, err := client(addr, sigKey, sigSecret).ListTables(ctx, &dynamodb.ListTablesInput{})
	require.NoError(t, err)
	require.Empty(t, own.TableNames)
}

// TestAdminCredentials: with Credentials the admin endpoints need a
// signature by a listed key or an admin token (the Bearer scheme in any
// case); the console's files, GET / and the health endpoint need
// nothing.
func TestAdminCredentials(t *testing.T) {
	e := newTestEmulator(t, Options{Credentials: sigOptions().Credentials, AdminTokens: sigOptions().AdminTokens,
		Console: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "console") })})
	_, addr := startServer(t, e, ServerOptions{})
	base := "http://" + addr
	signed := func(method, path, body, key, secret string) *http.Request {
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		require.NoError(t, err)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		sum := sha256.Sum256([]byte(body))
		require.NoError(t, v4.NewSigner().SignHTTP(context.Background(), aws.Credentials{AccessKeyID: key, SecretAccessKey: secret},
			req, hex.EncodeToString(sum[:]), "dynamodb", sigRegion, time.Now()))
		return req
	}
	plain := func(method, path, auth string) *http.Request {
		req, err := http.NewRequest(method, base+path, nil)
		require.NoError(t, err)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		return req
	}
	tests := []struct {
		name   string
		req    *http.Request
		status int
		typ    string
	}{
		{"clock, no credentials", plain("GET", adminpath.Clock, ""), 400, "MissingAuthenticationTokenException"},
		{"clock, token", plain("GET", adminpath.Clock, "Bearer token-0123456789abcdef"), 200, ""},
		{"clock, wrong token", plain("GET", adminpath.Clock, "Bearer token-0123456789abcdeX"), 400, "UnrecognizedClientException"},
		{"clock, signed", signed("GET", adminpath.Clock, "", sigKey, sigSecret), 200, ""},
		{"clock moved, signed", signed("POST", adminpath.Clock, `{"advance":"1s"}`, sigKey, sigSecret), 200, ""},
		{"clock, wrong secret", signed("GET", adminpath.Clock, "", sigKey, "wrong"), 400, "InvalidSignatureException"},
		{"conventions, no credentials", plain("GET", adminpath.Conventions, ""), 400, "MissingAuthenticationTokenException"},
		{"console page, no credentials", plain("GET", adminpath.Console, ""), 200, ""},
		{"health, no credentials", plain("GET", "/", ""), 200, ""},
		{"clock, token, scheme in lower case", plain("GET", adminpath.Clock, "bearer token-0123456789abcdef"), 200, ""},
		{"clock, token, scheme in upper case", plain("GET", adminpath.Clock, "BEARER token-0123456789abcdef"), 200, ""},
		{"health endpoint, no credentials", plain("GET", adminpath.Health, ""), 200, ""},
	}
	for _, tt := range tests {
		got := sendSig(t, tt.req)
		require.Equal(t, tt.status, got.status, "%s: %s", tt.name, got.body)
		require.Equal(t, tt.typ, got.typ, tt.name)
	}
}

// TestCredentialsValidate: bad keys and tokens are refused by New.
func TestCredentialsValidate(t *testing.T) {
	tests := []struct {
		name string
		o    Options
		want string
	}{
		{"empty id", Options{Credentials: []Credential{{SecretAccessKey: "s"}}}, "access key id"},
		{"bad id", Options{Credentials: []Credential{{AccessKeyID: "a-b", SecretAccessKey: "s"}}}, "access key id"},
		{"twice", Options{Credentials: []Credential{{AccessKeyID: "a", SecretAccessKey: "s"}, {AccessKeyID: "a", SecretAccessKey: "t"}}}, "twice"},
		{"no secret", Options{Credentials: []Credential{{AccessKeyID: "a"}}}, "secret"},
		{"bad namespace", Options{Credentials: []Credential{{AccessKeyID: "a", SecretAccessKey: "s", Namespace: "a/b"}}}, "namespace"},
		{"token without keys", Options{AdminTokens: []string{"0123456789abcdef"}}, "need Credentials"},
		{"short token", Options{Credentials: []Credential{{AccessKeyID: "a", SecretAccessKey: "s"}}, AdminTokens: []string{"short"}}, "admin token"},
	}
	for _, tt := range tests {
		_, err := New(tt.o)
		require.ErrorContains(t, err, tt.want, tt.name)
	}
}

// TestCredentialsServeWithNetHTTP: with Credentials the connection loop is
// off (a signature covers headers the loop does not keep).
func TestCredentialsServeWithNetHTTP(t *testing.T) {
	e := newTestEmulator(t, sigOptions())
	require.Nil(t, e.NewServer(ServerOptions{}).loop)
	require.NotNil(t, newTestEmulator(t, Options{}).NewServer(ServerOptions{}).loop)
}
