package apiserve

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/httpedge"
	"github.com/dynamoemu/dynamoemu/emulator/internal/httploop"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/sigv4"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/iam"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// Server serves the API's calls for the emulator's two paths (net/http's
// and the connection loop's). Its fields are set once, when the emulator
// is made, before the first request; a Server is not copied.
type Server struct {
	Svc     *service.Service // everything behind the edge
	API     Backend          // nil; tests put their operations in front of Svc
	Keys    *sigv4.Keyring   // nil: signatures are not checked
	Logger  *slog.Logger
	MaxBody int64 // the request body limit
	// Identity is the IAM identity of an access key, nil when it has
	// none; a nil Identity: the IAM policy mode is off.
	Identity func(keyID string) *iam.Identity
	// Branch is the namespace of the branch a request names.
	Branch func(name string, cred sigv4.Credential) (string, error)

	Limit   Limiter  // requests in flight
	Budget  Budget   // request bytes in flight (budget.go)
	Release Releaser // returns memory to the OS after large deletes
}

// maxPooledBuffer is the largest buffer the pools keep: a rare huge request
// or response should not stay in memory.
const maxPooledBuffer = 1 << 20

// Request is what the API's POST / needs of a request, on either path
// (net/http's serveOp, emulator/server.go; the connection loop's
// ServeLoop, loop.go): a few header values, where it came from, and its
// body.
type Request struct {
	Ctx             context.Context
	Target          string   // X-Amz-Target
	Auth            string   // Authorization
	Presigned       string   // the X-Amz-Credential query parameter, read when auth is ""
	Host            string   // Host
	Tenant          string   // headerTenantCode
	Branch          string   // headerBranch: the branch the request names
	ContentEncoding []string // the Content-Encoding headers
	ContentLength   int64    // -1: unknown
	Body            io.Reader
	BodyHere        bool                 // the whole body is in memory already (the loop's read buffer): not paced
	Remote          string               // the client's address, for logs; "" with conn set
	Conn            net.Conn             // the loop's connection (remote read from it when logged)
	ReqID           string               // the answer's request ID, made with the loop's head; "": Serve makes one
	W               http.ResponseWriter  // net/http's, whose connection a paced body's cut ends (pace.go)
	RL              *httpedge.RequestLog // nil unless debug logging is on
	// req is the request, on net/http's path with Options.Credentials:
	// its signature is verified from all its headers (internal/sigv4).
	Req *http.Request
	// sum, when set, receives the SHA-256 of the body as received
	// (compressed, if it was), which the signature covers.
	Sum *[sha256.Size]byte
}

// origin is where the request came from, for the IAM stage's
// aws:SourceIp and aws:SecureTransport.
func (in *Request) origin() iam.Origin {
	remote, secure := in.Remote, false
	if in.Req != nil {
		remote, secure = in.Req.RemoteAddr, in.Req.TLS != nil
	} else if in.Conn != nil {
		remote = in.Conn.RemoteAddr().String()
	}
	if host, _, err := net.SplitHostPort(remote); err == nil {
		remote = host
	}
	return iam.Origin{SourceIP: remote, Secure: secure}
}

// waitContext is the context a wait for the budget ends with: the
// request's on net/http's path; on the loop's, the loop's (cancelled by
// Close), since the request's own watches the connection, whose body is
// still to be read.
func (in *Request) waitContext() context.Context {
	if cc, ok := in.Ctx.(*httploop.ConnContext); ok {
		return cc.Parent()
	}
	return in.Ctx
}

// deadliner is what ends the read of a body its pace cuts: the loop's
// connection, or net/http's through a ResponseController (made only for
// a paced body).
func (in *Request) deadliner() deadliner {
	if in.Conn != nil {
		return in.Conn
	}
	if in.W != nil {
		return http.NewResponseController(in.W)
	}
	return nil
}

// RemoteAddr is the client's address, for logs.
func (in *Request) RemoteAddr() string {
	if in.Remote == "" && in.Conn != nil {
		return in.Conn.RemoteAddr().String()
	}
	return in.Remote
}

// Answer is Serve's answer: a status and JSON body, or CutOff when
// nobody is left to answer and the connection is to be dropped.
type Answer struct {
	ReqID  string
	Status int
	Body   []byte
	AE     *apierr.Error // the error answered; nil for 200
	CutOff bool
	// Close: the connection closes after the answer, a body cut off
	// (bodyCut) being still unread.
	Close bool
	// RetryAfter: the edge throttled the request (budget.go); the
	// answer says Retry-After.
	RetryAfter bool
}

// Serve serves one API call: authenticate, read the body, dispatch on
// X-Amz-Target (handle). The answer's body is appended to outBuf.
func (s *Server) Serve(in *Request, outBuf []byte) Answer {
	ans := Answer{ReqID: in.ReqID, Status: http.StatusOK}
	if ans.ReqID == "" {
		ans.ReqID = httploop.NewRequestID()
	}
	body, err := s.handle(in, ans.ReqID, outBuf)
	if bc, ok := errors.AsType[*bodyCut](err); ok {
		// The body did not arrive in time: the client hears so where it
		// still reads, then the connection closes (its body unread).
		s.Logger.Warn("request body cut off", "request_id", ans.ReqID, "target", in.Target, "remote", in.RemoteAddr(),
			"received", bc.read, "announced", bc.size, "reason", bc.reason)
		err = apierr.RequestTimeout(bc.Error())
		ans.Close = true
	}
	if errors.Is(err, errSlowBodies) {
		// A slow body with no room in the slow bodies' share: throttled,
		// its connection closed, its body unread (budget.go).
		s.Logger.Warn("slow request body refused", "request_id", ans.ReqID, "target", in.Target, "remote", in.RemoteAddr(), "reason", err.Error())
		err = retryLater{apierr.Throttling()}
		ans.Close = true
	}
	if err != nil && in.Ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		// The request's context ended while it was served: its client
		// went away, or the server is closing (the emulator's Server.Close after
		// Shutdown's grace). There is nobody to answer; say so, and
		// that it got no answer.
		s.Logger.Warn("request cut off unanswered", "request_id", ans.ReqID, "target", in.Target, "remote", in.RemoteAddr(), "err", err)
		ans.CutOff = true
		ans.Body = outBuf
		return ans
	}
	if err != nil {
		ae, known := apierr.Classify(err)
		if !known {
			s.Logger.Error("unclassified error", "request_id", ans.ReqID, "target", in.Target, "err", err)
		}
		ans.AE = ae
		ans.Status = ae.Class.Status
		var later retryLater
		ans.RetryAfter = errors.As(err, &later)
		body = wire.AppendErrorBody(body[:0], ae)
	}
	ans.Body = body
	return ans
}

// Recycle is what follows an answer once written: its buffer back to
// the pool, memory released after large deletes.
func (s *Server) Recycle(ans *Answer, out *[]byte) {
	*out = ans.Body
	AnswerBodies.Put(out)
	s.Release.maybeRelease()
}

// LogAnswer logs an answer (httpedge.LogAnswer) when debug logging is on or
// it is a 500. Both paths log before the client can read the answer.
func (s *Server) LogAnswer(in *Request, ans *Answer) {
	if in.RL != nil || ans.Status >= 500 {
		httpedge.LogAnswer(s.Logger, strings.TrimPrefix(in.Target, service.TargetPrefix), in.RL, ans.ReqID, ans.Status, ans.AE)
	}
}

// Backend is what the edge needs of the service: resolve an X-Amz-Target,
// serve a request. The edge calls *service.Service directly (through an
// interface the request would escape to the heap: one allocation more per
// request); tests set Server.API to a Backend that adds operations of
// their own in front of it.
type Backend interface {
	Lookup(target string) (service.Operation, error)
	Serve(op service.Operation, req *service.Request) ([]byte, error)
}

// handle runs one request and returns the response body (appended to
// outBuf) or an error: the admission rules (admit, below) in their order,
// then the service (serveEntered). A panic in the service is a bug: it
// is logged with its stack and answered with InternalServerError.
//
// The budget of bytes in flight (budget.go): a body charged before it
// is read, the rest of it as it arrives, through its bodyReader,
// which also keeps its pace (pace.go) when it is not in memory already.
// A bodyReader keeps what it is charged, which handle adds to the
// admission's held once read: the admission itself never escapes (a
// pointer to it in the reader, or a call through a function value,
// moved it to the heap, an allocation a request in
// BenchmarkOps/GetItem/handler's allocs/op; the rules are called
// directly for that reason). handle has one defer, and serveEntered one,
// so that each is open-coded: four defers in one function with its many
// returns went through the runtime's defer records
// (BenchmarkOps/GetItem/handler).
func (s *Server) handle(in *Request, reqID string, outBuf []byte) (out []byte, err error) {
	var a admission //gcassert:noescape
	defer s.endAdmission(&a)
	if err := s.admit(in, &a); err != nil {
		return nil, err
	}
	return s.serveEntered(in, a.op, a.cred, reqID, a.buf, a.input, outBuf)
}

// admission is one request on its way through the admission rules:
// what each rule found or holds, given back by endAdmission.
//
// The request itself is a parameter of each rule, not a field: through a
// field it escaped to the heap (the compiler does not tell a pointer
// held by the admission from what that pointer points to), an
// allocation a request.
type admission struct {
	op    service.Operation
	cred  sigv4.Credential
	check *sigv4.Check // the signature's, with Credentials
	held  hold         // of the budget (budget.go)
	buf   *bytes.Buffer
	br    *bodyReader // a body still arriving, with the budget on
	input service.Input
}

// admit runs the admission rules, in order; the first that refuses ends
// the request with its error. The table:
//
//   - credential: the access key and region (without Credentials).
//   - operation: X-Amz-Target names one.
//   - signature: with Credentials, the authentication before the body
//     (DynamoDB's order: the operation, then the authentication;
//     dynalite's record of DynamoDB's checks, emulator/internal/sigv4).
//   - budget: the body's first charge, within its client's share with
//     Credentials (budget.go), its pace started (pace.go).
//   - body: read and decoded, charged as it arrives (a compressed one
//     its inflated size once it has arrived), within the slow bodies'
//     share once slow.
//   - signed: with Credentials, the signature over the body, and the
//     IAM identity of its key.
//   - in flight: a slot of the in-flight limit (limits.go), taken last,
//     once the body has arrived: clients trickling bodies hold their
//     bytes so far, never the slots of the requests ready to be served.
func (s *Server) admit(in *Request, a *admission) error {
	if err := s.ruleCredential(in, a); err != nil {
		return err
	}
	if err := s.ruleOperation(in, a); err != nil {
		return err
	}
	if err := s.ruleSignature(in, a); err != nil {
		return err
	}
	if err := s.ruleBudget(in, a); err != nil {
		return err
	}
	if err := s.ruleBody(in, a); err != nil {
		return err
	}
	if err := s.ruleSigned(in, a); err != nil {
		return err
	}
	return s.ruleInFlight(in, a)
}

// endAdmission gives back what the request holds: its body's buffer and
// its charge of the budget, its pace stopped.
func (s *Server) endAdmission(a *admission) {
	if a.buf != nil {
		requestBodies.Put(a.buf)
	}
	if a.br != nil {
		a.br.ended(&a.held)
	}
	s.Budget.release(a.held)
}

// ruleCredential reads the access key and region from the
// Authorization header or the presigned query (without Credentials:
// with them, ruleSigned sets it from the signature).
func (s *Server) ruleCredential(in *Request, a *admission) (err error) {
	if s.Keys == nil {
		a.cred, err = sigv4.CredentialOf(in.Auth, in.Presigned)
	}
	return err
}

// ruleOperation resolves X-Amz-Target.
func (s *Server) ruleOperation(in *Request, a *admission) (err error) {
	if s.API != nil {
		a.op, err = s.API.Lookup(in.Target)
	} else {
		a.op, err = s.Svc.Lookup(in.Target)
	}
	return err
}

// ruleSignature begins checking the signature, with Credentials.
func (s *Server) ruleSignature(in *Request, a *admission) (err error) {
	if s.Keys == nil {
		return nil
	}
	if in.Req == nil { // the connection loop is off with Credentials (NewServer)
		return apierr.Internal()
	}
	if a.check, err = s.Keys.Begin(in.Req, true); err != nil {
		return err
	}
	in.Sum = new([sha256.Size]byte)
	return nil
}

// ruleBudget charges the body's first charge (budget.go), a large one
// within its client's share (with Credentials), and starts its pace; a
// body refused is read away (or cut, when its pace fails meanwhile).
func (s *Server) ruleBudget(in *Request, a *admission) error {
	if s.Budget.Max <= 0 || in.ContentLength > s.MaxBody {
		return nil
	}
	large := in.ContentLength < 0 || in.ContentLength > SmallBody
	var sh share
	if large && s.Keys != nil { // without Credentials a key is whatever the client writes
		sh = share{client: s.clientOf(in), on: true}
	}
	if in.ContentLength != 0 && (!in.BodyHere || in.ContentEncoding != nil) {
		a.br = &bodyReader{r: in.Body, b: &s.Budget, ctx: in.waitContext(), sh: sh}
	}
	var ok bool
	a.held, ok = s.Budget.admit(in.waitContext(), in.ContentLength, sh)
	if pace := s.Budget.Pace(); a.br != nil && !in.BodyHere && pace.Floor > 0 {
		a.br.pace.begin(pace, in.deadliner())
	}
	if !ok {
		if a.br == nil {
			drain(in.Body, s.MaxBody)
			return retryLater{apierr.Throttling()}
		}
		drain((*rawBody)(a.br), s.MaxBody)
		if a.br.pace.end() {
			return a.br.cutOff(in, nil)
		}
		return retryLater{apierr.Throttling()}
	}
	if a.br != nil {
		if large { // a small body is charged in full
			a.br.full, a.br.held, a.held.main = in.ContentLength+1, a.held.main, 0
			if in.ContentLength < 0 {
				a.br.full = -1
			}
		}
		in.Body = a.br
	}
	return nil
}

// clientOf is the client a large body's charge counts against for its
// share of the budget with Credentials (budget.go): its access key, a
// copy (the header it is read from may live in a buffer the connection
// reuses), read here as the signature will check it. A request without
// one counts as the client "".
func (s *Server) clientOf(in *Request) string {
	cred, _ := sigv4.CredentialOf(in.Auth, in.Presigned)
	if cred.AccessKey == "" && in.Req != nil {
		cred, _ = sigv4.CredentialOf(in.Req.Header.Get("Authorization"), in.Req.URL.Query().Get("X-Amz-Credential"))
	}
	return strings.Clone(cred.AccessKey)
}

// ruleBody reads and decodes the body into a pooled buffer (pools.go):
// a body over the budget is read away and throttled, one whose pace
// failed cut, a slow one refused (errSlowBodies). A body over the size
// limit is 413 whatever its pace: its size is found first.
func (s *Server) ruleBody(in *Request, a *admission) (err error) {
	a.buf = requestBodies.Get()
	s.Limit.Reading.Add(1)
	a.input, err = s.readBody(in, a.buf, a.op)
	s.Limit.Reading.Add(-1)
	if a.br != nil {
		if errors.Is(err, errOverBudget) {
			drain((*rawBody)(a.br), s.MaxBody)
		}
		if a.br.pace.end() && !errors.Is(err, apierr.ErrRequestEntityTooLarge) && !errors.Is(err, errSlowBodies) {
			return a.br.cutOff(in, err)
		}
	}
	if errors.Is(err, errOverBudget) {
		return retryLater{apierr.Throttling()}
	}
	return err
}

// ruleSigned finishes the signature over the body, with Credentials, and
// puts its key's IAM identity on the request's context.
func (s *Server) ruleSigned(in *Request, a *admission) (err error) {
	if a.check == nil {
		return nil
	}
	if a.cred, err = s.Keys.Finish(a.check, in.Req, *in.Sum); err != nil {
		a.input.Release()
		return err
	}
	if s.Identity != nil {
		if id := s.Identity(a.check.KeyID()); id != nil {
			in.Ctx = iam.With(in.Ctx, id, in.origin()) // the IAM stage's (emulator/iam.go)
		}
	}
	return nil
}

// ruleInFlight takes a slot of the in-flight limit (limits.go,
// emulator/limits.go), which serveEntered gives back.
func (s *Server) ruleInFlight(in *Request, a *admission) error {
	if !s.Limit.enter() {
		a.input.Release()
		return retryLater{apierr.Throttling()}
	}
	return nil
}

// serveEntered is handle's last step, for a request that holds a slot of
// the in-flight limit (given back when it returns) and whose body is
// decoded (input; its window in buf): the service serves it; a panic in
// the operation is answered with an InternalServerError.
func (s *Server) serveEntered(in *Request, op service.Operation, cred sigv4.Credential, reqID string, buf *bytes.Buffer, input service.Input, outBuf []byte) (out []byte, err error) {
	defer func() {
		s.Limit.leave()
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			s.Logger.Error("panic in operation", "op", op.Name, "request_id", reqID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			out, err = nil, apierr.Internal()
		}
	}()
	var branchNS string
	if in.Branch != "" {
		if branchNS, err = s.Branch(in.Branch, cred); err != nil {
			input.Release()
			return nil, err
		}
	}
	req := service.Request{
		Ctx:       in.Ctx,
		AccessKey: cred.AccessKey,
		KeyID:     cred.KeyID,
		Region:    cred.Region,
		Namespace: branchNS,
		Tenant:    in.Tenant,
		RequestID: reqID,
		Host:      in.Host,
		Input:     input,
		Out:       outBuf,
		TableName: in.RL.TableNote(),
	}
	if !op.Known() {
		req.Body = buf.Bytes() // a test's operation's, read whole
	}
	if buf.Cap() > maxPooledBuffer {
		// The pool keeps no buffer this large: the body's window is the
		// input's alone (its views of it), collected once the input is
		// let go rather than once the request is answered (a 4 MB
		// ScanFilter's peak: BenchmarkOversizeMemory, docs/server.md).
		*buf = bytes.Buffer{}
	}
	if s.API != nil {
		testReq := req // only this copy escapes
		req.Body = nil
		return s.API.Serve(op, &testReq)
	}
	return s.Svc.Serve(op, &req)
}
