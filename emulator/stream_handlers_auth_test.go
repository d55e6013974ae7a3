package emulator

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/stretchr/testify/require"
)

// lambdaCall is one call of Lambda's event source mapping API: its
// method, its path below the collection's, its body and the status of
// its success.
type lambdaCall struct {
	op, method, path, body string
	ok                     int
}

// lambdaCalls are the five operations, about mapping uuid.
func lambdaCalls(uuid string) []lambdaCall {
	return []lambdaCall{
		{"CreateEventSourceMapping", http.MethodPost, "/",
			`{"TableName":"orders","FunctionName":"fn","StartingPosition":"LATEST","Endpoint":"http://127.0.0.1:9"}`, http.StatusAccepted},
		{"ListEventSourceMappings", http.MethodGet, "/?FunctionName=fn&MaxItems=50", "", http.StatusOK},
		{"GetEventSourceMapping", http.MethodGet, "/" + uuid, "", http.StatusOK},
		{"UpdateEventSourceMapping", http.MethodPut, "/" + uuid, `{"BatchSize":5}`, http.StatusAccepted},
		{"DeleteEventSourceMapping", http.MethodDelete, "/" + uuid, "", http.StatusAccepted},
	}
}

// lambdaRequest is c's request to the server at base, as the AWS CLI
// sends it (Content-Type application/json with a body), signed by sign
// when not nil.
func lambdaRequest(t *testing.T, base string, c lambdaCall, sign func(r *http.Request, body []byte)) *http.Request {
	t.Helper()
	req, err := http.NewRequest(c.method, base+"/2015-03-31/event-source-mappings"+c.path, bytes.NewReader([]byte(c.body)))
	require.NoError(t, err)
	if c.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if sign != nil {
		sign(req, []byte(c.body))
	}
	return req
}

// signFor signs with key and secret for service in region, as the SDKs'
// Lambda clients sign (aws-sdk-go-v2's SigV4 signer).
func signFor(t *testing.T, key, secret, service, region string) func(*http.Request, []byte) {
	return func(r *http.Request, body []byte) {
		sum := sha256.Sum256(body)
		require.NoError(t, v4.NewSigner().SignHTTP(context.Background(), aws.Credentials{AccessKeyID: key, SecretAccessKey: secret},
			r, hex.EncodeToString(sum[:]), service, region, time.Now()))
	}
}

// lambdaAnswer is an answer of the API: status, X-Amzn-ErrorType, the
// message ("message" or "Message") and the body.
type lambdaAnswer struct {
	status    int
	typ, msg  string
	capital   bool // the message was in "Message"
	body      string
	mappingID string // UUID of the configuration answered
}

func sendLambda(t *testing.T, req *http.Request) lambdaAnswer {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	a := lambdaAnswer{status: res.StatusCode, typ: res.Header.Get("X-Amzn-ErrorType"), body: string(b)}
	var v struct {
		Low  *string `json:"message"`
		Cap  *string `json:"Message"`
		UUID string
	}
	require.NoError(t, json.Unmarshal(b, &v), "the answer %q is not JSON", b)
	switch {
	case v.Low != nil:
		a.msg = *v.Low
	case v.Cap != nil:
		a.msg, a.capital = *v.Cap, true
	}
	a.mappingID = v.UUID
	return a
}

// TestLambdaAPISigned: with Credentials (-credentials) every operation
// of Lambda's event source mapping API needs a signature by a listed
// key scoped to the service lambda, as Lambda's API does: unsigned,
// signed for dynamodb, signed with a wrong secret, by an unknown key,
// with a wrong bearer token, or signed right but from a web page of
// another origin, each of the five is refused with Lambda's answer
// (403, X-Amzn-ErrorType) and changes nothing; signed right, or with an
// admin token, each succeeds.
func TestLambdaAPISigned(t *testing.T) {
	e := newTestEmulator(t, sigOptions())
	t.Cleanup(func() { e.Close() })
	_, addr := startServer(t, e, ServerOptions{})
	base := "http://" + addr
	made, err := e.Streams().CreateMapping(EventSourceMapping{TableName: aws.String("orders"), FunctionName: aws.String("fn"),
		StartingPosition: aws.String("LATEST")})
	require.NoError(t, err)

	bearer := func(tok string) func(*http.Request, []byte) {
		return func(r *http.Request, _ []byte) { r.Header.Set("Authorization", "Bearer "+tok) }
	}
	refusals := []struct {
		name     string
		sign     func(*http.Request, []byte)
		origin   string
		typ, msg string
		prefix   bool // msg is the message's start
		capital  bool
	}{
		{name: "unsigned", typ: "MissingAuthenticationTokenException", msg: "Missing Authentication Token"},
		{name: "signed for dynamodb", sign: signFor(t, sigKey, sigSecret, "dynamodb", sigRegion),
			typ: "InvalidSignatureException", msg: "Credential should be scoped to correct service: 'lambda'. "},
		{name: "wrong secret", sign: signFor(t, sigKey, "not-the-secret", "lambda", sigRegion),
			typ: "InvalidSignatureException", prefix: true, msg: "The request signature we calculated does not match the signature you provided."},
		{name: "unknown key", sign: signFor(t, "AKIDUNKNOWN", sigSecret, "lambda", sigRegion),
			typ: "UnrecognizedClientException", msg: "The security token included in the request is invalid."},
		{name: "wrong admin token", sign: bearer("token-not-the-right-one"),
			typ: "UnrecognizedClientException", msg: "The security token included in the request is invalid."},
		{name: "a web page of another origin", sign: signFor(t, sigKey, sigSecret, "lambda", sigRegion), origin: "http://evil.example",
			typ: "AccessDeniedException", prefix: true, capital: true, msg: `dynamoemu's admin endpoints do not answer web pages of origin "http://evil.example"`},
	}
	for _, tc := range refusals {
		for _, c := range lambdaCalls(made) {
			req := lambdaRequest(t, base, c, tc.sign)
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			a := sendLambda(t, req)
			require.Equal(t, http.StatusForbidden, a.status, "%s, %s: %s", tc.name, c.op, a.body)
			require.Equal(t, tc.typ, a.typ, "%s, %s", tc.name, c.op)
			if tc.prefix {
				require.True(t, strings.HasPrefix(a.msg, tc.msg), "%s, %s: %q", tc.name, c.op, a.msg)
			} else {
				require.Equal(t, tc.msg, a.msg, "%s, %s", tc.name, c.op)
			}
			require.Equal(t, tc.capital, a.capital, "%s, %s: %s", tc.name, c.op, a.body)
		}
	}
	all := e.Streams().Mappings()
	require.Len(t, all, 1, "a refused request made a mapping")
	require.Equal(t, made, all[0].UUID, "a refused request deleted the mapping")
	got, err := e.esm().Get(made)
	require.NoError(t, err)
	require.EqualValues(t, 100, got.BatchSize, "a refused request updated the mapping")

	for _, ok := range []struct {
		name string
		sign func(*http.Request, []byte)
	}{
		{"signed for lambda", signFor(t, sigKey, sigSecret, "lambda", sigRegion)},
		{"signed for lambda in another region", signFor(t, sigShared, sigSecret, "lambda", "eu-west-1")},
		{"an admin token", bearer("token-0123456789abcdef")},
	} {
		created := sendLambda(t, lambdaRequest(t, base, lambdaCalls("")[0], ok.sign))
		require.Equal(t, http.StatusAccepted, created.status, "%s, CreateEventSourceMapping: %s", ok.name, created.body)
		uuid := created.mappingID
		require.NotEmpty(t, uuid, ok.name)
		for _, c := range lambdaCalls(uuid)[1:] {
			a := sendLambda(t, lambdaRequest(t, base, c, ok.sign))
			require.Equal(t, c.ok, a.status, "%s, %s: %s", ok.name, c.op, a.body)
		}
		_, err := e.esm().Get(uuid)
		require.Error(t, err, "%s: the signed DeleteEventSourceMapping left the mapping", ok.name)
	}
}

// TestLambdaAPIIAM: in the IAM policy mode (-iamPolicies) each call of
// Lambda's mapping API by a key with an identity is decided as IAM's
// lambda:<operation>, as Lambda's permissions reference has it: Create
// and List on "*", Get, Update and Delete on the mapping's ARN, and
// lambda:FunctionArn naming the function the mapping invokes. A denial
// is Lambda's 403 AccessDeniedException with IAM's message, and
// changes nothing; a key without an identity acts as the root.
func TestLambdaAPIIAM(t *testing.T) {
	e := newIAMEmulator(t, iamOptions())
	_, addr := startServer(t, e, ServerOptions{})
	base := "http://" + addr
	mk := func(fn string) (uuid, arn string) {
		id, err := e.Streams().CreateMapping(EventSourceMapping{TableName: aws.String("orders"), FunctionName: aws.String(fn),
			StartingPosition: aws.String("LATEST")})
		require.NoError(t, err)
		c, err := e.esm().Get(id)
		require.NoError(t, err)
		return id, c.EventSourceMappingArn
	}
	mine, mineARN := mk("allowed")
	theirs, theirsARN := mk("other")
	require.Equal(t, "arn:aws:lambda:us-east-1:000000000000:event-source-mapping:"+mine, mineARN)
	const fnAllowed = "arn:aws:lambda:us-east-1:000000000000:function:allowed"
	allowWrites := `{"Effect":"Allow","Action":["lambda:CreateEventSourceMapping","lambda:UpdateEventSourceMapping","lambda:DeleteEventSourceMapping"],` +
		`"Resource":"*","Condition":{"StringEquals":{"lambda:FunctionArn":"` + fnAllowed + `"}}}`
	allowReads := `{"Effect":"Allow","Action":"lambda:GetEventSourceMapping","Resource":"` + mineARN + `"},` +
		`{"Effect":"Allow","Action":"lambda:ListEventSourceMappings","Resource":"*"}`
	require.NoError(t, e.SetIAMPolicies(iamPolicies(policy(allowWrites, allowReads))))

	call := func(key string, c lambdaCall) lambdaAnswer {
		return sendLambda(t, lambdaRequest(t, base, c, signFor(t, key, iamSecret, "lambda", iamRegion)))
	}
	create := func(fn string) lambdaCall {
		return lambdaCall{"CreateEventSourceMapping", http.MethodPost, "/",
			`{"TableName":"orders","FunctionName":"` + fn + `","StartingPosition":"LATEST"}`, http.StatusAccepted}
	}
	get := func(uuid string) lambdaCall { return lambdaCalls(uuid)[2] }
	update := func(uuid, body string) lambdaCall {
		return lambdaCall{"UpdateEventSourceMapping", http.MethodPut, "/" + uuid, body, http.StatusAccepted}
	}
	del := func(uuid string) lambdaCall { return lambdaCalls(uuid)[4] }
	list := lambdaCalls("")[1]
	denied := func(a lambdaAnswer, user, action, resource, reason string) {
		t.Helper()
		require.Equal(t, http.StatusForbidden, a.status, a.body)
		require.Equal(t, "AccessDeniedException", a.typ)
		require.True(t, a.capital, "Lambda's denial has its message in \"Message\": %s", a.body)
		require.Equal(t, "User: "+user+" is not authorized to perform: lambda:"+action+" on resource: "+resource+" "+reason, a.msg)
	}
	noAllow := func(action string) string {
		return "because no identity-based policy allows the lambda:" + action + " action"
	}

	a := call(iamTenantA, create("allowed"))
	require.Equal(t, http.StatusAccepted, a.status, a.body)
	made := a.mappingID
	denied(call(iamTenantA, create("other")), iamUserA, "CreateEventSourceMapping", "*", noAllow("CreateEventSourceMapping"))
	denied(call(iamTenantA, create("arn:aws:lambda:us-east-1:000000000000:function:other")), iamUserA, "CreateEventSourceMapping", "*",
		noAllow("CreateEventSourceMapping"))

	require.Equal(t, http.StatusOK, call(iamTenantA, get(mine)).status)
	denied(call(iamTenantA, get(theirs)), iamUserA, "GetEventSourceMapping", theirsARN, noAllow("GetEventSourceMapping"))
	require.Equal(t, http.StatusOK, call(iamTenantA, list).status)
	denied(call(iamTenantB, list), iamUserB, "ListEventSourceMappings", "*", noAllow("ListEventSourceMappings"))

	require.Equal(t, http.StatusAccepted, call(iamTenantA, update(mine, `{"BatchSize":5}`)).status)
	denied(call(iamTenantA, update(mine, `{"FunctionName":"other"}`)), iamUserA, "UpdateEventSourceMapping", mineARN,
		noAllow("UpdateEventSourceMapping"))
	denied(call(iamTenantA, update(theirs, `{"BatchSize":5}`)), iamUserA, "UpdateEventSourceMapping", theirsARN,
		noAllow("UpdateEventSourceMapping"))
	denied(call(iamTenantA, del(theirs)), iamUserA, "DeleteEventSourceMapping", theirsARN, noAllow("DeleteEventSourceMapping"))
	const gone = "00000000-0000-4000-8000-000000000000" // no such mapping: decided on the ARN it would have
	denied(call(iamTenantA, get(gone)), iamUserA, "GetEventSourceMapping",
		"arn:aws:lambda:us-east-1:000000000000:event-source-mapping:"+gone, noAllow("GetEventSourceMapping"))

	got, err := e.esm().Get(mine)
	require.NoError(t, err)
	require.EqualValues(t, 5, got.BatchSize)
	require.Equal(t, fnAllowed, got.FunctionArn, "a denied update changed the function")
	got, err = e.esm().Get(theirs)
	require.NoError(t, err)
	require.EqualValues(t, 100, got.BatchSize, "a denied update changed the mapping")
	require.Len(t, e.Streams().Mappings(), 3, "a denied create made a mapping, or a denied delete deleted one")

	denyMine := `{"Effect":"Deny","Action":"lambda:DeleteEventSourceMapping","Resource":"` + mineARN + `"}`
	require.NoError(t, e.SetIAMPolicies(iamPolicies(policy(allowWrites, allowReads, denyMine))))
	denied(call(iamTenantA, del(mine)), iamUserA, "DeleteEventSourceMapping", mineARN,
		"with an explicit deny in an identity-based policy")
	require.Equal(t, http.StatusAccepted, call(iamTenantA, del(made)).status)

	require.Equal(t, http.StatusAccepted, call(iamRoot, create("other")).status, "a key without an identity")
	require.Equal(t, http.StatusAccepted, call(iamRoot, del(theirs)).status, "a key without an identity")
}
