package storage

import (
	"errors"
	"fmt"
	"strings"
)

// Item collections: all items of one partition key value. DynamoDB keeps
// their size for tables with local secondary indexes, reports it
// (ItemCollectionMetrics) and refuses writes that grow a collection past
// 10 GB. A Table keeps the sizes only once TrackCollections has been
// called; it then adds each write's difference to its partition's size
// inside the write, so no write walks a partition.

// ErrCollectionTooLarge is returned by Write (wrapped) when the write would
// grow an item collection past the limit given to TrackCollections. Nothing
// is written.
var ErrCollectionTooLarge = errors.New("storage: item collection size limit exceeded")

// collections is a table's item collection bookkeeping.
type collections struct {
	extra func(Item) int64 // bytes an item adds beyond its ItemSize; may be nil
	limit int64            // largest allowed collection size; <= 0: none
	// sizes maps a partition key (Value.Str()) to its collection's size
	// (absent: 0). Keys are the map's own copies, which assigning through
	// the pointer never replaces (a key given to a map assignment would be,
	// and may share memory with a request buffer).
	sizes map[string]*int64
}

// TrackCollections makes t keep the size of every item collection: the sum
// over the partition's items of ItemSize plus extra(item) (nil: 0), which
// is where a caller counts what an item costs elsewhere, such as its local
// secondary index entries. extra must be a pure function of the item. From
// then on a Write that would make its collection larger than limit bytes
// (and larger than it was) fails with ErrCollectionTooLarge; limit <= 0
// sets no limit. Writes that shrink a collection are always allowed, as in
// DynamoDB. Sizes of the items already stored are computed once here.
// Change.CollectionSize reports the size after each write.
func (t *Table) TrackCollections(extra func(Item) int64, limit int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := &collections{extra: extra, limit: limit, sizes: make(map[string]*int64)}
	t.parts.ascend(0, "", func(p *partition) bool {
		var size int64
		p.walk(bound{}, bound{}, true, func(e entry) bool {
			size += c.weight(t.itemOf(t.keyOf(e), e), int(e.size))
			return true
		})
		c.sizes[strings.Clone(p.pk())] = &size
		return true
	})
	t.coll = c
}

// CollectionSize returns the size of the item collection of partition key
// value pk, as TrackCollections defines it; 0 when collections are not
// tracked or the partition is empty.
func (t *Table) CollectionSize(pk Value) int64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if t.coll == nil {
		return 0
	}
	return t.coll.size(pk.str)
}

// size returns the size of collection pk.
func (c *collections) size(pk string) int64 {
	if p := c.sizes[pk]; p != nil {
		return *p
	}
	return 0
}

// weight is what item, of ItemSize size, adds to its collection; 0 for nil.
func (c *collections) weight(item Item, size int) int64 {
	if item == nil {
		return 0
	}
	w := int64(size)
	if c.extra != nil {
		w += c.extra(item)
	}
	return w
}

// next returns the size collection pk would have after replacing oldItem
// (nil: absent) by newItem (nil: delete), or ErrCollectionTooLarge. It changes nothing.
func (c *collections) next(pk string, oldItem Item, oldSize int, newItem Item, newSize int) (int64, error) {
	cur := c.size(pk)
	after := cur - c.weight(oldItem, oldSize) + c.weight(newItem, newSize)
	if c.limit > 0 && after > c.limit && after > cur {
		return 0, fmt.Errorf("%w: %d bytes, limit %d", ErrCollectionTooLarge, after, c.limit)
	}
	return after, nil
}

// setCollectionLocked records the size of collection pk after a write has
// been applied; an emptied partition drops its entry.
func (t *Table) setCollectionLocked(pk string, size int64) {
	if t.parts.get(pk) == nil {
		delete(t.coll.sizes, pk)
		return
	}
	if p := t.coll.sizes[pk]; p != nil {
		*p = size
		return
	}
	t.coll.sizes[strings.Clone(pk)] = &size
}

// checkCollectionsLocked verifies the kept collection sizes against the
// stored items, for tests.
func (t *Table) checkCollectionsLocked() error {
	if t.coll == nil {
		return nil
	}
	want := make(map[string]int64)
	t.parts.ascend(0, "", func(p *partition) bool {
		p.walk(bound{}, bound{}, true, func(e entry) bool {
			want[p.pk()] += t.coll.weight(t.itemOf(t.keyOf(e), e), int(e.size))
			return true
		})
		return true
	})
	for pk, n := range want {
		if n != 0 && t.coll.size(pk) != n {
			return fmt.Errorf("collection %q: kept size %d, items sum to %d", pk, t.coll.size(pk), n)
		}
	}
	for pk, n := range t.coll.sizes {
		if want[pk] != *n {
			return fmt.Errorf("collection %q: kept size %d, items sum to %d", pk, *n, want[pk])
		}
	}
	return nil
}
