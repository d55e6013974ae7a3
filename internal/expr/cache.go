package expr

import (
	"hash/maphash"
	"sync"
	"sync/atomic"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Cache keeps compiled expressions for reuse across requests: conditions
// and filters, key conditions, projections and updates, by their kind and
// text and the attribute names their #name placeholders stood for. Values
// are not part of the key: a compiled expression holds slots, which each
// request binds to its own ExpressionAttributeValues.
//
// A Compiler made by NewCachedCompiler looks an expression up before it
// compiles it. On a hit it binds the request's values, marks the
// placeholders used, and runs again the checks that look at values
// (operand types, BETWEEN bounds, attribute_type names, ADD and DELETE
// operands); when a value is missing or a check fails it compiles the
// expression afresh, which reports the error exactly as it would have
// without the cache. So a Cache changes what a request costs, never what
// it answers. Only expressions that compile are kept.
//
// A Cache is bounded by entries and by bytes (an estimate of what an
// entry holds: its text and its tree) and evicts by CLOCK, a hit setting
// a bit that eviction clears. It is safe for concurrent use; a hit takes
// a shared lock on one of 16 shards and allocates nothing. What it keeps
// is immutable (compiled trees are never changed after compilation, and
// evaluation only reads them), so a hit's result is shared by every
// request that gets it.
type Cache struct {
	seed   maphash.Seed
	shards [cacheShards]cacheShard
}

const cacheShards = 16

// Default bounds of NewCache when given zero.
const (
	DefaultCacheEntries = 4096
	DefaultCacheBytes   = 16 << 20
)

// NewCache returns a Cache of at most maxEntries expressions and about
// maxBytes bytes (zero: the defaults; a negative bound disables the cache:
// every lookup misses and nothing is kept).
func NewCache(maxEntries int, maxBytes int64) *Cache {
	if maxEntries == 0 {
		maxEntries = DefaultCacheEntries
	}
	if maxBytes == 0 {
		maxBytes = DefaultCacheBytes
	}
	c := &Cache{seed: maphash.MakeSeed()}
	for i := range c.shards {
		s := &c.shards[i]
		// The bounds split among the shards, so their sums are the
		// Cache's bounds (a shard may get none).
		if maxEntries > 0 && maxBytes > 0 {
			s.maxEntries = maxEntries / cacheShards
			if i < maxEntries%cacheShards {
				s.maxEntries++
			}
			s.maxBytes = maxBytes / cacheShards
			if int64(i) < maxBytes%cacheShards {
				s.maxBytes++
			}
		}
		s.entries = make(map[cacheKey][]*cacheEntry)
	}
	return c
}

// CacheStats are a Cache's counters.
type CacheStats struct {
	Hits, Misses, Evictions uint64
	Entries                 int
	Bytes                   int64
}

// Stats returns the cache's counters.
func (c *Cache) Stats() CacheStats {
	var st CacheStats
	for i := range c.shards {
		s := &c.shards[i]
		st.Hits += s.hits.Load()
		st.Misses += s.misses.Load()
		s.mu.RLock()
		st.Evictions += s.evictions
		st.Entries += len(s.ring)
		st.Bytes += s.bytes
		s.mu.RUnlock()
	}
	return st
}

// cacheKind says which compile method an entry is for.
type cacheKind uint8

const (
	kindCondition cacheKind = iota + 1
	kindKeyCondition
	kindProjection
	kindUpdate
)

// cacheKey identifies the entries of one text.
type cacheKey struct {
	kind cacheKind
	text string
}

// cacheEntry is one compiled expression: the program (a *condProgram,
// *keyProgram, *Projection or *updateProgram) and what the #names it
// used stood for when it was compiled, which a request must match.
type cacheEntry struct {
	key      cacheKey
	prog     any
	nameKeys []string // the #name placeholders the expression used
	resolved []string // what each stood for
	slots    []string // the :value placeholder of each slot
	bytes    int64
	ref      atomic.Bool // CLOCK's bit: used since the hand last passed
}

// cacheShard is one sixteenth of a Cache.
type cacheShard struct {
	// mu guards entries, ring, hand, bytes and evictions; a lookup holds
	// it shared, a store exclusively.
	mu         sync.RWMutex
	entries    map[cacheKey][]*cacheEntry // several when a text was compiled with different #names
	ring       []*cacheEntry              // every entry, in CLOCK order
	hand       int
	bytes      int64
	evictions  uint64
	maxEntries int
	maxBytes   int64

	hits, misses atomic.Uint64
}

func (c *Cache) shard(text string) *cacheShard {
	return &c.shards[maphash.String(c.seed, text)%cacheShards]
}

// lookup returns the entry for key whose #names stand for what they stand
// for in names, or nil.
func (c *Cache) lookup(key cacheKey, names map[string]string) *cacheEntry {
	s := c.shard(key.text)
	s.mu.RLock()
	var hit *cacheEntry
	for _, e := range s.entries[key] {
		if e.matches(names) {
			hit = e
			break
		}
	}
	s.mu.RUnlock()
	if hit == nil {
		s.misses.Add(1)
		return nil
	}
	if !hit.ref.Load() {
		hit.ref.Store(true)
	}
	s.hits.Add(1)
	return hit
}

// matches reports whether every #name of e stands for the same attribute
// name in names.
func (e *cacheEntry) matches(names map[string]string) bool {
	for i, k := range e.nameKeys {
		if v, ok := names[k]; !ok || v != e.resolved[i] {
			return false
		}
	}
	return true
}

// maxVariants bounds the entries of one text (compiled with different
// #names); the oldest goes first.
const maxVariants = 4

// store adds e, evicting as the bounds require.
func (c *Cache) store(e *cacheEntry) {
	s := c.shard(e.key.text)
	s.mu.Lock()
	defer s.mu.Unlock()
	if e.bytes > s.maxBytes || s.maxEntries == 0 {
		return
	}
	list := s.entries[e.key]
	for _, old := range list {
		if sameStrings(old.resolved, e.resolved) && sameStrings(old.nameKeys, e.nameKeys) {
			return // another request compiled it meanwhile
		}
	}
	if len(list) >= maxVariants {
		s.removeLocked(list[0])
	}
	for len(s.ring) > 0 && (len(s.ring) >= s.maxEntries || s.bytes+e.bytes > s.maxBytes) {
		s.evictLocked()
	}
	// Copy on write: lookups read the old slice under the shared lock.
	s.entries[e.key] = append(append(make([]*cacheEntry, 0, len(list)+1), s.entries[e.key]...), e)
	s.ring = append(s.ring, e)
	s.bytes += e.bytes
}

// evictLocked removes the first entry at or after the hand whose bit is
// clear, clearing the bits it passes.
func (s *cacheShard) evictLocked() {
	for {
		if s.hand >= len(s.ring) {
			s.hand = 0
		}
		e := s.ring[s.hand]
		if e.ref.Load() {
			e.ref.Store(false)
			s.hand++
			continue
		}
		s.removeLocked(e)
		s.evictions++
		return
	}
}

// removeLocked takes e out of the shard.
func (s *cacheShard) removeLocked(e *cacheEntry) {
	list := s.entries[e.key]
	out := make([]*cacheEntry, 0, len(list))
	for _, x := range list {
		if x != e {
			out = append(out, x)
		}
	}
	if len(out) == 0 {
		delete(s.entries, e.key)
	} else {
		s.entries[e.key] = out
	}
	for i, x := range s.ring {
		if x == e {
			last := len(s.ring) - 1
			s.ring[i] = s.ring[last]
			s.ring[last] = nil
			s.ring = s.ring[:last]
			break
		}
	}
	s.bytes -= e.bytes
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// lookup is the Compiler's side of Cache.lookup: nil without a cache.
func (c *Compiler) lookup(key cacheKey) *cacheEntry {
	if c.cache == nil {
		return nil
	}
	return c.cache.lookup(key, c.names)
}

// store keeps a program the Compiler has just compiled, with the #names
// and slots it used.
func (c *Compiler) store(key cacheKey, prog any, nameKeys, slots []string, bytes int64) {
	if c.cache == nil {
		return
	}
	e := &cacheEntry{key: key, prog: prog, nameKeys: nameKeys, slots: slots, bytes: bytes}
	e.resolved = make([]string, len(nameKeys))
	for i, k := range nameKeys {
		e.resolved[i] = c.names[k]
	}
	c.cache.store(e)
}

// rebind binds cached entry e to this request: it appends the value of
// each slot to vals and runs with them the checks that look at values
// (pass B in recheck mode) over the cached tree root (a condition's) or
// update upd. ok is false when a value is missing or a check fails: the
// caller then compiles afresh, for the exact error. On success the
// entry's placeholders are marked used.
func (c *Compiler) rebind(e *cacheEntry, vals []storage.Value, param string, root Expr, upd *UpdateExpr) ([]storage.Value, bool) {
	for _, name := range e.slots {
		v, ok := c.value(name)
		if !ok {
			return nil, false
		}
		vals = append(vals, v)
	}
	k := checker{c: c, param: param, rvals: vals, recheck: true}
	switch {
	case root != nil:
		if k.passB(root) != nil {
			return nil, false
		}
	case upd != nil:
		k.ctx = ctxUpdate
		if k.recheckUpdate(upd) != nil {
			return nil, false
		}
	}
	for _, name := range e.nameKeys {
		c.used.add(name)
	}
	for _, name := range e.slots {
		c.used.add(name)
	}
	return vals, true
}

// programBytes estimates what a compiled expression holds: its text, its
// tree's nodes and their strings.
func programBytes(text string, roots ...Expr) int64 {
	n := int64(256 + 2*len(text))
	for _, r := range roots {
		walk(r, func(x Expr) bool {
			n += 96
			if p, ok := x.(*PathExpr); ok {
				n += int64(len(p.Elems)) * 96
			}
			return true
		})
	}
	return n
}
