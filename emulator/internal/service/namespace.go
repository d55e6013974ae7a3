package service

import (
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/dynamoemu/dynamoemu/emulator/internal/streamrec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/dynamoemu/dynamoemu/internal/vector"
)

// defaultAccountID is the account id in ARNs, as DynamoDB Local uses it
// (arn:aws:dynamodb:REGION:000000000000:table/NAME).
const defaultAccountID = "000000000000"

// Namespace is one isolated database: its storage.DB (the tables, their
// items and their definitions, and the one commit hook through which every
// change of them leaves it) and the emulator's catalog of those tables.
// DynamoDB Local keeps one per access key id + region; with SharedDB there
// is one for everyone. The control-plane operations (op_tables.go) own the
// catalog and may extend this struct and table.
type Namespace struct {
	key    string // "AKID/region", or "shared": the namespace's ID
	region string // region that created it; "" for the shared namespace
	svc    *Service
	db     *storage.DB // nil while home is set

	mu       sync.RWMutex    // guards tables and deleting; a leaf of the lock order (doc.go)
	tables   []*table        // in name order (catalog.go, findLocked)
	deleting []deletingTable // tables DELETING for a while (catalog_deleting.go)

	streams streamrec.Set // the streams of its tables, disabled ones included (streams.go)

	// loadedStreams are the streams persistence rebuilt, by table name
	// and label, until RebuildCatalog gives them to their tables
	// (streamrec.Sidecar); nil otherwise.
	loadedStreams map[string]streamrec.Stream

	states slots // the features' and stages' per-namespace states, each made at its first use (feature_state.go)

	// home is set for a namespace nobody has created anything in yet: it
	// has no tables and is registered in home only when a table is added
	// (addTable), so reads with ever new access keys keep nothing.
	home    *namespaces
	homeKey nsKey
}

// newNamespace returns the namespace of ID key, with its DB: a new one
// (with the hook n.hooks gives), or the one n.dbs opens (persistence,
// which may load tables into it). It returns false when n.dbs failed:
// the namespace is then not to be registered; its DB refuses every
// change with the cause (persistence.go).
func (n *namespaces) newNamespace(key, region string) (*Namespace, bool) {
	ns := &Namespace{key: key, region: region, svc: n.svc}
	var db *storage.DB
	switch {
	case n.dbs != nil:
		var err error
		if db, err = n.dbs(key); err != nil {
			n.svc.log.Error("cannot open the namespace's data", "namespace", key, "err", err)
			ns.db = storage.NewDB(failingHook{err})
			return ns, false
		}
	case n.hooks != nil:
		db = storage.NewDB(n.hooks(key))
	default:
		db = storage.NewDB(nil)
	}
	// Point-in-time recovery sees every record, in front of whatever
	// hook the DB has (the store's log, a test's recorder).
	// Tables made or loaded from now on build their vector indexes with
	// these options (HNSW graphs at once when approximate); a store built
	// those it loaded so already (persist.Options.VectorIndexes), which
	// this keeps.
	db.SetVectorIndexer(vector.Options{Approximate: n.svc.cfg.ApproximateVectors})
	ns.db = db
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
	if sc := n.svc.sidecars.Lookup(key); sc != nil {
		ns.loadedStreams = sc.Attach(&ns.streams) // streams.go
	}
	return ns, true
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
// read and snapshot it, and for tests. A namespace nobody has created
// anything in is registered first.
func (ns *Namespace) DB() *storage.DB { return ns.registered().db }

// Region is the region whose requests select this namespace; for a shared
// namespace it is empty: use the request's region (call.region) for ARNs.
func (ns *Namespace) Region() string { return ns.region }

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

	mu sync.RWMutex // guards byKey and forks; a leaf of the lock order (doc.go)
	// byKey maps access key id + region (or shared) to its namespace.
	byKey map[nsKey]*Namespace
	// forks are the namespaces forked and not used yet, made at their
	// first use (Service.Fork, ns_snapshot.go).
	forks map[nsKey]*fork
	views map[*storage.Snapshot]*view // the forks' views, by snapshot
}

// nsKey selects a namespace: the shared one, or one access key id +
// region; with shared, a non-empty accessKey is the name of a branch of
// the shared namespace (emulator/branches.go), which has no region as
// the shared namespace has none.
type nsKey struct {
	shared            bool
	accessKey, region string
}

// lookup returns the namespace for k: the registered one, or else an
// empty, unregistered one that registers itself when a table is added to
// it (see Namespace.home). Reads never create a namespace; a read (an
// operation in sharedReads) of a fork not made reads its view.
func (n *namespaces) lookup(k nsKey, read bool) *Namespace {
	n.mu.RLock()
	ns, f := n.byKey[k], n.forks[k]
	n.mu.RUnlock()
	if f != nil && read {
		return f.view.reader(n, k, f.snap)
	} else if f != nil {
		return n.made(k, f)
	}
	if ns != nil {
		return ns
	}
	ns = &Namespace{key: k.keyString(), region: k.region, svc: n.svc, home: n}
	ns.homeKey = k
	return ns
}

// get returns the namespace for k, creating it on first use. The access
// key and region are copied, so the namespace does not keep the request
// header they were cut from.
func (n *namespaces) get(k nsKey) *Namespace {
	if ns := n.lookup(k, false); ns.home == nil {
		return ns
	}
	n.mu.Lock()
	if f := n.forks[k]; f != nil { // forked meanwhile
		n.mu.Unlock()
		return n.made(k, f)
	}
	defer n.mu.Unlock()
	ns := n.byKey[k]
	if ns == nil {
		k.accessKey, k.region = strings.Clone(k.accessKey), strings.Clone(k.region)
		id, region := k.keyString(), k.region
		if k.shared {
			region = ""
		}
		var ok bool
		if ns, ok = n.newNamespace(id, region); !ok {
			return ns // not registered: the next use tries again
		}
		n.byKey[k] = ns
	}
	return ns
}

// all returns every namespace created so far.
func (n *namespaces) all() []*Namespace {
	n.mu.RLock()
	defer n.mu.RUnlock()
	return slices.Collect(maps.Values(n.byKey))
}

// allTables returns the namespace's tables.
func (ns *Namespace) allTables() []*table {
	ns.mu.RLock()
	defer ns.mu.RUnlock()
	return slices.Clone(ns.tables)
}
