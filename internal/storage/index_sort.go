package storage

import (
	"math/bits"
	"slices"
	"strings"
)

// Sorting an index's entries for a fill (indexFill.finish).
//
// A comparison sort of the entries (slices.SortFunc with ientryCmp)
// tells most pairs apart by their prefixes (ientry.pre), but not the
// entries of one index partition: their keys share the hash and the
// partition key values, and each comparison of two of them compares the
// strings from their first byte, reading memory far from the entries,
// over and over. So sortIentries is a multikey quicksort (Bentley and
// Sedgewick) on the keys' 8-byte words: it partitions the entries three
// ways by the word at one offset of their keys, the prefix first (read
// from the entry, not the key), then sorts those with an equal word by
// the next one, so a byte the entries of a run share is compared once
// for the run, not once a comparison. Filling the GSI of the Restart
// benchmark's 100k items (cmd/dynamoemu) after kill -9 took a median of
// 113 ms of CPU, not 136 (BenchmarkReplayLog).

// sortIentries sorts ents in ientryCmp order.
func sortIentries(ents []ientry) {
	sortIentriesFrom(ents, 0, sortBudget(len(ents)))
}

// sortBudget is how many partitions at one offset sortIentriesFrom makes
// along one path before it leaves the rest to slices.SortFunc: pivots
// that split badly again and again cost no more than that.
func sortBudget(n int) int { return 2 * bits.Len(uint(n)) }

// sortIentriesSmall is the length under which sortIentriesFrom leaves a
// run to slices.SortFunc (whose insertion sort does better on a few).
const sortIentriesSmall = 16

// sortIentriesFrom sorts a, whose keys have their first off bytes in
// common (off a multiple of 8), in ientryCmp order.
func sortIentriesFrom(a []ientry, off, budget int) {
	for len(a) > 1 {
		if len(a) < sortIentriesSmall || budget == 0 {
			slices.SortFunc(a, ientryCmp)
			return
		}
		budget--
		p := medianWord(a, off)
		// a[:lt] are less than p, a[lt:i] equal to it, a[gt:] greater.
		lt, i, gt := 0, 0, len(a)
		for i < gt {
			switch c := keyWordOf(&a[i], off).cmp(p); {
			case c < 0:
				a[lt], a[i] = a[i], a[lt]
				lt++
				i++
			case c > 0:
				gt--
				a[i], a[gt] = a[gt], a[i]
			default:
				i++
			}
		}
		sortIentriesFrom(a[:lt], off, budget)
		sortIentriesFrom(a[gt:], off, budget)
		a = a[lt:gt]
		if p.left <= 8 {
			// Their keys end in this word: they are equal, and the
			// table keys order the entries.
			slices.SortFunc(a, tableKeyCmp)
			return
		}
		off += 8
		budget = sortBudget(len(a))
	}
}

// keyWord is the word of an index key at an offset: its next 8 bytes,
// big-endian, zero bytes standing in for those past its end, and how
// many bytes are left from the offset on, 9 standing for more than 8.
// Words compare as the keys' rest does: a greater word, or an equal word
// of more bytes left, is a greater rest (the bytes are equal and the
// shorter key is a prefix of the other); an equal word with as many
// bytes left, 8 or fewer, is an equal rest.
type keyWord struct {
	w    uint64
	left int
}

// keyWordOf returns the word of ie's key at off: at 0, from its prefix,
// without reading the key.
func keyWordOf(ie *ientry, off int) keyWord {
	if off == 0 {
		return keyWord{ie.pre, min(len(ie.key), 9)}
	}
	return keyWordAt(ie.key, off)
}

// keyWordAt returns the word of key at off, which is not 0.
func keyWordAt(key string, off int) keyWord {
	n := len(key) - off
	if n <= 0 {
		return keyWord{}
	}
	return keyWord{keyPrefix(key[off:]), min(n, 9)}
}

func (k keyWord) cmp(o keyWord) int {
	switch {
	case k.w < o.w:
		return -1
	case k.w > o.w:
		return 1
	case k.left < o.left:
		return -1
	case k.left > o.left:
		return 1
	}
	return 0
}

// medianWord returns the median of the words at off of a's first,
// middle and last entries.
func medianWord(a []ientry, off int) keyWord {
	x, y, z := keyWordOf(&a[0], off), keyWordOf(&a[len(a)/2], off), keyWordOf(&a[len(a)-1], off)
	if x.cmp(y) > 0 {
		x, y = y, x
	}
	if y.cmp(z) > 0 {
		y = z
		if x.cmp(y) > 0 {
			y = x
		}
	}
	return y
}

// tableKeyCmp orders entries of one index key by their table keys.
func tableKeyCmp(a, b ientry) int {
	if c := strings.Compare(a.e.pk(), b.e.pk()); c != 0 {
		return c
	}
	return strings.Compare(a.e.sortKey(), b.e.sortKey())
}
