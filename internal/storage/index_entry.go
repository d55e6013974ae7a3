package storage

import (
	"cmp"
)

// Index entries and their order.
//
// An index's B-tree orders its entries by (index key, table partition
// key, table sort key). The index key is a string held outside the tree's
// node, and the table key is read from the item's record in the slab, so
// comparing two entries by those alone reads two places in memory far
// from the node: in a tree of millions of entries each comparison of a
// search is a cache miss and a TLB miss (about 25 of them for
// each write to a GSI of 10M entries).
//
// So an entry also keeps the first 8 bytes of its index key inline (pre),
// big-endian and padded with zero bytes, which a comparison reads first.
// Truncating and zero-padding is monotone in byte order (if a <= b then
// pre(a) <= pre(b)), so different prefixes decide the order alone; equal
// ones fall back to the full comparison. The index key starts with a
// 4-byte hash of the index partition key (tuplekey.go, index.go), so the
// prefix tells apart nearly every two index partitions whatever their
// values have in common ("someone.1@example.com", "someone.2@..."): only
// entries of one index partition, or of two whose hashes collide, need
// the strings. The cost is 8 bytes an entry (48 instead of 40).

// ientry is one index entry: the index key, its first 8 bytes (pre), and
// the table's stored entry, whose record names the table key (partition
// key, then sort key) that ends the order. Build one with newIentry.
type ientry struct {
	key string
	pre uint64 // keyPrefix(key)
	e   entry
}

// newIentry is the entry of index key key for the stored entry e.
func newIentry(key string, e entry) ientry {
	return ientry{key: key, pre: keyPrefix(key), e: e}
}

// keyPrefix is the first 8 bytes of key as a big-endian number, zero
// bytes standing in for those past its end.
func keyPrefix(key string) uint64 {
	if len(key) >= 8 {
		return uint64(key[0])<<56 | uint64(key[1])<<48 | uint64(key[2])<<40 | uint64(key[3])<<32 |
			uint64(key[4])<<24 | uint64(key[5])<<16 | uint64(key[6])<<8 | uint64(key[7])
	}
	var p uint64
	for i := 0; i < 8; i++ {
		p <<= 8
		if i < len(key) {
			p |= uint64(key[i])
		}
	}
	return p
}

// leastOfPrefix reports whether ie is a search key before every entry of
// its prefix: an empty key with a prefix that is not an empty key's (0).
// index.walk seeks with one to start at a prefix, and itree's search
// then orders it against the entries of that prefix without reading
// them: each has a key, longer than ie's.
func (ie *ientry) leastOfPrefix() bool { return len(ie.key) == 0 && ie.pre != 0 }

// ientryCmp is ientryLess as a three-way comparison.
func ientryCmp(a, b ientry) int {
	if a.pre != b.pre {
		return cmp.Compare(a.pre, b.pre)
	}
	if c := ikeyCmp(a.key, b.key); c != 0 {
		return c
	}
	return tkeyCmp(a.e, b.e)
}

// ikeyCmp compares index keys of one prefix: keys of at most 8 bytes by
// their lengths (ientryLess), others as strings.
func ikeyCmp(a, b string) int {
	if la, lb := len(a), len(b); la <= 8 && lb <= 8 {
		return cmp.Compare(la, lb)
	}
	return cmp.Compare(a, b) // not strings.Compare: its arguments escape (itree.Put)
}

// tkeyCmp compares the table keys of two entries.
func tkeyCmp(a, b entry) int {
	if c := cmp.Compare(a.pk(), b.pk()); c != 0 {
		return c
	}
	return cmp.Compare(a.sortKey(), b.sortKey())
}

// ientryLess orders index entries by index key, then table partition key,
// then table sort key. Equal prefixes of keys of at most 8 bytes mean one
// key is the other plus zero bytes, so their lengths order them without
// reading either.
func ientryLess(a, b ientry) bool {
	if a.pre != b.pre {
		return a.pre < b.pre
	}
	if la, lb := len(a.key), len(b.key); la <= 8 && lb <= 8 {
		if la != lb {
			return la < lb
		}
	} else if a.key != b.key {
		return a.key < b.key
	}
	if pa, pb := a.e.pk(), b.e.pk(); pa != pb {
		return pa < pb
	}
	return a.e.sortKey() < b.e.sortKey()
}
