package oversize

import (
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
// thousands of names, and sorting them, cost 18 times the body. The
// list is read without keeping its names past the first repeat, nor
// copying those that need no decoding. A list with an element that is
// not a name (not a string, empty, over maxLen bytes: answered before
// the repeat) is decoded whole. It returns the body
// to decode instead (nil: the body as it is).
func RepeatedNames(body []byte, member string, maxLen int) []byte {
	if len(body) < minNamesBody && !Every.Load() {
		return nil
	}
	list, ok := topMember(body, member)
	if !ok {
		return nil
	}
	seen := map[string]struct{}{}
	cut, bad := -1, false // cut: where the first repeat ends
	ok = wire.ArrayElements(body, list.Start, func(_ int, s wire.Span) bool {
		name, isName := nameAt(body, s, maxLen)
		if !isName {
			bad = true
			return false
		}
		if cut < 0 {
			if _, again := seen[string(name)]; again {
				cut, seen = s.End, nil
			} else {
				seen[string(name)] = struct{}{}
			}
		}
		return true
	})
	if !ok || bad || cut < 0 {
		return nil
	}
	out := make([]byte, 0, cut+1+len(body)-list.End)
	out = append(out, body[:cut]...)
	out = append(out, ']')
	return append(out, body[list.End:]...)
}

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
