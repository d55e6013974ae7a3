package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// The engine: every DynamoDB operation a tool makes is a DynamoDB JSON
// request sent to the emulator's Handler, as an SDK sends it, signed (the
// signature is not checked, only read for its namespace) with the
// server's access key and region. Tools reach the engine this way or
// through the emulator's public API, never its internals.

// APIs a request is sent to (the X-Amz-Target prefix).
const (
	apiDynamoDB = "DynamoDB_20120810"
	apiStreams  = "DynamoDBStreams_20120810"
)

// engine sends requests to one emulator in one namespace.
type engine struct {
	emu  *emulator.Emulator
	auth string // the Authorization header: the namespace's access key and region
}

func newEngine(emu *emulator.Emulator, accessKey, region string) engine {
	return engine{emu: emu, auth: "AWS4-HMAC-SHA256 Credential=" + accessKey + "/20260101/" + region +
		"/dynamodb/aws4_request, SignedHeaders=host;x-amz-target, Signature=0"}
}

// apiError is an error DynamoDB answered: its type ("ValidationException")
// and message.
type apiError struct {
	Type, Message string
	Status        int
	// Reasons are a TransactionCanceledException's cancellation reasons'
	// codes ("None", "ConditionalCheckFailed", "TransactionConflict").
	Reasons []string
}

func (e *apiError) Error() string { return e.Type + ": " + e.Message }

// retryable reports whether the same request may succeed if sent again
// after a wait, as AWS's error handling guide and its SDKs' retry
// policies have it: throttling, transaction conflicts, a limit on
// operations in progress, the server's own errors; a transaction
// cancelled only for such reasons. A validation error, a failed
// condition or a missing table fails again.
func (e *apiError) retryable() bool {
	switch e.Type {
	case "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded",
		"TransactionConflictException", "TransactionInProgressException", "LimitExceededException",
		"InternalServerError", "ServiceUnavailable", "InternalFailure":
		return true
	case "TransactionCanceledException":
		some := false
		for _, r := range e.Reasons {
			switch r {
			case "", "None":
			case "TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded", "RequestLimitExceeded":
				some = true
			default:
				return false
			}
		}
		return some
	}
	return e.Status >= 500
}

// call sends op (of api) with body and returns the answer's body, or the
// *apiError the emulator answered.
//
// A member the operation's request does not take, at any depth, is an
// input error and nothing is sent: DynamoDB would skip it, and a
// misspelt ConditionExpression inside a transaction would become an
// unconditional write (the tool's own arguments are checked by its
// schema first).
func (g engine) call(ctx context.Context, api, op string, body []byte) (json.RawMessage, error) {
	if err := g.checkMembers(op, body); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://localhost/", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Amz-Target", api+"."+op)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("Authorization", g.auth)
	req.RemoteAddr = "mcp"
	var rec recorder
	g.emu.Handler().ServeHTTP(&rec, req)
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	if rec.status != http.StatusOK {
		return nil, errorOf(rec.status, rec.body.Bytes())
	}
	return json.RawMessage(rec.body.Bytes()), nil
}

// memberTool names the tool that takes member when it is one that one
// operation's tool takes and others are sent by mistake: a Scan or a
// GetItem given a key condition is pointed to query, not to the member
// whose name is nearest (ProjectionExpression).
func memberTool(member string) (string, bool) {
	switch member {
	case "KeyConditionExpression", "KeyConditions", "ScanIndexForward":
		return "query", true
	case "UpdateExpression", "AttributeUpdates":
		return "update_item", true
	case "Segment", "TotalSegments":
		return "scan", true
	}
	return "", false
}

// checkMembers refuses a request of op with a member op does not take,
// at any depth, naming the nearest one taken there.
func (g engine) checkMembers(op string, body []byte) error {
	path, known, found := emulator.UnknownMember(op, body)
	if !found {
		return nil
	}
	last := path[strings.LastIndexAny(path, ".]")+1:]
	if tool, ok := memberTool(last); ok && path == last {
		return inputErrorf("unknown member %q: %s takes no %s; the %s tool does. Nothing was done (taken there: %s)", path, op, last, tool, strings.Join(known, ", "))
	}
	if near, ok := nearest(last, known); ok {
		return inputErrorf("unknown member %q: did you mean %q? Nothing was done (taken there: %s)", path, near, strings.Join(known, ", "))
	}
	return inputErrorf("unknown member %q: nothing was done (taken there: %s)", path, strings.Join(known, ", "))
}

// callJSON is call with a body marshalled from v, the answer decoded
// into out (when not nil).
func (g engine) callJSON(ctx context.Context, api, op string, v, out any) (json.RawMessage, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	ans, err := g.call(ctx, api, op, body)
	if err != nil || out == nil {
		return ans, err
	}
	return ans, json.Unmarshal(ans, out)
}

// errorOf decodes an error answer: {"__type": "com.amazonaws...#Type",
// "message": "..."} (or "Message").
func errorOf(status int, body []byte) *apiError {
	var e struct {
		Type     string `json:"__type"`
		Message  string `json:"message"`
		MessageU string `json:"Message"`
		Reasons  []struct {
			Code string
		} `json:"CancellationReasons"`
	}
	_ = json.Unmarshal(body, &e)
	ae := &apiError{Type: e.Type, Message: e.Message, Status: status}
	for _, r := range e.Reasons {
		ae.Reasons = append(ae.Reasons, r.Code)
	}
	if i := strings.LastIndexByte(ae.Type, '#'); i >= 0 {
		ae.Type = ae.Type[i+1:]
	}
	if ae.Message == "" {
		ae.Message = e.MessageU
	}
	if ae.Type == "" {
		ae.Type = fmt.Sprintf("HTTP %d", status)
		ae.Message = string(body)
	}
	return ae
}

// recorder is the http.ResponseWriter a call's answer is written to.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header {
	if r.header == nil {
		r.header = http.Header{}
	}
	return r.header
}

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(b)
}
