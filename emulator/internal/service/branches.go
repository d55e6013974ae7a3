package service

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Branches: namespaces forked from another, for test suites that seed a
// base once and give each test its own copy of it.
//
// A branch is a namespace of its own (its tables, streams, TTL and
// per-namespace feature state), selected by its name used as the access
// key id of a request's credential, whatever the request's region and
// whether or not the emulator shares one namespace (Config.SharedDB).
// Fork takes the base's storage snapshot (DB.Snapshot: consistent across
// its tables, O(1) per table and index) and restores it into the new
// namespace as a rewind does (ns_snapshot.go): items, index entries and
// records are shared copy-on-write with the base (storage/cow.go), so a
// fork costs a few allocations per table whatever the tables hold, and
// each side copies only what it changes afterwards. Writes to a branch
// are invisible to its base and to other branches, and the other way
// round.
//
// Branches live in memory only: with persistence on, the base's files
// hold the base, and a branch is gone at restart (its namespace has no
// commit hook of persistence's). DropBranch drops its tables and forgets
// it; what only it held is then collected.

// ErrNoBranch: no branch has that name.
var ErrNoBranch = errors.New("emulator: no such branch")

// ErrBranchName: a branch name is 1 to 128 letters and digits (it is
// used as an access key id).
var ErrBranchName = errors.New("emulator: a branch name is 1 to 128 letters and digits")

// ErrBranchExists: a branch of that name exists.
var ErrBranchExists = errors.New("emulator: branch exists")

// ErrNoNamespace: the base of a fork holds no table (or never existed).
var ErrNoNamespace = errors.New("emulator: no such namespace")

// branchIDPrefix starts a branch's namespace ID ("branch:NAME"); no
// access-key namespace ID ("AKID/region") or "shared" starts so.
const branchIDPrefix = "branch:"

// BranchInfo is one branch: its name (the access key id that selects
// it), its namespace ID and the namespace it was forked from.
type BranchInfo struct {
	Name string
	ID   string
	Base string
}

// validBranchName reports whether name can be an access key id: 1 to 128
// letters and digits (the edge refuses any other: emulator/auth.go).
func validBranchName(name string) bool {
	if name == "" || len(name) > 128 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// Fork makes branch name of the namespace with ID base ("AKID/region",
// "shared" or another branch's "branch:NAME"), holding its tables as
// they are now. It fails when base is no namespace (ErrNoNamespace), when name is not
// letters and digits (ErrBranchName), or when a branch of that name
// exists (ErrBranchExists).
func (s *Service) Fork(base, name string) (BranchInfo, error) {
	if !validBranchName(name) {
		return BranchInfo{}, fmt.Errorf("%w: %q", ErrBranchName, name)
	}
	src := s.registeredNamespace(base)
	if src == nil {
		return BranchInfo{}, fmt.Errorf("%w: %q", ErrNoNamespace, base)
	}
	snap := src.db.Snapshot(nil)
	k := nsKey{branch: name}
	n := &s.dbs
	if n.registeredOnly(k) != nil {
		return BranchInfo{}, fmt.Errorf("%w: %q", ErrBranchExists, name)
	}
	// Filled before it is registered, so that no request sees it half
	// made.
	ns := n.newBranchNamespace(k.keyString(), src.region)
	ns.forkedFrom = src.key
	if err := ns.rewind(snap); err != nil {
		_ = ns.rewind(nil)
		return BranchInfo{}, err
	}
	n.mu.Lock()
	if _, ok := n.byKey[k]; ok {
		n.mu.Unlock()
		_ = ns.rewind(nil)
		return BranchInfo{}, fmt.Errorf("%w: %q", ErrBranchExists, name)
	}
	if n.byKey == nil {
		n.byKey = make(map[nsKey]*Namespace)
	}
	n.byKey[k] = ns
	n.branches.Add(1)
	n.mu.Unlock()
	return BranchInfo{Name: name, ID: ns.key, Base: src.key}, nil
}

// DropBranch drops branch name's tables (deletion protection
// notwithstanding) and forgets it.
func (s *Service) DropBranch(name string) error {
	k := nsKey{branch: name}
	n := &s.dbs
	n.mu.Lock()
	ns := n.byKey[k]
	if ns == nil {
		n.mu.Unlock()
		return fmt.Errorf("%w: %q", ErrNoBranch, name)
	}
	delete(n.byKey, k)
	n.branches.Add(-1)
	n.mu.Unlock()
	return ns.rewind(nil)
}

// Branches lists the branches, by name.
func (s *Service) Branches() []BranchInfo {
	var out []BranchInfo
	for _, ns := range s.dbs.all() {
		if name, ok := strings.CutPrefix(ns.key, branchIDPrefix); ok {
			out = append(out, BranchInfo{Name: name, ID: ns.key, Base: ns.forkedFrom})
		}
	}
	slices.SortFunc(out, func(a, b BranchInfo) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// branchKey returns the key of the branch accessKey names, if one does:
// one atomic load while there is no branch.
func (n *namespaces) branchKey(accessKey string) (nsKey, bool) {
	if n.branches.Load() == 0 {
		return nsKey{}, false
	}
	k := nsKey{branch: accessKey}
	n.mu.RLock()
	_, ok := n.byKey[k]
	n.mu.RUnlock()
	return k, ok
}

// newBranchNamespace returns a new namespace of ID key whose DB is in
// memory only: persistence's files and hook are the base's, never a
// branch's.
func (n *namespaces) newBranchNamespace(key, region string) *Namespace {
	ns := &Namespace{key: key, region: region, account: defaultAccountID, svc: n.svc, tables: make(map[string]*table), states: newStates()}
	db := storage.NewDB(nil)
	if n.svc.cfg.ApproximateVectors {
		db.SetVectorIndexOptions(storage.VectorIndexOptions{Approximate: true})
	}
	ns.db = db
	n.svc.openNamespace(ns, db)
	return ns
}

// registeredNamespace returns the namespace of ID id if it exists,
// creating none.
func (s *Service) registeredNamespace(id string) *Namespace {
	var k nsKey
	switch name, isBranch := strings.CutPrefix(id, branchIDPrefix); {
	case isBranch:
		k = nsKey{branch: name}
	case id == "shared":
		k = nsKey{shared: true}
	default:
		ak, region, ok := strings.Cut(id, "/")
		if !ok {
			return nil
		}
		k = nsKey{accessKey: ak, region: region}
	}
	return s.dbs.registeredOnly(k)
}

// NamespaceID returns the ID of the namespace that requests signed with
// accessKey in region reach (namespaceFor), whether or not it exists yet.
func (s *Service) NamespaceID(accessKey, region string) string {
	return s.namespaceFor(accessKey, region).key
}
