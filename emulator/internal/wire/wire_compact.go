package wire

import (
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// An ExpressionAttributeValues map of many entries is kept compact: as its
// JSON text (a view of the request body, which outlives the request's
// compile) and the offsets of its entries in that text, sorted by key,
// 4 bytes an entry instead of a Go map's slot, growth and key string
// (about 75 bytes beside the 32-byte value; a 4 MB Query of 190,646
// values held 7.6 times its body at its peak). A value is decoded again
// when an expression names it (expr.ValueTable), and its strings are then
// its own.
//
// Only a map that cannot all be used takes this form: at least
// compactMinEntries distinct keys, more than the expressions of a request
// or of a transaction's action can name (at most two of them name values,
// of at most 4 KB each: 4,096 placeholders of two bytes). Such a request is
// refused, by the unused values' message if nothing comes before it; the
// values it looks up are those its expressions name. The map must also be
// one whose answer needs nothing else of it: whole JSON, no fault in a
// value, no value nested past OlderFormDepth, within the 2 MB limit, and
// every key a valid placeholder written without escapes (so that its text
// is the key). Any other map is decoded as before.
//
// The compact form travels in the ExpressionValues map as a stand-in:
// oversizeKey with an L value (the over-2 MB stand-in's value is the zero
// Value), so that the request's members, the idempotency fingerprint and
// the checks of which members are given see a map, and SplitValues, which
// costs the one lookup WithoutStandIn did, hands the table to the
// compiler.

// compactMinEntries is the least number of entries of a compact map (a
// variable for the tests, which try small maps).
var compactMinEntries = 16 << 10

// compactMinBytes is the least JSON text of compactMinEntries entries
// (`":a":{"S":""},`): a shorter rest of a request is never tried.
func compactMinBytes() int { return compactMinEntries * 14 }

// CompactValues is an ExpressionAttributeValues map kept compact (see
// above): an expr.ValueTable.
type CompactValues struct {
	text string   // the map's JSON text
	offs []uint32 // of each distinct key's opening quote in text, by key
	size int      // of the entries, by the 2 MB limit's measure
}

var _ expr.ValueTable = (*CompactValues)(nil)

// key is the key whose opening quote is at off.
func (c *CompactValues) key(off uint32) string {
	s := c.text[off+1:]
	return s[:strings.IndexByte(s, '"')]
}

// Len is the number of distinct keys.
func (c *CompactValues) Len() int { return len(c.offs) }

// Size is the entries' size by the 2 MB limit's measure (a key given
// twice counts twice, as in a map).
func (c *CompactValues) Size() int { return c.size }

// Value decodes the value of key again, its strings copies.
func (c *CompactValues) Value(key string) (storage.Value, bool) {
	i, ok := slices.BinarySearchFunc(c.offs, key, func(off uint32, k string) int { return strings.Compare(c.key(off), k) })
	if !ok {
		return storage.Value{}, false
	}
	off := int(c.offs[i])
	d := decoder{data: unsafe.Slice(unsafe.StringData(c.text), len(c.text)), pos: off + len(key) + 2}
	if d.expect(':') != nil {
		return storage.Value{}, false
	}
	v, err := d.attrValue(1)
	if err != nil || d.verr != nil {
		return storage.Value{}, false // not so: the map was checked whole
	}
	return v, true
}

// Key is the i-th key by key order, a view of the request body.
func (c *CompactValues) Key(i int) string { return c.key(c.offs[i]) }

// decodeCompactValues reads the ExpressionAttributeValues object at d.pos
// (its '{') as a compact map, or reports false with d unmoved when it is
// not one (see above).
func decodeCompactValues(d *reqDecoder) (ExpressionValues, bool) {
	start := d.pos
	// The values' strings are views of the body: this pass keeps none.
	probe := decoder{data: d.data, pos: start, text: unsafe.String(&d.data[0], len(d.data))}
	var w Witnesses[storage.Value]
	size, err := probe.values(nil, &w)
	if err != nil || probe.verr != nil || probe.olderForm || size > MaxSubstitutionBytes ||
		w.Seen() < compactMinEntries || w.have[ruleKeyTooLong] || w.have[ruleKeySyntax] {
		return nil, false
	}
	end := probe.pos
	text := unsafe.String(&d.data[start], end-start)
	offs := make([]uint32, 0, w.Seen())
	for i := 1; ; {
		i += spaces(text[i:])
		if text[i] == '}' { // {} has no entries: not here
			break
		}
		// A key: '"', a placeholder's bytes (no escapes, or the
		// witnesses would have seen a key that is none), '"'.
		q := strings.IndexByte(text[i+1:], '"')
		if q < 0 || strings.IndexByte(text[i+1:i+1+q], '\\') >= 0 {
			return nil, false
		}
		offs = append(offs, uint32(i))
		p := decoder{data: d.data[:end], pos: start + i + q + 2}
		if p.expect(':') != nil || p.skipValue(1) != nil {
			return nil, false
		}
		i = p.pos - start
		i += spaces(text[i:])
		if text[i] == '}' {
			break
		}
		i++ // ','
	}
	c := &CompactValues{text: text, size: size}
	slices.SortFunc(offs, func(a, b uint32) int {
		if n := strings.Compare(c.key(a), c.key(b)); n != 0 {
			return n
		}
		return int(a) - int(b)
	})
	// A key given twice: the last one counts, as in a map.
	kept := offs[:0]
	for i, off := range offs {
		if i+1 < len(offs) && c.key(offs[i+1]) == c.key(off) {
			continue
		}
		kept = append(kept, off)
	}
	c.offs = kept
	if len(kept) < compactMinEntries {
		return nil, false
	}
	if len(kept) < len(offs) {
		// The size of the map kept: its entries' once.
		c.size = 0
		for i := range c.offs {
			k := c.Key(i)
			v, _ := c.Value(k)
			c.size += len(k) + storage.ValueSize(v)
		}
	}
	d.pos = end
	return ExpressionValues{oversizeKey: compactStandIn(c)}, true
}

// spaces is the number of JSON spaces s starts with.
func spaces(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return i
		}
	}
	return len(s)
}

// compactStandIn is c as the stand-in's value: an L of its text, its
// offsets (their bytes) and its size.
func compactStandIn(c *CompactValues) storage.Value {
	var offs string
	if len(c.offs) > 0 {
		offs = unsafe.String((*byte)(unsafe.Pointer(&c.offs[0])), 4*len(c.offs))
	}
	return storage.L([]storage.Value{
		storage.BString(c.text), storage.BString(offs), storage.BString(strconv.Itoa(c.size)),
	})
}

// compactOf is the CompactValues of a stand-in's value.
func compactOf(v storage.Value) *CompactValues {
	l := v.List()
	offs := l[1].Str()
	size, _ := strconv.Atoi(l[2].Str())
	c := &CompactValues{text: l[0].Str(), size: size}
	if len(offs) > 0 {
		c.offs = unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.StringData(offs))), len(offs)/4)
	}
	return c
}

// SplitValues is what the compiler reads of a request's values: the map
// without a stand-in's key and whether it stood for a map of more than
// 2 MB (as WithoutStandIn), or, for a compact map, its table (m nil).
func SplitValues(values ExpressionValues) (m map[string]storage.Value, over bool, table *CompactValues) {
	v, ok := values[oversizeKey]
	if !ok {
		return values, false, nil
	}
	if v.Kind() == storage.KindL {
		return nil, false, compactOf(v)
	}
	m, over = WithoutStandIn(map[string]storage.Value(values))
	return m, over, nil
}
