package oversize

import (
	"bytes"
	"hash/maphash"
	"math/bits"
	"slices"
	"unicode/utf8"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// minNamesBody: a body smaller than this is decoded as it is, whatever
// its lists of names repeat (decoding it costs a small multiple of a
// small body).
const minNamesBody = 64 << 10

// RepeatedNames cuts the list of names that is the body's member member
// (a GetItem's, Query's or Scan's AttributesToGet) after its first name
// that an earlier one repeats: the answer, AWS's refusal of the
// repeated name, is the same, and decoding a list of hundreds of
// thousands of names, and sorting them, cost 18 times the body. A list
// with an element that is not a name (not a string, empty, over maxLen
// bytes: answered before the repeat) is decoded whole. It returns the
// body to decode instead (nil: the body as it is).
//
// The names are not kept: each is hashed into a bit of a table, and
// the names whose bit another had set are checked again (hashedCut). A
// set of the names took 6 times the body (381,295 names of a 4 MB
// GetItem, BenchmarkOversizeMemory/AttributesToGet: 25 MB of 42
// allocated a request), a word of hash and index a name 0.7 times; the
// table takes about 1.5 bytes a name. Two names whose hashes collide
// first give up the cut: the list is decoded whole, which answers the
// same.
func RepeatedNames(body []byte, member string, maxLen int) []byte {
	if len(body) < minNamesBody && !Every.Load() {
		return nil
	}
	list, ok := topMember(body, member)
	if !ok {
		return nil
	}
	return cutLists(body, []wire.Span{list}, maxLen)
}

// BatchGetRepeatedNames is RepeatedNames for each table's
// AttributesToGet in a BatchGetItem's RequestItems: each list is cut
// after its own first repeat (a table whose list has none, or a fault,
// keeps it whole). A map with a key that named rejects (no table name:
// the answer is that violation, whose echo of the map shows each list
// whole) is not cut.
func BatchGetRepeatedNames(body []byte, maxLen int, named func(table string) bool) []byte {
	if len(body) < minNamesBody && !Every.Load() {
		return nil
	}
	items, ok := topMember(body, "RequestItems")
	if !ok {
		return nil
	}
	tables, _, ok := wire.ObjectMembers(body, items.Start)
	if !ok {
		return nil
	}
	var lists []wire.Span
	for _, tb := range tables {
		if !named(tb.Name) {
			return nil
		}
		members, _, ok := wire.ObjectMembers(body, tb.Value.Start)
		if !ok {
			return nil
		}
		if list, ok := onlyMember(members, "AttributesToGet"); ok {
			lists = append(lists, list)
		}
	}
	return cutLists(body, lists, maxLen)
}

// cutLists returns body with each of lists (in the body's order) cut
// after its first repeated name, or nil when none is.
func cutLists(body []byte, lists []wire.Span, maxLen int) []byte {
	var out []byte
	from := 0 // of body, what is not yet in out
	for _, list := range lists {
		cut := repeatCut(body, list, maxLen)
		if cut < 0 {
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(body))
		}
		out = append(out, body[from:cut]...)
		out = append(out, ']')
		from = list.End
	}
	if out == nil {
		return nil
	}
	return append(out, body[from:]...)
}

// repeatCut returns where the list of names at list ends its first
// element that an earlier one repeats, or -1: no repeat, too many
// elements, or an element that is not a name.
func repeatCut(body []byte, list wire.Span, maxLen int) int {
	// The first names are kept in a set while it is small: a repeat
	// among them is the cut without hashing the list (a list that
	// repeats one name costs no more than its walk).
	n, bad, early := 0, false, -1
	seen := map[string]struct{}{}
	ok := wire.ArrayElements(body, list.Start, func(_ int, s wire.Span) bool {
		name, isName := nameAt(body, s, maxLen)
		if !isName {
			bad = true
			return false
		}
		n++
		if early < 0 && seen != nil {
			if _, again := seen[string(name)]; again {
				early = s.End
			} else if len(seen) < earlyNames {
				seen[string(name)] = struct{}{}
			} else {
				seen = nil
			}
		}
		return true
	})
	if !ok || bad || n < 2 {
		return -1
	}
	if early >= 0 {
		return early
	}
	return hashedCut(body, list, n, maxLen)
}

// hashedCut is repeatCut's search of the whole list of n names, in two
// walks. The first sets a bit a name (its hash modulo a table of about
// 8 bits a name) and keeps the hashes whose bit was set already: every
// repeat's, and one name's in twenty or so by chance. The second walks
// the names whose hash is one of those and cuts at the first whose hash
// an earlier one had, if they are the same name. The table and the
// hashes kept are about 1.5 bytes a name where a word of hash and index
// a name was 8 (0.7 times a 4 MB GetItem's body:
// TestOversizedMembers/AttributesToGet in cmd/dynamoemu).
func hashedCut(body []byte, list wire.Span, n, maxLen int) int {
	seed := maphash.MakeSeed()
	size := uint64(1) << max(6, bitsFor(uint64(n)*8))
	seen := make([]uint64, size/64)
	again := make([]uint64, 0, n/16) // hashes a name had before
	wire.ArrayElements(body, list.Start, func(_ int, s wire.Span) bool {
		name, _ := nameAt(body, s, maxLen)
		h := nameHash(seed, name)
		b := h & (size - 1)
		if seen[b/64]&(1<<(b%64)) != 0 {
			again = append(again, h)
		} else {
			seen[b/64] |= 1 << (b % 64)
		}
		return true
	})
	seen = nil
	slices.Sort(again)
	again = slices.Compact(again)
	// first[k] is where the first name of hash again[k] is (end 0: none
	// yet); a body is far under 2 GB.
	type span32 struct{ start, end int32 }
	first := make([]span32, len(again))
	cut := -1
	wire.ArrayElements(body, list.Start, func(_ int, s wire.Span) bool {
		name, _ := nameAt(body, s, maxLen)
		k, found := slices.BinarySearch(again, nameHash(seed, name))
		switch {
		case !found:
			return true
		case first[k].end == 0:
			first[k] = span32{int32(s.Start), int32(s.End)}
			return true
		}
		f := wire.Span{Start: int(first[k].start), End: int(first[k].end)}
		if earlier, _ := nameAt(body, f, maxLen); bytes.Equal(earlier, name) {
			cut = s.End
		}
		return false // the cut, or two hashes collide: decode the whole list
	})
	return cut
}

// bitsFor is the bits of the least power of two at least n.
func bitsFor(n uint64) int { return bits.Len64(n - 1) }

// earlyNames is how many of a list's first names are kept in a set (a
// test sets none, to reach the hashes).
var earlyNames = 1024

// nameHash hashes a name; a test makes it collide.
var nameHash = maphash.Bytes

// nameAt returns the name at s: its bytes in the body when they need
// no decoding (no copy), else decoded; ok is false when s holds no
// string, or an empty one or one over maxLen bytes.
func nameAt(body []byte, s wire.Span, maxLen int) (name []byte, ok bool) {
	if s.End-s.Start >= 2 && body[s.Start] == '"' && body[s.End-1] == '"' {
		raw := body[s.Start+1 : s.End-1]
		plain := true
		for _, c := range raw {
			if c < 0x20 || c == '\\' || c == '"' || c >= utf8.RuneSelf {
				plain = false
				break
			}
		}
		if plain {
			return raw, len(raw) > 0 && len(raw) <= maxLen
		}
	}
	v, isString := wire.StringAt(body, s)
	return []byte(v), isString && v != "" && len(v) <= maxLen
}
