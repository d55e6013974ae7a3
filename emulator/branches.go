package emulator

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/sigv4"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Branches: a namespace forked from another in O(1), for test suites
// that seed a base once and give every test its own copy of it. A branch
// is the namespace of an access key id (its name) in the base's region
// (with SharedDB: "shared/NAME", which no access key selects), filled
// from the base's storage snapshot as a snapshot's rewind fills a
// namespace (service/ns_snapshot.go): the tables, items, indexes and
// definitions are shared copy-on-write (storage/cow.go), so a fork costs
// a few allocations whatever the tables hold, and each side copies only
// what it changes. Without a DataDir a branch holds the catalog every
// branch of the same snapshot shares (one pointer: service.Service.Fork)
// until its first use other than a read gives it its own; Drop drops
// all it holds. A request reaches a branch when its
// X-Dynamoemu-Branch header names it, whatever its access key and
// region, or (without SharedDB) when its credential's access key id is
// the branch's name, in the base's region.
//
// adminpath.Branches makes, lists, drops and compares them
// (adminhttp/branches.go), behind the admin guard like the other admin
// endpoints (httpedge/adminguard.go). With SharedDB and
// a DataDir there are no branches: a SharedDB server loads only the
// shared namespace's directory, so a branch's would be kept on disk and
// loaded by no server.

// headerBranch names the branch a request is served in (canonical form,
// as net/http keys it; the connection loop reads it too: emulator/internal/httploop).
const headerBranch = "X-Dynamoemu-Branch"

// Errors of Branches.Fork and Branches.Drop.
var (
	ErrNoBranch     = errors.New("emulator: no such branch")
	ErrBranchExists = errors.New("emulator: the branch's namespace exists")
	ErrBranchName   = errors.New("emulator: a branch name is 1 to 128 letters and digits")
	ErrNoNamespace  = errors.New("emulator: no such namespace")
	ErrSharedDB     = errors.New("emulator: with SharedDB and a DataDir (-sharedDb -dbPath) there are no branches: a SharedDB server loads only the shared namespace's directory, so a branch's would be kept and never loaded; fork without -dbPath, or without -sharedDb")
)

// Branch is one branch: its name, which the X-Dynamoemu-Branch header
// of a request names and (without SharedDB) is also the access key id
// whose requests reach it, its namespace ID and the namespace it was
// forked from. AccessKey is "" with SharedDB.
type Branch struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
	Base      string `json:"base"`
	AccessKey string `json:"accessKey"`
}

// Branches are copies of the emulator's namespaces for test suites:
// branches, a namespace forked from another in O(1) that requests reach
// by its name (Fork, Drop, List), and snapshots of every namespace that
// the whole emulator rewinds to (Snapshot, Restore, DropSnapshot). The
// zero Branches is not usable: Emulator.Branches returns one.
type Branches struct{ e *Emulator }

// Branches returns the emulator's branches and snapshots.
func (e *Emulator) Branches() Branches { return Branches{e} }

// branchSet is the branches made, by name.
type branchSet struct {
	mu     sync.RWMutex // guards byName; a leaf of the lock order, held while a fork fills the branch
	byName map[string]Branch
}

// validBranchName reports whether name can be an access key id: 1 to 128
// letters and digits (the edge refuses any other: sigv4.ValidAccessKey).
func validBranchName(name string) bool {
	return len(name) > 0 && len(name) <= 128 && strings.IndexFunc(name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) < 0
}

// Fork makes branch name of namespace base (its ID, "AKID/region"),
// holding base's tables and items as they are now: O(1) per table and
// index whatever they hold; afterwards neither sees the other's writes.
// Requests signed with access key id name in base's region reach it. It
// fails with ErrBranchName, ErrNoNamespace (base holds nothing),
// ErrBranchExists (that access key's namespace holds tables) or
// ErrSharedDB (with a DataDir). With persistence, a branch is kept as any
// namespace is. With SharedDB, base is "shared" or another branch
// ("shared/NAME") and the branch is "shared/" + name, reached by the
// X-Dynamoemu-Branch header only.
func (bs Branches) Fork(base, name string) (Branch, error) {
	e := bs.e
	if e.opts.SharedDB && e.opts.DataDir != "" {
		return Branch{}, ErrSharedDB
	}
	if !validBranchName(name) {
		return Branch{}, fmt.Errorf("%w: %q", ErrBranchName, name)
	}
	ids := e.svc.NamespaceIDs()
	if !slices.Contains(ids, base) || e.svc.Forked(base) == nil && e.svc.Namespace(base) == nil {
		return Branch{}, fmt.Errorf("%w: %q", ErrNoNamespace, base)
	}
	b := Branch{Name: name, Namespace: "shared/" + name, Base: base}
	if !e.opts.SharedDB {
		_, region, _ := strings.Cut(base, "/")
		b.Namespace, b.AccessKey = name+"/"+region, name
	}
	e.branches.mu.Lock()
	defer e.branches.mu.Unlock()
	if _, ok := e.branches.byName[name]; ok || slices.Contains(ids, b.Namespace) && len(e.snapshotOf(b.Namespace).Tables()) > 0 {
		return Branch{}, fmt.Errorf("%w: %q", ErrBranchExists, b.Namespace)
	}
	if err := e.svc.Fork(b.Namespace, e.snapshotOf(base)); err != nil {
		return Branch{}, err
	}
	if e.branches.byName == nil {
		e.branches.byName = make(map[string]Branch)
	}
	e.branches.byName[name] = b
	return b, nil
}

// Drop drops branch name's tables (deletion protection
// notwithstanding) and everything only they hold; an unknown name is
// ErrNoBranch.
func (bs Branches) Drop(name string) error {
	e := bs.e
	e.branches.mu.Lock()
	defer e.branches.mu.Unlock()
	b, ok := e.branches.byName[name]
	if !ok {
		return fmt.Errorf("%w: %q", ErrNoBranch, name)
	}
	delete(e.branches.byName, name)
	return e.svc.Fork(b.Namespace, nil)
}

// snapshotOf returns a snapshot of namespace id without making a fork
// not used yet (service.Service.Fork): a branch of a branch nobody has
// used shares its snapshot.
func (e *Emulator) snapshotOf(id string) *storage.Snapshot {
	if sp := e.svc.Forked(id); sp != nil {
		return sp
	}
	return e.svc.Namespace(id).DB().Snapshot(nil)
}

// List returns the branches, by name.
func (bs Branches) List() []Branch {
	e := bs.e
	e.branches.mu.RLock()
	defer e.branches.mu.RUnlock()
	out := make([]Branch, 0, len(e.branches.byName))
	for _, b := range e.branches.byName {
		out = append(out, b)
	}
	compare := func(a, b Branch) int { return strings.Compare(a.Name, b.Name) }
	sort.Slice(out, func(i, j int) bool { return compare(out[i], out[j]) < 0 })
	return out
}

// NamespaceID returns the ID of the namespace that requests signed with
// accessKey in region reach, as Fork names its base: "shared" with
// Options.SharedDB, "AKID/region" otherwise.
func (bs Branches) NamespaceID(accessKey, region string) string {
	return bs.e.namespaceID(accessKey, region)
}

// namespaceID is Branches.NamespaceID.
func (e *Emulator) namespaceID(accessKey, region string) string {
	if e.opts.SharedDB {
		return "shared"
	}
	return accessKey + "/" + region
}

// branchNamespace returns the namespace ID of branch name, which a
// request's X-Dynamoemu-Branch header names: ValidationException when
// there is no such branch or, with Credentials, when the branch does not
// descend from the namespace the request's key reaches (a key reaches
// its own namespace's branches, and theirs).
func (e *Emulator) branchNamespace(name string, cred sigv4.Credential) (string, error) {
	e.branches.mu.RLock()
	defer e.branches.mu.RUnlock()
	b, ok := e.branches.byName[name]
	if !ok {
		return "", apierr.Validationf("the %s header names no branch: %q (POST %s makes one)", headerBranch, name, adminpath.Branches)
	}
	if e.keys != nil {
		own := e.namespaceID(cred.AccessKey, cred.Region)
		at := b
		for hops := 0; at.Base != own; hops++ {
			if at, ok = e.branchOfLocked(at.Base); !ok || hops > len(e.branches.byName) {
				return "", apierr.Validationf("the %s header names branch %q, of namespace %s, which the request's access key does not reach", headerBranch, name, b.Base)
			}
		}
	}
	return b.Namespace, nil
}

// branchOfLocked returns the branch whose namespace has ID id, if any.
// e.branches.mu is held.
func (e *Emulator) branchOfLocked(id string) (Branch, bool) {
	name, _, _ := strings.Cut(id, "/")
	if e.opts.SharedDB {
		name, _ = strings.CutPrefix(id, "shared/")
	}
	b, ok := e.branches.byName[name]
	return b, ok && b.Namespace == id
}

// branchOf returns branch name's namespace and base, for its diff.
func (e *Emulator) branchOf(name string) (namespace, base string, err error) {
	e.branches.mu.RLock()
	defer e.branches.mu.RUnlock()
	b, ok := e.branches.byName[name]
	if !ok {
		return "", "", fmt.Errorf("%w: %q", ErrNoBranch, name)
	}
	return b.Namespace, b.Base, nil
}
