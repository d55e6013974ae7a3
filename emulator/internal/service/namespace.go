package service

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dynamoemu/dynamoemu/emulator/internal/catalog"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamrec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/dynamoemu/dynamoemu/internal/vector"
)

// defaultAccountID is the account id in ARNs, as DynamoDB Local uses it
// (arn:aws:dynamodb:REGION:000000000000:table/NAME).
const defaultAccountID = "000000000000"

// Namespace is one isolated database: DynamoDB Local keeps one per access
// key id + region; with SharedDB there is one for everyone. Its tables
// hang off one pointer, its catalog (catalog.go). The control-plane
// operations (op_tables.go) own the catalog and may extend this struct.
// A branch never written is one (48 bytes: what a used one keeps is made
// by kept) and a map entry: 191 B, 302 before (BenchmarkBranchesHeap).
type Namespace struct {
	key   string // "AKID/region", "shared" or "shared/NAME": the namespace's ID; its nsKey (nk) is read from it
	svc   *Service
	cat   atomic.Pointer[tableCatalog] // shared (frozen) until own, then its own; never shared again
	ownMu sync.Mutex                   // serializes own (first in the lock order: doc.go)
	more  atomic.Pointer[nsKept]       // made at the first use (kept); nil for a namespace only read
}

// nsKept is what a namespace keeps once used (Namespace.kept).
type nsKept struct {
	streams streamrec.Set // the streams of its tables, disabled ones included (streams.go)

	// loadedStreams: the streams persistence rebuilt (streamrec.Sidecar), by
	// table name and label, till RebuildCatalog gives them to their tables.
	loadedStreams map[string]streamrec.Stream

	states atomic.Pointer[slots] // the features' and stages' (feature_state.go); nil, keeping none, until own
}

// kept returns what ns keeps once used, made now if need be.
func (ns *Namespace) kept() *nsKept {
	if m := ns.more.Load(); m == nil {
		ns.more.CompareAndSwap(nil, new(nsKept))
	}
	return ns.more.Load()
}

// nk is the key that selects ns, read from its ID (parts of it, no copy).
func (ns *Namespace) nk() catalog.Key { k, _ := ns.svc.keyOf(ns.key); return k }

// newCatalog makes ns's own catalog, empty, with its DB: a new one (with
// the hook Config.Hooks gives), or the one Config.DBs opens
// (persistence), with the features' hooks in front. false: Config.DBs
// failed, and the DB refuses every change with the cause
// (catalog.FailingHook); ns is not to keep it.
func (s *Service) newCatalog(ns *Namespace) (*tableCatalog, bool) {
	var db *storage.DB
	switch {
	case s.cfg.DBs != nil:
		var err error
		if db, err = s.cfg.DBs(ns.key); err != nil {
			s.log.Error("cannot open the namespace's data", "namespace", ns.key, "err", err)
			return catalog.New[*table, *Namespace](storage.NewDB(catalog.FailingHook{Err: err})), false
		}
	case s.cfg.Hooks != nil:
		db = storage.NewDB(s.cfg.Hooks(ns.key))
	default:
		db = storage.NewDB(nil)
	}
	// Tables made or loaded from now on build their vector indexes with
	// these options (HNSW graphs at once when approximate); a store built
	// those it loaded so already (persist.Options.VectorIndexes), which
	// this keeps.
	db.SetVectorIndexer(vector.Options{Approximate: s.cfg.ApproximateVectors})
	ns.kept().states.CompareAndSwap(nil, new(slots))
	for _, h := range s.seams.hooks {
		if h.WrapDB != nil {
			h.WrapDB(Space{ns: ns}, db) // the features' hooks, in front of persistence (feature_lifecycle.go)
		}
	}
	for _, h := range s.seams.hooks {
		if h.Opened != nil {
			h.Opened(Space{ns: ns}) // the features' files (feature_lifecycle.go)
		}
	}
	if sc := s.sidecars.Lookup(ns.key); sc != nil {
		m := ns.kept()
		m.loadedStreams = sc.Attach(&m.streams) // streams.go
	}
	return catalog.New[*table, *Namespace](db), true
}

// persisted reports whether ns's DB is kept on disk.
func (ns *Namespace) persisted() bool { return ns != nil && ns.svc != nil && ns.svc.cfg.DBs != nil }

// closed tells the Closed hooks that ns is gone (feature_lifecycle.go).
func (ns *Namespace) closed() {
	for _, h := range ns.svc.seams.hooks {
		if h.Closed != nil {
			h.Closed(Space{ns: ns})
		}
	}
}

// ID is the namespace's ID: "<access key id>/<region>", or "shared" with
// Config.SharedDB. Access key ids are letters and digits (the edge checks
// them: emulator/internal/sigv4/credential.go), so the ID names one namespace.
func (ns *Namespace) ID() string { return ns.key }

// keyOf returns the key of namespace ID id ("AKID/region", "shared" or,
// with SharedDB, "shared/NAME"), or false when id names no namespace
// this service could serve.
func (s *Service) keyOf(id string) (catalog.Key, bool) { return catalog.KeyOf(s.cfg.SharedDB, id) }

// DB returns the namespace's storage.DB (its tables, their items and
// definitions, and its commit hook): for persistence and backups, which
// read and snapshot it, and for tests. A namespace that does not own its
// catalog yet (a fork, or one nobody has created anything in) gets its
// own first.
func (ns *Namespace) DB() *storage.DB { return ns.own().DB }

// Region is the region whose requests select this namespace; for a shared
// namespace it is empty: use the request's region (call.region) for ARNs.
func (ns *Namespace) Region() string { return ns.nk().Region }

// AccountID is the account id for ARNs ("000000000000", as DynamoDB Local).
func (ns *Namespace) AccountID() string { return defaultAccountID }

// namespaces holds the namespaces of a service, created on first use
// (catalog.Registry), and tableCatalog is one's catalog of tables.
type (
	namespaces   = catalog.Registry[Namespace, *table]
	tableCatalog = catalog.Catalog[*table, *Namespace]
)

// newNamespace returns a namespace of k holding catalog c; its ID a copy
// (k's may lie in a buffer the connection reuses).
func (s *Service) newNamespace(k catalog.Key, c *tableCatalog) *Namespace {
	ns := &Namespace{key: strings.Clone(k.String()), svc: s}
	ns.cat.Store(c)
	return ns
}

// lookup returns the namespace of k: kept, in use, or new and held
// weakly until something is made in it (own), so that keys that make
// nothing keep nothing. Unless read (readOnly), a fork gets its own.
func (s *Service) lookup(k catalog.Key, read bool) *Namespace {
	ns := s.dbs.Lookup(k)
	if c := ns.cat.Load(); !read && c.Snap != nil && c.Frozen {
		ns.own()
	}
	return ns
}

// get returns the namespace of k, owning its catalog.
func (s *Service) get(k catalog.Key) *Namespace {
	ns := s.dbs.Lookup(k)
	ns.own()
	return ns
}

// Namespace returns the namespace of ID id ("<access key id>/<region>",
// "shared", or with SharedDB "shared/NAME" for a branch), owning its
// catalog (the one persistence loads records into), or nil when id
// names no namespace this emulator could serve (a shared ID without
// SharedDB, or the other way round).
func (s *Service) Namespace(id string) *Namespace {
	k, ok := s.keyOf(id)
	if !ok {
		return nil
	}
	return s.get(k)
}
