package service

import (
	"log/slog"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/catalog"
	"github.com/dynamoemu/dynamoemu/emulator/internal/idempotency"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamrec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
) // Service is DynamoDB-the-service without HTTP: the namespaces and their
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
