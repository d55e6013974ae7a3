package storage

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"unsafe"
)

// Records in slabs. A record allocated on its own costs its size rounded
// up to the allocator's size class (a 273-byte record takes 288), and,
// allocated among the garbage of requests, leaves the heap's spans
// partly empty once that garbage is collected, which the process keeps
// resident. A table's slab packs its records back to back into chunks
// of its own instead: a record costs its bytes and a length prefix.
//
// Chunk memory is never written twice: a stored record is an immutable
// string viewing its chunk, which stays valid for good (readers,
// observers, the hook and undo entries may keep it), and the garbage
// collector frees a chunk once no record of it is referenced. A record
// replaced or deleted is dead weight in its chunk, counted.
//
// Compaction copies a chunk's live records (found again by the key each
// record names, and checked to be the stored one) into the chunk being
// filled, points the table and its indexes at the copies and leaves the
// old chunk to the collector. It runs by the table's dead bytes, not by
// one chunk's: once the dead records of the chunks no longer being filled
// (sealed) pass half the live bytes, the table compacts its sealed chunks
// emptiest first, one with live records a write (and any number with
// none), until the dead bytes are down to a quarter of the live ones.
// So a table's records take at most about one and a half times their
// bytes, plus the chunk being filled; a chunk whose records all die
// (overwritten or deleted items, the usual case of a churning table)
// goes without a record looked up; and a chunk is not compacted while
// its records are still dying, which would copy records that are about
// to be replaced (each such copy is a lookup of the partition and an
// index search, costly in a table far larger than the caches:
// BenchmarkScaleHandler's PutItemChanged). A table that is dropped
// leaves its chunks to the collector at once.
//
// Chunks grow from slabFirstChunk to slabMaxChunk bytes, doubling, so a
// small table takes little. Records larger than slabMaxRecord are
// allocated on their own.
//
// Against records allocated on their own (storeLocked a plain copy,
// releaseLocked nothing), a table of 1M 240-byte items filled through
// Put took 360.5 resident bytes an item against 341.2 (-5.4%), 339.0
// bytes of heap against 327.8 (-3.3%), and left 15.4 resident bytes an
// item behind after its drop against 9.4 (2 interleaved runs, the same
// to 0.5%: DYNAMOEMU_SCALE_SIZES=1000000 go test -run '^$' -bench
// 'BenchmarkScaleMemory/hash-only/1000000$' -benchtime 1x
// ./internal/storage). A fill has no request garbage between its
// records, the case the slab is for, so this is its least win.

const (
	slabFirstChunk = 1 << 10
	slabMaxChunk   = 256 << 10
	slabMaxRecord  = 16 << 10
)

// slab is a table's record memory, guarded by the table's mu.
type slab struct {
	chunks []*chunk // every chunk records are counted in, by address, ascending
	active *chunk   // the chunk being filled; nil before the first record
	next   int      // the size of the next chunk
	live   int      // bytes (prefixes included) of stored records in counted chunks
	dead   int      // bytes of dead records in counted chunks other than active (sealed)
	// queue holds the chunks to compact next, emptiest first, while a
	// compaction spread over writes is under way (until dead is down to
	// a quarter of live): taken when it began, or ran out.
	queue       []*chunk
	compactions int // chunks compacted, for tests
}

// chunk is one block of records, each prefixed by its length (a uvarint).
type chunk struct {
	buf     []byte  // the records written so far; cap is the chunk's size
	addr    uintptr // where buf's memory starts
	live    int     // bytes (prefixes included) of records still stored
	dropped bool    // no longer counted (compacted)
}

// store copies rec into the slab and returns the stored record.
func (s *slab) store(rec []byte) string {
	if len(rec) > slabMaxRecord {
		return string(rec)
	}
	need := uvarintLen(len(rec)) + len(rec)
	if s.active == nil || cap(s.active.buf)-len(s.active.buf) < need {
		s.grow(need)
	}
	c := s.active
	c.buf = binary.AppendUvarint(c.buf, uint64(len(rec)))
	start := len(c.buf)
	c.buf = append(c.buf, rec...) // within cap: never moves
	c.live += need
	s.live += need
	return unsafe.String(&c.buf[start], len(rec))
}

// grow starts a new chunk of at least need bytes (a record larger than
// the next chunk size gets a chunk of its size: appended to a smaller
// one it would move out of the chunk, uncounted and never released).
// The chunk filled so far is sealed: its dead records (replaced while it
// was being filled) count toward compaction from now on.
func (s *slab) grow(need int) {
	if c := s.active; c != nil {
		s.dead += len(c.buf) - c.live
	}
	size := max(s.next, slabFirstChunk, need)
	s.next = min(2*size, slabMaxChunk)
	buf := make([]byte, 0, size)
	populateSlice(buf) // slab_populate_linux.go
	c := &chunk{buf: buf, addr: uintptr(unsafe.Pointer(unsafe.SliceData(buf)))}
	i, _ := slices.BinarySearchFunc(s.chunks, c.addr, func(x *chunk, a uintptr) int { return cmpAddr(x.addr, a) })
	s.chunks = slices.Insert(s.chunks, i, c)
	s.active = c
}

func cmpAddr(a, b uintptr) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// chunkOf returns the counted chunk rec lies in, or nil.
func (s *slab) chunkOf(rec string) *chunk {
	if len(rec) == 0 || len(rec) > slabMaxRecord {
		return nil
	}
	a := uintptr(unsafe.Pointer(unsafe.StringData(rec)))
	i, found := slices.BinarySearchFunc(s.chunks, a, func(x *chunk, a uintptr) int { return cmpAddr(x.addr, a) })
	if !found {
		i--
	}
	if i < 0 {
		return nil
	}
	if c := s.chunks[i]; a < c.addr+uintptr(cap(c.buf)) {
		return c
	}
	return nil
}

// release counts rec, which the table no longer stores, as dead, and
// queues its chunk for compaction when that is due.
func (s *slab) release(rec string) {
	c := s.chunkOf(rec)
	if c == nil {
		return
	}
	n := uvarintLen(len(rec)) + len(rec)
	c.live -= n
	s.live -= n
	if c != s.active {
		s.dead += n
	}
}

// due reports whether the write should end by compacting
// (settleLocked): a compaction is under way (chunks are queued), or the
// sealed chunks' dead records have passed half the live bytes.
func (s *slab) due() bool { return len(s.queue) > 0 || 2*s.dead > s.live }

// drop stops counting chunk c, which is sealed (being compacted, then
// left to the collector).
func (s *slab) drop(c *chunk) {
	i, found := slices.BinarySearchFunc(s.chunks, c.addr, func(x *chunk, a uintptr) int { return cmpAddr(x.addr, a) })
	if !found || s.chunks[i] != c {
		return
	}
	s.chunks = slices.Delete(s.chunks, i, i+1)
	s.dead -= len(c.buf) - c.live
	s.live -= c.live
	c.dropped = true
}

// candidates returns the sealed chunks holding dead records, emptiest
// (least live in proportion) first.
func (s *slab) candidates() []*chunk {
	q := s.queue[:0]
	for _, c := range s.chunks {
		if c != s.active && c.live < len(c.buf) {
			q = append(q, c)
		}
	}
	slices.SortFunc(q, func(a, b *chunk) int {
		// a.live/len(a) against b.live/len(b), without division.
		return cmp.Compare(a.live*len(b.buf), b.live*len(a.buf))
	})
	return q
}

// records calls fn with every record written to chunk c, dead or live.
func (c *chunk) records(fn func(rec string)) {
	for off := 0; off < len(c.buf); {
		n, w := binary.Uvarint(c.buf[off:])
		off += w
		fn(unsafe.String(&c.buf[off], int(n)))
		off += int(n)
	}
}

func uvarintLen(n int) int {
	w := 1
	for n >= 0x80 {
		n >>= 7
		w++
	}
	return w
}

// sameString reports whether a and b are the same bytes in memory.
func sameString(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// storeLocked stores a record built in scratch memory.
func (t *Table) storeLocked(rec []byte) string { return t.scratchLocked().slab.store(rec) }

// releaseLocked counts rec, a record the table has stopped storing, as
// dead.
func (t *Table) releaseLocked(rec string) { t.scratchLocked().slab.release(rec) }

// settleLocked compacts sealed chunks, emptiest first, when the slab is
// due: every chunk without a live record in the queue's order and at most
// one with live records a write, until the dead bytes are down to a
// quarter of the live ones. It runs at the end of a write, once the
// partition and the indexes are updated, so that every record it finds
// stored is one to keep.
func (t *Table) settleLocked() {
	s := &t.scratchLocked().slab
	compacted := false
	for 4*s.dead > s.live {
		if len(s.queue) == 0 {
			if s.queue = s.candidates(); len(s.queue) == 0 {
				break
			}
		}
		c := s.queue[0]
		if !c.dropped && c != s.active && c.live < len(c.buf) {
			if c.live > 0 {
				if compacted {
					return // the next write goes on (c stays queued)
				}
				compacted = true
			}
			t.compactLocked(c)
		}
		s.queue[0], s.queue = nil, s.queue[1:] // a compacted chunk is not kept alive
	}
	clear(s.queue)
	s.queue = s.queue[:0]
}

// compactLocked moves the live records of chunk c into the chunk being
// filled and stops counting c.
func (t *Table) compactLocked(c *chunk) {
	t.scr.slab.compactions++
	t.scr.slab.drop(c)
	if c.live == 0 {
		return // every record is dead: none to look up
	}
	c.records(func(rec string) {
		if len(rec) > 0 {
			t.relocateLocked(rec)
		}
	})
}

// relocateLocked copies rec, when it is the record the table stores for
// its key, into the slab and points the table's partition and indexes at
// the copy. It writes them as any write does (cow.go): a partition shared
// with a snapshot is copied first, the index B-trees copy their path; the
// snapshot keeps pointing at rec, in the old chunk, which the collector
// keeps while it is referenced.
func (t *Table) relocateLocked(rec string) {
	e := parseEntry(rec, 0)
	pk, sk := e.pk(), e.sortKey()
	cur, ok := t.parts.getEntry(pk, sk)
	if !ok || !sameString(cur.rec, rec) {
		return // dead
	}
	moved := parseEntry(t.scr.slab.store(unsafe.Slice(unsafe.StringData(rec), len(rec))), cur.size)
	t.ownPartLocked(pk, true).set(moved) // same sort key: replaces cur, in place
	if t.indexedLocked() {               // deferred entries are rebuilt whole (DB.FillIndexes)
		attrs := t.indexAttrsLocked(0, t.encodedOf(t.keyOf(cur), cur))
		for _, x := range t.indexes {
			key, in := x.indexKey(nil, attrs)
			if !in {
				continue
			}
			ie, found := x.tree.Get(newIentry(string(key), cur))
			if x.lag != nil && (!found || !sameString(ie.e.rec, rec)) {
				// A lagged index holds an older entry, or none yet; its
				// queued changes keep rec alive (index_lag.go).
				continue
			}
			if !found {
				panic("storage: an item's index entry is missing")
			}
			ie.e = moved
			x.tree.Put(ie.key, ie.e)
		}
		clear(attrs) // its values view rec, in the chunk being left
	}
	for _, s := range t.vindexes {
		if s.x != nil {
			s.x.Moved(ItemRef{pk: moved.pk(), e: moved})
		}
	}
}

// checkSlabLocked verifies that every chunk's live count is the bytes of
// the records the table stores in it, for tests.
func (t *Table) checkSlabLocked() error {
	s := new(slab) // a table not written yet has an empty one
	if t.scr != nil {
		s = &t.scr.slab
	}
	live := make(map[*chunk]int)
	var err error
	t.parts.ascend(0, "", func(p *partition) bool {
		p.walk(bound{}, bound{}, true, func(e entry) bool {
			if c := s.chunkOf(e.rec); c != nil {
				live[c] += uvarintLen(len(e.rec)) + len(e.rec)
			} else if len(e.rec) <= slabMaxRecord && !t.foreign {
				err = fmt.Errorf("record of %q outside the slab", e.pk())
			}
			return err == nil
		})
		return err == nil
	})
	if err != nil {
		return err
	}
	total, dead := 0, 0
	for _, c := range s.chunks {
		if live[c] != c.live {
			return fmt.Errorf("chunk at %#x: counts %d live bytes, holds %d", c.addr, c.live, live[c])
		}
		total += c.live
		if c != s.active {
			dead += len(c.buf) - c.live
		}
	}
	if total != s.live || dead != s.dead {
		return fmt.Errorf("slab counts %d live and %d dead bytes, chunks hold %d and %d", s.live, s.dead, total, dead)
	}
	return nil
}
