package service

import (
	"errors"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"weak"

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
	cat   atomic.Pointer[catalog] // shared (frozen) until own, then its own; never shared again
	ownMu sync.Mutex              // serializes own (first in the lock order: doc.go)
	more  atomic.Pointer[nsKept]  // made at the first use (kept); nil for a namespace only read
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
func (ns *Namespace) nk() nsKey { k, _ := ns.svc.keyOf(ns.key); return k }

// newCatalog makes ns's own catalog, empty, with its DB: a new one (with
// the hook n.hooks gives), or the one n.dbs opens (persistence), with the
// features' hooks in front. false: n.dbs failed, and the DB refuses
// every change with the cause (failingHook); ns is not to keep it.
func (n *namespaces) newCatalog(ns *Namespace) (*catalog, bool) {
	var db *storage.DB
	switch {
	case n.dbs != nil:
		var err error
		if db, err = n.dbs(ns.key); err != nil {
			n.svc.log.Error("cannot open the namespace's data", "namespace", ns.key, "err", err)
			return &catalog{db: storage.NewDB(failingHook{err})}, false
		}
	case n.hooks != nil:
		db = storage.NewDB(n.hooks(ns.key))
	default:
		db = storage.NewDB(nil)
	}
	// Tables made or loaded from now on build their vector indexes with
	// these options (HNSW graphs at once when approximate); a store built
	// those it loaded so already (persist.Options.VectorIndexes), which
	// this keeps.
	db.SetVectorIndexer(vector.Options{Approximate: n.svc.cfg.ApproximateVectors})
	ns.kept().states.CompareAndSwap(nil, new(slots))
	for _, h := range n.svc.seams.hooks {
		if h.WrapDB != nil {
			h.WrapDB(Space{ns: ns}, db) // the features' hooks, in front of persistence (feature_lifecycle.go)
		}
	}
	for _, h := range n.svc.seams.hooks {
		if h.Opened != nil {
			h.Opened(Space{ns: ns}) // the features' files (feature_lifecycle.go)
		}
	}
	if sc := n.svc.sidecars.Lookup(ns.key); sc != nil {
		m := ns.kept()
		m.loadedStreams = sc.Attach(&m.streams) // streams.go
	}
	return &catalog{db: db}, true
}

// failingHook refuses every change with err: the hook of a namespace
// whose stored DB could not be opened (newCatalog), of the catalogs forks
// share (errShared: ns_snapshot.go) and of the empty one (New).
type failingHook struct{ err error }

func (h failingHook) Commit(*storage.Record) (uint64, error) { return 0, h.err }
func (failingHook) Wait(uint64) error                        { return nil }

// persisted reports whether ns's DB is kept on disk.
func (ns *Namespace) persisted() bool { return ns != nil && ns.svc != nil && ns.svc.cfg.DBs != nil }

var errShared = errors.New("service: a change of a catalog forks share") // a bug caught

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

// keyString is the Namespace.key of k: "shared", "shared/NAME" for
// branch NAME of the shared namespace (emulator/branches.go), or
// "AKID/region".
func (k nsKey) keyString() string {
	if k.shared {
		if k.accessKey != "" {
			return "shared/" + k.accessKey
		}
		return "shared"
	}
	return k.accessKey + "/" + k.region
}

// keyOf returns the nsKey of namespace ID id ("AKID/region", "shared" or,
// with SharedDB, "shared/NAME"), or false when id names no namespace
// this service could serve.
func (s *Service) keyOf(id string) (nsKey, bool) {
	if s.cfg.SharedDB {
		switch {
		case id == "shared":
			return nsKey{shared: true}, true
		case strings.HasPrefix(id, "shared/") && len(id) > len("shared/"):
			return nsKey{shared: true, accessKey: id[len("shared/"):]}, true
		}
		return nsKey{}, false
	}
	key, region, ok := strings.Cut(id, "/")
	return nsKey{accessKey: key, region: region}, ok
}

// DB returns the namespace's storage.DB (its tables, their items and
// definitions, and its commit hook): for persistence and backups, which
// read and snapshot it, and for tests. A namespace that does not own its
// catalog yet (a fork, or one nobody has created anything in) gets its
// own first.
func (ns *Namespace) DB() *storage.DB { return ns.own().db }

// Region is the region whose requests select this namespace; for a shared
// namespace it is empty: use the request's region (call.region) for ARNs.
func (ns *Namespace) Region() string { return ns.nk().region }

// AccountID is the account id for ARNs ("000000000000", as DynamoDB Local).
func (ns *Namespace) AccountID() string { return defaultAccountID }

// namespaces holds the namespaces of an Emulator, created on first use.
type namespaces struct {
	svc *Service // immutable after newService
	// hooks returns the commit hook of a new namespace's DB, given its
	// ID; nil (or a nil hook): none. Immutable after New: the seam for
	// persistence (catalog_record.go says what the DB holds).
	hooks func(id string) storage.Hook
	// dbs, when set, opens the DB of a new namespace, given its ID,
	// instead (persistence.go). Immutable after New.
	dbs func(id string) (*storage.DB, error)

	empty *catalog // of the namespaces nobody made anything in: no table. Immutable after New.

	mu     sync.RWMutex                      // guards these and catalog.forks; a leaf of the lock order (doc.go)
	byKey  map[nsKey]*Namespace              // the namespaces that hold something, and the forks
	idle   map[nsKey]weak.Pointer[Namespace] // the others in use (lookup)
	shared map[*storage.Snapshot]*catalog    // the catalogs forks share, by snapshot (ns_snapshot.go)
}

// nsKey selects a namespace: the shared one, or one access key id +
// region; with shared, a non-empty accessKey is the name of a branch of
// the shared namespace (emulator/branches.go), which has no region as
// the shared namespace has none.
type nsKey struct {
	shared            bool
	accessKey, region string
}

// lookup returns the namespace of k: kept, in use, or new and held weakly
// (idle) until something is made in it (own), so that keys that make
// nothing keep nothing. Unless read (readOnly), a fork gets its own.
func (n *namespaces) lookup(k nsKey, read bool) *Namespace {
	n.mu.RLock()
	ns := n.inUseLocked(k)
	n.mu.RUnlock()
	if ns == nil {
		n.mu.Lock()
		if ns = n.inUseLocked(k); ns == nil {
			ns = n.newNamespace(k, n.empty)
			w := weak.Make(ns)
			nk := ns.nk()
			n.idle[nk] = w
			runtime.AddCleanup(ns, func(k nsKey) {
				n.mu.Lock()
				defer n.mu.Unlock()
				if n.idle[k] == w {
					delete(n.idle, k)
				}
			}, nk)
		}
		n.mu.Unlock()
	}
	if c := ns.cat.Load(); !read && c.snap != nil && c.frozen {
		ns.own()
	}
	return ns
}

// inUseLocked returns the namespace of k, kept or idle, or nil; n.mu held.
func (n *namespaces) inUseLocked(k nsKey) *Namespace {
	if ns := n.byKey[k]; ns != nil {
		return ns
	}
	return n.idle[k].Value()
}

// newNamespace returns a namespace of k holding catalog c; its ID a copy
// (k's may lie in a buffer the connection reuses).
func (n *namespaces) newNamespace(k nsKey, c *catalog) *Namespace {
	ns := &Namespace{key: strings.Clone(k.keyString()), svc: n.svc}
	ns.cat.Store(c)
	return ns
}

// get returns the namespace of k, owning its catalog.
func (n *namespaces) get(k nsKey) *Namespace {
	ns := n.lookup(k, true)
	ns.own()
	return ns
}

// all returns every namespace kept (forks included).
func (n *namespaces) all() []*Namespace {
	n.mu.RLock()
	defer n.mu.RUnlock()
	return slices.Collect(maps.Values(n.byKey))
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
	return s.dbs.get(k)
}
