package emulator

import (
	"context"
	"log/slog"
	"time"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/storage"
)

// service is DynamoDB-the-service without HTTP: the namespaces and their
// tables, the operations, streams, TTL, transactions' tokens and the
// conventions layer. The edge (server.go) authenticates a request, reads
// its body and hands it over: lookup resolves X-Amz-Target, serve runs
// the operation and returns the response body or an error of an apiError
// class, which the edge turns into __type, status and message.
type service struct {
	log   *slog.Logger
	clock func() time.Time // the emulator's clock (moved by Advance and SetNow)
	cfg   serviceConfig
	dbs   namespaces
	conv  *convState
	// tokens are the ClientRequestTokens of every namespace (idempotency.go).
	tokens *tokenStore
	// snaps are the namespace snapshots kept for Emulator.Restore (ns_snapshot.go).
	snaps snapshotStore
}

// serviceConfig configures a service.
type serviceConfig struct {
	SharedDB bool
	Logger   *slog.Logger     // nil: discard
	Clock    func() time.Time // nil: time.Now (and RealClock)
	// RealClock says that Clock may be called from the service's own
	// goroutines (the token janitor): it is the real time, moved only by
	// an offset.
	RealClock        bool
	IdempotencyBytes int64 // 0: DefaultIdempotencyBytes
	TransientDelay   time.Duration
	StreamRetention  time.Duration // 0: DefaultStreamRetention
	Conventions      *conventions.Config
	// Hooks returns the commit hook of a new namespace's DB, given the
	// namespace's ID (nil, or a nil hook: none): the seam for persistence
	// (catalog_record.go says what a DB holds).
	Hooks func(namespace string) storage.Hook
	// TableDropped is called with the size of each table DeleteTable
	// drops (nil: not at all), so that the edge can return memory.
	TableDropped func(sizeBytes int64)
}

// newService returns a service with no tables.
func newService(cfg serviceConfig) (*service, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Clock == nil {
		cfg.Clock, cfg.RealClock = time.Now, true
	}
	s := &service{log: cfg.Logger, clock: cfg.Clock, cfg: cfg}
	s.dbs.svc, s.dbs.hooks = s, cfg.Hooks
	s.tokens = newTokenStore(cfg.IdempotencyBytes, nil)
	if s.tokens.maxBytes == 0 {
		s.tokens.maxBytes = DefaultIdempotencyBytes
	}
	if cfg.RealClock {
		s.tokens.clock = s.clock // safe to call from the janitor
	}
	var err error
	if s.conv, err = newConvState(cfg.Conventions, s.log); err != nil {
		return nil, err
	}
	return s, nil
}

// close stops the service's background work (the token janitor).
func (s *service) close() { s.tokens.close() }

// clockMoved does what a move of the clock to now makes due:
// ClientRequestTokens whose window it ends are forgotten now, not at the
// next request (idempotency.go).
func (s *service) clockMoved(now time.Time) { s.tokens.expire(now) }

// operation is an operation lookup found.
type operation struct {
	name string // "PutItem", or the Streams API's "GetRecords"
	fn   opFunc
}

// lookup returns the operation an X-Amz-Target names, or
// UnknownOperationException.
func (s *service) lookup(target string) (operation, error) {
	name, fn, ok := lookupOp(target)
	if !ok {
		return operation{}, errOperationNotFound(name)
	}
	return operation{name: name, fn: fn}, nil
}

// request is one API request as the edge hands it to serve.
type request struct {
	ctx       context.Context
	accessKey string // from the request's credential
	region    string // from the request's credential scope
	tenant    string // the x-tenant-code header, for the conventions tenant guard
	requestID string // x-amzn-RequestId
	host      string // the request's Host, for DescribeEndpoints
	body      []byte
	out       []byte // spare buffer for the response body (may be nil)
	// tableName, when not nil, receives the request's TableName member
	// once its body is decoded (the edge's request log).
	tableName *string
}

// serve runs op on req and returns the response body (appended to
// req.out) or an error. A panic in an operation is a bug, which the
// caller recovers (the edge logs it and answers InternalServerError).
func (s *service) serve(op operation, req *request) ([]byte, error) {
	now := s.clock()
	c := &call{
		ctx:       req.ctx,
		ns:        s.namespaceFor(req.accessKey, req.region),
		region:    req.region,
		account:   defaultAccountID,
		accessKey: req.accessKey,
		tenantHdr: req.tenant,
		op:        op.name,
		requestID: req.requestID,
		host:      req.host,
		now:       now,
		clock:     s.clock,
		svc:       s,
		out:       req.out,
		tableName: req.tableName,
	}
	return op.fn(c, req.body)
}

// namespaceFor returns the database an access key and region select. One
// that does not exist yet is created only when a table is added to it.
func (s *service) namespaceFor(accessKey, region string) *Namespace {
	if s.cfg.SharedDB {
		return s.dbs.lookup(nsKey{shared: true})
	}
	return s.dbs.lookup(nsKey{accessKey: accessKey, region: region})
}

// conventionsReport returns the conventions report (Emulator.ConventionsReport).
func (s *service) conventionsReport() conventions.Snapshot { return s.conv.report.Snapshot() }

// resetConventionsReport empties the conventions report.
func (s *service) resetConventionsReport() { s.conv.report.Reset() }

// namespaceCount returns how many namespaces exist (tests: reads create none).
func (s *service) namespaceCount() int {
	s.dbs.mu.RLock()
	defer s.dbs.mu.RUnlock()
	return len(s.dbs.byKey)
}
