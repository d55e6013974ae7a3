package service

import (
	"context"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/catalog"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// A request's way in: Lookup resolves its X-Amz-Target to an Operation,
// Decode reads its body as it arrives, Serve runs it in the namespace its
// access key and region (or the branch it names) select.

// Operation is an operation Lookup found.
type Operation struct {
	Name string // "PutItem", or the Streams API's "GetRecords"
	h    *opHandler
	read bool // a fork not changed yet answers it from its shared catalog (ns_snapshot.go)
}

// Lookup returns the operation an X-Amz-Target names, or
// UnknownOperationException.
func (s *Service) Lookup(target string) (Operation, error) {
	name, h, ok := s.seams.lookupOp(target)
	if !ok {
		return Operation{}, apierr.OperationNotFound(name)
	}
	return Operation{Name: name, h: h, read: readOnly(name)}, nil
}

// Decode reads op's request body through the request decoder, once, as
// it arrives (wire.DecodeBody, with the service's limits: limits.go),
// into op's input, for Serve (Request.Input). What stopped the reading
// is body's (its Err), for the edge to answer first. op is one of the
// service's (Known: a test's operation in front of it is not).
func (s *Service) Decode(op Operation, body *wire.Body) Input {
	return op.h.decode(body, &s.seams, s.limits)
}

// Known reports whether op is one of the service's.
func (op Operation) Known() bool { return op.h != nil }

// readOnly: what a fork not changed yet answers from its shared catalog.
// A switch, not a string search: every request asks
// (BenchmarkOps/GetItem/handler).
func readOnly(name string) bool {
	switch name {
	case "GetItem", "BatchGetItem", "Query", "Scan", "DescribeTable", "ListTables":
		return true
	}
	return false
}

// Request is one API request as the edge hands it to Serve.
type Request struct {
	Ctx       context.Context
	AccessKey string // from the request's credential
	KeyID     string // the key id that signed, where AccessKey names its namespace instead (Call.Caller)
	Region    string // from the request's credential scope
	// Namespace, when not "", is the ID of the namespace to serve the
	// request in (a branch the request names: emulator/branches.go)
	// instead of the one its access key and region select.
	Namespace string
	Tenant    string // the x-tenant-code header, for the stages' key guards (Call.Tenant)
	RequestID string // x-amzn-RequestId
	Host      string // the request's Host, for DescribeEndpoints
	Body      []byte // Serve sets it to nil: the operation holds it until decoded
	// Input, when it holds one, is the body decoded as it arrived
	// (Decode), served instead of Body.
	Input Input
	Out   []byte // spare buffer for the response body (may be nil)
	// TableName, when not nil, receives the request's TableName member
	// once its body is decoded (the edge's request log).
	TableName *string
}

// Serve runs op on req and returns the response body (appended to
// req.out) or an error. A panic in an operation is a bug, which the
// caller recovers (the edge logs it and answers InternalServerError).
func (s *Service) Serve(op Operation, req *Request) ([]byte, error) {
	now := s.clock()
	for _, st := range s.seams.starting { // the features' work now due (feature_lifecycle.go)
		st(s, now)
	}
	// A call from the pool is zero (call.go): only the request's
	// fields are set, not the whole struct written again
	// (BenchmarkOps/GetItem/handler).
	c := calls.Get()
	c.ctx, c.ns, c.region = req.Ctx, s.namespaceFor(req.AccessKey, req.Region, op.read), req.Region
	if req.Namespace != "" {
		c.ns = s.namespaceByID(req.Namespace, op.read)
	}
	c.account, c.accessKey, c.keyID, c.tenantHdr = defaultAccountID, req.AccessKey, req.KeyID, req.Tenant
	c.op, c.requestID, c.host = op.Name, req.RequestID, req.Host
	c.now, c.clock, c.svc = now, s.clock, s
	c.out, c.tableName = req.Out, req.TableName
	in := req.Input
	if in.h == nil { // a body held whole: the operation's, not req's once decoded
		in = op.h.decode(&wire.Body{Buf: req.Body, Size: int64(len(req.Body))}, &s.seams, s.limits)
	}
	req.Input, req.Body = Input{}, nil
	out, err := in.h.run(c, in)
	putCall(c) // not on a panic: that call is left to the collector
	return out, err
}

// namespaceFor returns the database an access key and region select. One
// that does not exist yet is kept only once a table is added to it.
func (s *Service) namespaceFor(accessKey, region string, read bool) *Namespace {
	if s.cfg.SharedDB {
		return s.lookup(catalog.Key{Shared: true}, read)
	}
	return s.lookup(catalog.Key{AccessKey: accessKey, Region: region}, read)
}

// namespaceByID returns the database of ID id, which keyOf takes (the
// edge checked it: a branch's); one that does not exist yet is created
// only when a table is added to it.
func (s *Service) namespaceByID(id string, read bool) *Namespace {
	k, _ := s.keyOf(id)
	return s.lookup(k, read)
}
