package service

import (
	"context"
	"log/slog"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/catalog"
	"github.com/dynamoemu/dynamoemu/emulator/internal/idempotency"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamrec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Service is DynamoDB-the-service without HTTP: the namespaces and their
// tables, the operations, streams, TTL and transactions' tokens; the
// features its Config hands it plug in through the feature seam
// (feature.go), the instruments through the stage seam (stage.go). The
// edge (package emulator) authenticates a request,
// reads its body and hands it over: Lookup resolves X-Amz-Target, Serve
// runs the operation and returns the response body or an error of an
// apierr class, which the edge turns into __type, status and message.
type Service struct {
	log   *slog.Logger
	clock func() time.Time // the emulator's clock (moved by Advance and SetNow)
	cfg   Config
	dbs   *namespaces // its namespaces and their catalogs (namespace.go)
	// tokens are the ClientRequestTokens of every namespace (idempotency.go).
	tokens tokenStore
	// sidecars keep each namespace's streams across restarts (streams.go).
	sidecars streamrec.Sidecars
	// seams are what its features and stages plugged in (feature.go).
	seams seams
	// states are the features' and stages' per-service states
	// (feature_service.go).
	states slots
	// limits is how the decoder reads the members far over their limits
	// (seams.limits, limits.go; a test's reference has none: every body
	// read whole).
	limits *wire.Limits
	// defs are the definitions its branches' tables share
	// (catalog_record.go).
	defs catalog.Defs
	// itemCollectionBytes is the item collection size limit a table
	// takes when it is made (collections.go; a test lowers it).
	itemCollectionBytes int64
}

// Config configures a service.
type Config struct {
	// Features are the table-level features the service serves, in
	// order (feature.go): each registers its operations in New.
	Features []Feature
	// Stages are the stages of its request pipeline, in order
	// (stage.go).
	Stages   []Stage
	SharedDB bool
	Logger   *slog.Logger     // nil: discard
	Clock    func() time.Time // nil: time.Now (and RealClock)
	// RealClock says that Clock may be called from the service's own
	// goroutines (the token janitor): it is the real time, moved only by
	// an offset.
	RealClock        bool
	IdempotencyBytes int64 // 0: idempotency.DefaultBytes
	TransientDelay   time.Duration
	Streams          streamrec.Options // the streams' retention, bound and change signal (its Clock: the service's)
	// Hooks returns the commit hook of a new namespace's DB, given the
	// namespace's ID (nil, or a nil hook: none): the seam for persistence
	// (catalog_record.go says what a DB holds).
	Hooks func(namespace string) storage.Hook
	// DBs, when set, opens the DB of a new namespace, given its ID,
	// instead of a new empty DB with Hooks' hook: persistence
	// (persistence.go) hands out the namespace's stored DB.
	DBs func(namespace string) (*storage.DB, error)
	// Keep, when set (with DBs), returns where namespace keeps side
	// files sub ("backups", "pitr"): its backups and point-in-time
	// histories then survive restarts (emulator/internal/backups, emulator/internal/pitr).
	Keep func(namespace, sub string) (Keeper, error)
	// TableDropped is called with the size of each table DeleteTable
	// drops (nil: not at all), so that the edge can return memory.
	TableDropped func(sizeBytes int64)
	// Settings are the stages' settings, as the emulator's options
	// give them, each made by its reader's SettingOf key (stage_state.go)
	// and found by it.
	Settings []Setting
	// ApproximateVectors makes every vector index search approximately
	// (storage's HNSW graph) instead of exactly: for large local data
	// sets; results may then differ from the true nearest neighbours.
	ApproximateVectors bool
}

// New returns a service with no tables.
func New(cfg Config) (*Service, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Clock == nil {
		cfg.Clock, cfg.RealClock = time.Now, true
	}
	s := &Service{log: cfg.Logger, clock: cfg.Clock, cfg: cfg, itemCollectionBytes: maxItemCollectionBytes}
	s.seams.plug(cfg.Features, cfg.Stages)
	s.limits = s.seams.limits
	s.dbs = catalog.NewRegistry(s.newNamespace, (*Namespace).nk, func(ns *Namespace) *tableCatalog { return ns.cat.Load() })
	tc := idempotency.Config{MaxBytes: cfg.IdempotencyBytes, Logger: cfg.Logger}
	if cfg.RealClock {
		tc.Clock = s.clock // safe to call from the janitor
	}
	s.tokens = tokenStore{idempotency.New[*Namespace, txReplay](tc)}
	for _, h := range s.seams.hooks {
		if h.Configure == nil {
			continue
		}
		if err := h.Configure(s); err != nil { // feature_lifecycle.go
			return nil, err
		}
	}
	return s, nil
}

// SharedDB reports whether the service has one namespace for everyone.
func (s *Service) SharedDB() bool { return s.cfg.SharedDB }

// Close stops the service's background work (the token janitor).
func (s *Service) Close() {
	s.tokens.Close()
	for _, ns := range s.dbs.All() {
		ns.closed()
	}
}

// ClockMoved does what a move of the clock to now makes due:
// ClientRequestTokens whose window it ends are forgotten now, not at the
// next request (idempotency.go).
func (s *Service) ClockMoved(now time.Time) { s.tokens.Expire(now) }

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

// Spaces are the namespaces that own their catalog (a fork's shared
// tables never change), for a stage's report or sweep over them.
func (s *Service) Spaces() []Space {
	var out []Space
	for _, ns := range s.dbs.All() {
		if !ns.cat.Load().Frozen {
			out = append(out, Space{ns: ns})
		}
	}
	return out
}

// NamespaceCount returns how many namespaces exist (tests: reads create none).
func (s *Service) NamespaceCount() int {
	kept, _, _ := s.dbs.Counts()
	return kept
}
