package catalog

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Catalog is the table catalog of a namespace: its DB holds the tables
// (items, indexes, and each table's definition as a metadata record),
// and the catalog lists the emulator's tables (T, the data plane's) in
// name order, each wrapping its storage table. Its mutex guards only
// that list and the tables DELETING (a leaf of the lock order), so a
// long Scan never blocks CreateTable. A namespace holds its catalog
// under one pointer, so that forks share one as go-memdb's snapshots
// share a root, until a fork's first change gives it its own; N is the
// namespace type, for a shared catalog's Reader.
type Catalog[T comparable, N any] struct {
	DB       *storage.DB
	mu       sync.RWMutex      // guards tables and deleting; a leaf of the lock order
	tables   []entry[T]        // in name order (find)
	deleting []retired[T]      // tables DELETING for a while (Retire)
	Frozen   bool              // shared: its DB refuses every change
	Snap     *storage.Snapshot // a shared one's, its forks' (nil: Registry.Empty)
	forks    int               // the namespaces holding a shared one; guarded by Registry.mu
	// Reader is a shared one's tables' namespace, which no request
	// reaches.
	Reader N
}

// entry is a table of the catalog, by name.
type entry[T any] struct {
	name string
	t    T
}

// retired is a table DeleteTable took out, DELETING until goneAt.
type retired[T any] struct {
	name   string
	t      T
	goneAt time.Time
}

// New returns an empty catalog on db.
func New[T comparable, N any](db *storage.DB) *Catalog[T, N] {
	return &Catalog[T, N]{DB: db}
}

// Forks is how many namespaces hold c, a shared catalog.
func (c *Catalog[T, N]) Forks() int { return c.forks }

// find returns where the table called name is, or would go, in
// c.tables (a slice in name order: a map's least is 200 B); c.mu held.
func (c *Catalog[T, N]) find(name string) (int, bool) {
	return slices.BinarySearchFunc(c.tables, name, func(e entry[T], name string) int { return strings.Compare(e.name, name) })
}

// Get returns the table called name, or the zero T.
func (c *Catalog[T, N]) Get(name string) T {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if i, ok := c.find(name); ok {
		return c.tables[i].t
	}
	var none T
	return none
}

// Put makes t the table called name, replacing one of that name (a
// table still being deleted: the DB has just accepted t).
func (c *Catalog[T, N]) Put(name string, t T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i, ok := c.find(name); ok {
		c.tables[i].t = t
	} else {
		c.tables = slices.Insert(c.tables, i, entry[T]{name, t})
	}
}

// Remove takes t, called name, out of the catalog if it is still there
// (a concurrent DeleteTable + CreateTable must not remove the new table).
func (c *Catalog[T, N]) Remove(name string, t T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.removeLocked(name, t)
}

// removeLocked is Remove with c.mu held.
func (c *Catalog[T, N]) removeLocked(name string, t T) {
	if i, ok := c.find(name); ok && c.tables[i].t == t {
		c.tables = slices.Delete(c.tables, i, i+1)
	}
}

// Names returns the table names in ascending (UTF-8 byte) order.
func (c *Catalog[T, N]) Names() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	names := make([]string, len(c.tables))
	for i, e := range c.tables {
		names[i] = e.name
	}
	return names
}

// All returns the tables, in name order.
func (c *Catalog[T, N]) All() []T {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]T, len(c.tables))
	for i, e := range c.tables {
		out[i] = e.t
	}
	return out
}

// Find returns the first table, in name order, that is, or the zero T.
func (c *Catalog[T, N]) Find(is func(T) bool) T {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, e := range c.tables {
		if is(e.t) {
			return e.t
		}
	}
	var none T
	return none
}

// Retire takes t, called name, out of the catalog (Remove) and keeps it
// DELETING until goneAt (-delayTransientStatuses); tables whose goneAt
// has passed at now are forgotten. A restart forgets them all: nothing
// of them is recorded.
func (c *Catalog[T, N]) Retire(name string, t T, now, goneAt time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.removeLocked(name, t)
	c.deleting = slices.DeleteFunc(c.deleting, func(d retired[T]) bool { return !now.Before(d.goneAt) })
	c.deleting = append(c.deleting, retired[T]{name: name, t: t, goneAt: goneAt})
}

// Deleting returns the table called name still DELETING at now (the
// latest retired), or the zero T.
func (c *Catalog[T, N]) Deleting(name string, now time.Time) T {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, d := range slices.Backward(c.deleting) {
		if d.name == name && now.Before(d.goneAt) {
			return d.t
		}
	}
	var none T
	return none
}

// Listed are the names ListTables lists at now, in ascending order: the
// tables, and those DELETING now that no live table has taken since.
func (c *Catalog[T, N]) Listed(now time.Time) []string {
	names := c.Names()
	c.mu.RLock()
	defer c.mu.RUnlock()
	n := len(names)
	for _, d := range c.deleting {
		if _, live := c.find(d.name); !live && now.Before(d.goneAt) && !slices.Contains(names[n:], d.name) {
			names = append(names, d.name)
		}
	}
	if len(names) > n {
		slices.Sort(names)
	}
	return names
}
