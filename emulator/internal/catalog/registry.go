package catalog

import (
	"maps"
	"runtime"
	"slices"
	"sync"
	"weak"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Registry holds the namespaces (N) of a service, created on first use:
// kept once something is made in them (Own), held weakly till then, so
// that keys that make nothing keep nothing; and the catalogs forks of
// one snapshot share. Its three functions are the namespace type's,
// handed in by the data plane (NewRegistry).
type Registry[N any, T comparable] struct {
	// Empty is the catalog of the namespaces nobody made anything in:
	// no table, its DB refusing every change. Immutable.
	Empty *Catalog[T, *N]

	make  func(Key, *Catalog[T, *N]) *N // a namespace of a key holding a catalog
	key   func(*N) Key                  // the key that selects a namespace, read from its ID
	catOf func(*N) *Catalog[T, *N]      // a namespace's catalog now

	mu     sync.RWMutex                          // guards these and Catalog.forks; a leaf of the lock order
	byKey  map[Key]*N                            // the namespaces that hold something, and the forks
	idle   map[Key]weak.Pointer[N]               // the others in use (Lookup)
	shared map[*storage.Snapshot]*Catalog[T, *N] // the catalogs forks share, by snapshot
}

// NewRegistry returns a registry with no namespace: make returns a new
// namespace of a key holding a catalog (its ID a copy of the key's: the
// key may lie in a buffer a connection reuses), key the key read from a
// namespace's ID, catOf a namespace's catalog.
func NewRegistry[N any, T comparable](make func(Key, *Catalog[T, *N]) *N, key func(*N) Key, catOf func(*N) *Catalog[T, *N]) *Registry[N, T] {
	return &Registry[N, T]{
		Empty: &Catalog[T, *N]{DB: storage.NewDB(FailingHook{ErrShared}), Frozen: true},
		make:  make, key: key, catOf: catOf,
		byKey:  map[Key]*N{},
		idle:   map[Key]weak.Pointer[N]{},
		shared: map[*storage.Snapshot]*Catalog[T, *N]{},
	}
}

// Lookup returns the namespace of k: kept, in use, or new (holding
// Empty) and held weakly until something is made in it (Own).
func (r *Registry[N, T]) Lookup(k Key) *N {
	r.mu.RLock()
	ns := r.inUseLocked(k)
	r.mu.RUnlock()
	if ns != nil {
		return ns
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if ns = r.inUseLocked(k); ns == nil {
		ns = r.make(k, r.Empty)
		w := weak.Make(ns)
		nk := r.key(ns)
		r.idle[nk] = w
		runtime.AddCleanup(ns, func(k Key) {
			r.mu.Lock()
			defer r.mu.Unlock()
			if r.idle[k] == w {
				delete(r.idle, k)
			}
		}, nk)
	}
	return ns
}

// inUseLocked returns the namespace of k, kept or idle, or nil; r.mu held.
func (r *Registry[N, T]) inUseLocked(k Key) *N {
	if ns := r.byKey[k]; ns != nil {
		return ns
	}
	return r.idle[k].Value()
}

// All returns every namespace kept (forks included).
func (r *Registry[N, T]) All() []*N {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Collect(maps.Values(r.byKey))
}

// Kept returns the namespace of k when it is kept, else nil.
func (r *Registry[N, T]) Kept(k Key) *N {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.byKey[k]
}

// Counts returns how many namespaces are kept, how many idle and how
// many catalogs forks share (tests).
func (r *Registry[N, T]) Counts() (kept, idle, shared int) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.byKey), len(r.idle), len(r.shared)
}

// Shared returns snap's shared catalog, held by one more fork: made by
// fill, with no lock held, if none is.
func (r *Registry[N, T]) Shared(snap *storage.Snapshot, fill func() *Catalog[T, *N]) *Catalog[T, *N] {
	r.mu.Lock()
	c := r.shared[snap]
	if c == nil {
		r.mu.Unlock()
		c = fill()
		r.mu.Lock()
		if made := r.shared[snap]; made != nil { // by another fork meanwhile
			c = made
		}
		r.shared[snap] = c
	}
	c.forks++
	r.mu.Unlock()
	return c
}

// releaseLocked lets go of c, a namespace's catalog as it is dropped or
// owns one; it returns c's Reader to close when no fork holds c. r.mu held.
func (r *Registry[N, T]) releaseLocked(c *Catalog[T, *N]) *N {
	if c.Snap == nil || !c.Frozen {
		return nil // the empty catalog, or a namespace's own
	}
	if c.forks--; c.forks > 0 {
		return nil
	}
	delete(r.shared, c.Snap)
	return c.Reader
}

// Replace drops the namespace of k, if any, and keeps a new one holding
// c instead (nil: none). It returns the namespace to close: the old one
// if it owned its catalog, else perhaps its shared catalog's Reader.
func (r *Registry[N, T]) Replace(k Key, c *Catalog[T, *N]) (gone *N) {
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.inUseLocked(k)
	delete(r.byKey, k)
	delete(r.idle, k)
	if c != nil {
		ns := r.make(k, c)
		r.byKey[r.key(ns)] = ns // its key's strings are its ID's, not k's
	}
	if old != nil {
		if gone = r.releaseLocked(r.catOf(old)); !r.catOf(old).Frozen {
			gone = old
		}
	}
	return gone
}

// Own keeps ns, which now owns its catalog: set, under r's lock, by
// swap, in place of old. It returns the namespace to close: old's
// Reader when no fork holds old any more.
func (r *Registry[N, T]) Own(ns *N, old *Catalog[T, *N], swap func()) (gone *N) {
	r.mu.Lock()
	defer r.mu.Unlock()
	swap()
	if nk := r.key(ns); r.inUseLocked(nk) == ns { // not dropped (Replace) meanwhile
		gone = r.releaseLocked(old)
		r.byKey[nk] = ns
		delete(r.idle, nk)
	}
	return gone
}
