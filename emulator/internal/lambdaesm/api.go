package lambdaesm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
)

// Lambda's REST API for event source mappings (API version
// 2015-03-31), so that `aws lambda create-event-source-mapping
// --endpoint-url http://localhost:8000` and the SDKs' Lambda clients
// configure the emulator's mappings:
//
//	POST   /2015-03-31/event-source-mappings/        CreateEventSourceMapping (202)
//	GET    /2015-03-31/event-source-mappings/        ListEventSourceMappings (?EventSourceArn, FunctionName, Marker, MaxItems)
//	GET    /2015-03-31/event-source-mappings/{UUID}  GetEventSourceMapping
//	PUT    /2015-03-31/event-source-mappings/{UUID}  UpdateEventSourceMapping (202)
//	DELETE /2015-03-31/event-source-mappings/{UUID}  DeleteEventSourceMapping (202)
//
// Errors are Lambda's REST shape: the status, X-Amzn-ErrorType and
// {"Type":"User","Message":...} (writeAPIError). A body is at most
// MaxAPIBody bytes (ReadBodyLimit). The emulator's edge authenticates a
// request first (with Options.Credentials: a signature scoped to the
// service lambda, or an admin token; WriteRefusal answers a refusal),
// and Serve asks its Guard (the IAM policy mode) about each call before
// it acts. What a mapping may reach is checked whatever made it
// (targets.go).

// APIPrefix is the path of the mappings' collection.
const APIPrefix = "/2015-03-31/event-source-mappings"

// MaxAPIBody bounds a request body: a mapping's largest member, its
// FilterCriteria, is at most 5 filters of 4096 bytes each on Lambda, so
// 256 KB holds any request Lambda takes many times over.
const MaxAPIBody = 256 << 10

// The IAM actions of the operations (Lambda's "Resources and conditions
// for Lambda actions": the action is the operation's name after
// "lambda:").
const (
	OpCreate = "CreateEventSourceMapping"
	OpList   = "ListEventSourceMappings"
	OpGet    = "GetEventSourceMapping"
	OpUpdate = "UpdateEventSourceMapping"
	OpDelete = "DeleteEventSourceMapping"
)

// Guard decides each call of the API before it acts (the emulator's IAM
// policy mode). Allow gets the operation (OpCreate, ...), the resource
// the call is authorized on and the ARN of the function the mapping
// invokes, for the condition key lambda:FunctionArn ("" for
// ListEventSourceMappings, or when the request names none). The
// resource is "*" for Create and List, which act on no mapping yet, and
// the mapping's ARN (arn:aws:lambda:REGION:ACCOUNT:event-source-mapping:UUID)
// for Get, Update and Delete: Lambda's permissions reference restricts
// those to a mapping by its ARN, and lets lambda:FunctionArn restrict
// Create, Update and Delete by function. Region is the request's: the
// region of a mapping that does not exist (or of a new one's function
// without an EventSourceArn). A nil Guard allows every call.
//
// Judge, the conventions' tenant guard, gets the operation, its
// declaration (Decls) and the ARN of the stream the mapping delivers
// ("" for ListEventSourceMappings, a mapping that does not exist, or a
// new one without an EventSourceArn), after Allow allowed the call.
type Guard struct {
	Region string
	Allow  func(op, resource, function string) error
	Judge  func(op string, d boundary.Decl, stream string) error
}

// Decls are what each operation touches and how (package boundary): a
// mapping hands its stream's every record, every tenant's, to its
// function, so making or changing one is a whole-table read of the
// stream's table, deleting one a whole-table change of it; reading one
// or the list reads definitions alone.
// The zero Decl (invalid) for a name of no operation.
func Decls(op string) boundary.Decl {
	switch op {
	case OpCreate:
		return boundary.Decl{On: boundary.Stream, Access: boundary.WholeRead}
	case OpUpdate:
		return boundary.Decl{On: boundary.Mapping, Access: boundary.WholeRead}
	case OpDelete:
		return boundary.Decl{On: boundary.Mapping, Access: boundary.WholeWrite}
	case OpGet:
		return boundary.Decl{On: boundary.Mapping, Access: boundary.Describe}
	case OpList:
		return boundary.Decl{On: boundary.AllTables, Access: boundary.Account}
	}
	return boundary.Decl{}
}

// Ops are the API's operations, in the docs' order.
func Ops() []string { return []string{OpCreate, OpList, OpGet, OpUpdate, OpDelete} }

// allow asks the guard about a call of op on the mapping of stream.
func (g *Guard) allow(op, resource, function, stream string) error {
	if g == nil {
		return nil
	}
	if g.Allow != nil {
		if err := g.Allow(op, resource, function); err != nil {
			return err
		}
	}
	if g.Judge != nil {
		return g.Judge(op, Decls(op), stream)
	}
	return nil
}

// where is the region and account of a mapping whose stream ARN is arn
// (the request's region and the emulator's account without one).
func (g *Guard) where(arn string) (region, account string) {
	if region, account = arnParts(arn); region != "" {
		return region, account
	}
	if g != nil && g.Region != "" {
		return g.Region, defaultAccount
	}
	return defaultRegion, defaultAccount
}

// The region and account of the ARNs of a mapping with no stream yet
// (the emulator's, as DynamoDB Local's).
const (
	defaultRegion  = "us-east-1"
	defaultAccount = "000000000000"
)

// functionARN is the ARN of the function called name in region and
// account ("" for a name that is no function's).
func functionARN(region, account, name string) string {
	ref, ok := parseFunctionName(name)
	if !ok {
		return ""
	}
	return ref.arn(region, account)
}

// ServeHTTP serves the event source mapping operations, every call
// allowed.
func (m *Manager) ServeHTTP(w http.ResponseWriter, r *http.Request) { m.Serve(w, r, nil) }

// Serve serves the event source mapping operations, each call decided
// by g first (nil: allowed).
func (m *Manager) Serve(w http.ResponseWriter, r *http.Request, g *Guard) {
	rest := strings.TrimPrefix(r.URL.Path, APIPrefix)
	rest = strings.Trim(rest, "/")
	switch {
	case rest == "" && r.Method == http.MethodPost:
		var s Spec
		perr := readSpec(r, &s)
		region, account := g.where(str(s.EventSourceArn))
		if err := g.allow(OpCreate, "*", functionARN(region, account, str(s.FunctionName)), str(s.EventSourceArn)); err != nil {
			writeAPIError(w, err)
			return
		}
		if perr != nil {
			writeAPIError(w, perr)
			return
		}
		s.UUID = nil
		c, err := m.Create(&s)
		answer(w, http.StatusAccepted, c, err)
	case rest == "" && r.Method == http.MethodGet:
		if err := g.allow(OpList, "*", "", ""); err != nil {
			writeAPIError(w, err)
			return
		}
		m.serveList(w, r)
	case rest != "" && !strings.Contains(rest, "/"):
		resource, function, source := m.resourceOf(rest, g)
		switch r.Method {
		case http.MethodGet:
			if err := g.allow(OpGet, resource, function, source); err != nil {
				writeAPIError(w, err)
				return
			}
			c, err := m.Get(rest)
			answer(w, http.StatusOK, c, err)
		case http.MethodPut:
			var s Spec
			perr := readSpec(r, &s)
			if s.FunctionName != nil { // the function the mapping is to invoke
				region, account := g.where(source)
				function = functionARN(region, account, *s.FunctionName)
			}
			if err := g.allow(OpUpdate, resource, function, source); err != nil {
				writeAPIError(w, err)
				return
			}
			if perr != nil {
				writeAPIError(w, perr)
				return
			}
			c, err := m.Update(rest, &s)
			answer(w, http.StatusAccepted, c, err)
		case http.MethodDelete:
			if err := g.allow(OpDelete, resource, function, source); err != nil {
				writeAPIError(w, err)
				return
			}
			c, err := m.Delete(rest)
			answer(w, http.StatusAccepted, c, err)
		default:
			writeAPIError(w, &apiError{typ: "UnknownOperationException", status: 404, msg: "Unknown operation"})
		}
	default:
		writeAPIError(w, &apiError{typ: "UnknownOperationException", status: 404, msg: "Unknown operation"})
	}
}

// resourceOf is the resource a call about mapping uuid is authorized on
// (its ARN), its function's ARN and its stream's ("" when there is no
// such mapping).
func (m *Manager) resourceOf(uuid string, g *Guard) (resource, function, source string) {
	if c, err := m.Get(uuid); err == nil {
		return c.EventSourceMappingArn, c.FunctionArn, c.EventSourceArn
	}
	region, account := g.where("")
	return "arn:aws:lambda:" + region + ":" + account + ":event-source-mapping:" + uuid, "", ""
}

// serveList answers ListEventSourceMappings.
func (m *Manager) serveList(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	list := m.List(q.Get("EventSourceArn"), q.Get("FunctionName"))
	start := 0
	if mk := q.Get("Marker"); mk != "" {
		n, err := strconv.Atoi(mk)
		if err != nil || n < 0 || n > len(list) {
			writeAPIError(w, invalidParameter("Invalid Marker: "+mk))
			return
		}
		start = n
	}
	limit := 100
	if mi := q.Get("MaxItems"); mi != "" {
		n, err := strconv.Atoi(mi)
		if err != nil || n < 1 || n > 10000 {
			writeAPIError(w, invalidParameter("Invalid MaxItems: "+mi))
			return
		}
		limit = n
	}
	out := struct {
		EventSourceMappings []Configuration
		NextMarker          string `json:",omitempty"`
	}{EventSourceMappings: list[start:]}
	if len(out.EventSourceMappings) > limit {
		out.EventSourceMappings = out.EventSourceMappings[:limit]
		out.NextMarker = strconv.Itoa(start + limit)
	}
	answer(w, http.StatusOK, out, nil)
}

// opOf names the operation of a request to the API by its method and
// path below APIPrefix ("" when it is none of them).
func opOf(method, rest string) string {
	rest = strings.Trim(rest, "/")
	switch {
	case rest == "" && method == http.MethodPost:
		return OpCreate
	case rest == "" && method == http.MethodGet:
		return OpList
	case rest == "" || strings.Contains(rest, "/"):
		return ""
	case method == http.MethodGet:
		return OpGet
	case method == http.MethodPut:
		return OpUpdate
	case method == http.MethodDelete:
		return OpDelete
	}
	return ""
}

// tooLarge is Lambda's answer to a request body over its limit:
// 413 RequestEntityTooLargeException, "Request must be smaller than N
// bytes for the OP operation" (the answers recorded in public issue
// threads, e.g. apex/up#722 and motdotla/node-lambda#212 for
// UpdateFunctionConfiguration's 5120 bytes; the body {"Message":...}, as
// Lambda's answer over Invoke's limit is recorded).
func tooLarge(r *http.Request) error {
	op := opOf(r.Method, strings.TrimPrefix(r.URL.Path, APIPrefix))
	if op == "" {
		op = "EventSourceMapping" // a path of no operation: UnknownOperationException follows a body that fits
	}
	return &apiError{typ: "RequestEntityTooLargeException", status: http.StatusRequestEntityTooLarge,
		msg: fmt.Sprintf("Request must be smaller than %d bytes for the %s operation", MaxAPIBody, op), noType: true}
}

// CheckSize returns Lambda's RequestEntityTooLargeException when r
// announces a body over MaxAPIBody, before anything reads it (a
// Content-Length of 2 GB is answered at once, not after the bytes that
// will not come), or nil. A body of unknown length is bounded as it is
// read (readSpec, the signature's check).
func CheckSize(r *http.Request) error {
	if r.ContentLength > MaxAPIBody {
		return tooLarge(r)
	}
	return nil
}

// TooLarge is Lambda's RequestEntityTooLargeException for r, whose body
// was found over MaxAPIBody as it was read.
func TooLarge(r *http.Request) error { return tooLarge(r) }

// readSpec reads r's body, at most MaxAPIBody bytes, into s. A body over
// it is Lambda's 413; a body that stops arriving, InvalidParameterValue.
func readSpec(r *http.Request, s *Spec) error {
	if err := CheckSize(r); err != nil {
		return err
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxAPIBody+1))
	if len(body) > MaxAPIBody {
		return tooLarge(r)
	}
	if err != nil {
		return invalidParameter("The request body could not be read")
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		return nil
	}
	if err := json.Unmarshal(body, s); err != nil {
		return &apiError{typ: "SerializationException", status: 400, msg: "Could not parse request body into json: " + err.Error()}
	}
	return nil
}

func answer(w http.ResponseWriter, status int, v any, err error) {
	if err != nil {
		writeAPIError(w, err)
		return
	}
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// WriteError writes an error of the API (CheckSize's, the Manager's
// methods') as writeAPIError does.
func WriteError(w http.ResponseWriter, err error) { writeAPIError(w, err) }

// writeAPIError writes an error as Lambda's REST API does: the status,
// X-Amzn-ErrorType and {"Type":"User","Message":...} (Lambda's answers
// recorded in public issue threads, e.g. localstack/localstack#702's
// ResourceNotFoundException and aarondfrancis/sidecar#23; botocore and
// the other SDKs read "Message" or "message"), but
// ValidationException's {"message":...}, which AWS's request validation
// writes for Lambda as for every service (aarondfrancis/sidecar#147), and
// RequestEntityTooLargeException's {"Message":...}; a refusal of the
// request's authentication or authorization as WriteRefusal.
func writeAPIError(w http.ResponseWriter, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		if _, ok := apierr.Classify(err); ok {
			WriteRefusal(w, err)
			return
		}
		ae = &apiError{typ: "ServiceException", status: 500, msg: err.Error()}
	}
	switch {
	case ae.typ == "ValidationException":
		writeError(w, ae.status, ae.typ, map[string]string{"message": ae.msg})
	case ae.noType:
		writeError(w, ae.status, ae.typ, map[string]string{"Message": ae.msg})
	default:
		writeError(w, ae.status, ae.typ, map[string]string{"Type": "User", "Message": ae.msg})
	}
}

// writeError writes an error answer: status, type and body.
func writeError(w http.ResponseWriter, status int, typ string, body map[string]string) {
	b, _ := json.Marshal(body)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Amzn-ErrorType", typ)
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// WriteRefusal answers a request of the API that the server refuses
// before it acts, err an error of apierr's (internal/sigv4's signature
// checks, the IAM policy mode's denial, the edge's origin and content
// type checks), as Lambda answers such requests: 403 for a missing,
// incomplete or invalid signature, an unknown key and a denial (Lambda's
// "Common Errors"; its answers to unsigned and unknown-key requests,
// MissingAuthenticationTokenException "Missing Authentication Token" and
// UnrecognizedClientException "The security token included in the
// request is invalid.", are recorded in public issue threads, e.g.
// brefphp/bref#1250 and iann0036/iamlive#58), with X-Amzn-ErrorType;
// the body is {"message":...}, and {"Message":...} for
// AccessDeniedException, as Lambda's answer to a denied call has it
// (danilop/LambdAuth#37).
func WriteRefusal(w http.ResponseWriter, err error) {
	ae, ok := apierr.Classify(err)
	if !ok {
		writeAPIError(w, err)
		return
	}
	status, key, msg := ae.Class.Status, "message", ae.Msg
	switch ae.Class {
	case apierr.ErrMissingAuthenticationToken:
		status, msg = http.StatusForbidden, "Missing Authentication Token"
	case apierr.ErrIncompleteSignature, apierr.ErrInvalidSignature, apierr.ErrUnrecognizedClient:
		status = http.StatusForbidden
	case apierr.ErrAccessDenied, apierr.ErrForbidden:
		status, key = http.StatusForbidden, "Message"
	}
	writeError(w, status, ae.Class.Name, map[string]string{key: msg})
}

// ErrorStatus returns the HTTP status and Lambda error type of an error
// the Manager's methods return (400 InvalidParameterValueException,
// 404 ResourceNotFoundException, ...), or 500.
func ErrorStatus(err error) (int, string) {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae.status, ae.typ
	}
	return 500, "ServiceException"
}
