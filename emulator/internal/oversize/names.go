package oversize

import (
	"bytes"
	"hash/maphash"
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
// The names are not kept: each is hashed into one word with its index
// (hashIndexBits low bits), the words are sorted, and the earliest
// second of two equal hashes is checked against its first by reading
// both again. A set of the names took 6 times the body (381,295 names
// of a 4 MB GetItem, BenchmarkOversizeMemory/AttributesToGet: 25 MB of
// 42 allocated a request); the words take 2 bytes of 11. Two names
// whose hashes collide first give up the cut: the list is decoded
// whole, which answers the same.
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
	if !ok || bad || n < 2 || n > 1<<hashIndexBits {
		return -1
	}
	if early >= 0 {
		return early
	}
	seed := maphash.MakeSeed()
	words := make([]uint64, 0, n)
	wire.ArrayElements(body, list.Start, func(i int, s wire.Span) bool {
		name, _ := nameAt(body, s, maxLen)
		words = append(words, nameHash(seed, name)&^indexMask|uint64(i))
		return true
	})
	slices.Sort(words)
	// Equal hashes sort together, by index: the second of each run is
	// where a repeat of its first would be, the earliest of them the cut.
	first, second := -1, -1
	for k := 1; k < len(words); k++ {
		if words[k]&^indexMask != words[k-1]&^indexMask {
			continue
		}
		if i := int(words[k] & indexMask); second < 0 || i < second {
			first, second = int(words[k-1]&indexMask), i
		}
		for k+1 < len(words) && words[k+1]&^indexMask == words[k]&^indexMask {
			k++ // the rest of the run: later than its second
		}
	}
	if second < 0 {
		return -1
	}
	var a, b []byte
	cut := -1
	wire.ArrayElements(body, list.Start, func(i int, s wire.Span) bool {
		switch i {
		case first:
			a, _ = nameAt(body, s, maxLen)
		case second:
			b, _ = nameAt(body, s, maxLen)
			cut = s.End
			return false
		}
		return true
	})
	if cut < 0 || !bytes.Equal(a, b) {
		return -1 // two hashes collide: decode the whole list
	}
	return cut
}

// earlyNames is how many of a list's first names are kept in a set (a
// test sets none, to reach the hashes).
var earlyNames = 1024

// hashIndexBits is how many low bits of a name's word hold its index: a
// body of 16 MB holds at most 4 Mi names of 4 bytes ("a",).
const hashIndexBits = 22

const indexMask = 1<<hashIndexBits - 1

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
