package wire

import (
	"encoding/binary"
	"sort"
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
	text string // the map's JSON text
	data []byte // text's bytes, for the decoder
	offs string // 4 bytes (little-endian) an entry: its key's opening quote in text, by key
	size int    // of the entries, by the 2 MB limit's measure
}

var _ expr.ValueTable = (*CompactValues)(nil)

// at is the offset of the i-th entry by key.
func (c *CompactValues) at(i int) int {
	s := c.offs[4*i : 4*i+4]
	return int(s[0]) | int(s[1])<<8 | int(s[2])<<16 | int(s[3])<<24
}

// key is the key whose opening quote is at off.
func (c *CompactValues) key(off int) string {
	s := c.text[off+1:]
	return s[:strings.IndexByte(s, '"')]
}

// Len is the number of distinct keys.
func (c *CompactValues) Len() int { return len(c.offs) / 4 }

// Size is the entries' size by the 2 MB limit's measure, as the map's.
func (c *CompactValues) Size() int { return c.size }

// Key is the i-th key by key order, a view of the request body.
func (c *CompactValues) Key(i int) string { return c.key(c.at(i)) }

// Value decodes the value of key again, its strings copies.
func (c *CompactValues) Value(key string) (storage.Value, bool) {
	i := sort.Search(c.Len(), func(i int) bool { return c.Key(i) >= key })
	if i == c.Len() || c.Key(i) != key {
		return storage.Value{}, false
	}
	d := decoder{data: c.data, pos: c.at(i) + len(key) + 2}
	if d.expect(':') != nil {
		return storage.Value{}, false
	}
	v, err := d.attrValue(1)
	if err != nil || d.verr != nil {
		return storage.Value{}, false // not so: the map was checked whole
	}
	return v, true
}

// offsets sorts 4-byte offsets (b) by their keys, then by themselves.
type offsets struct {
	b []byte
	c *CompactValues // its text
}

func (o offsets) Len() int { return len(o.b) / 4 }

func (o offsets) off(i int) int {
	return int(binary.LittleEndian.Uint32(o.b[4*i:]))
}

func (o offsets) Less(i, j int) bool {
	a, b := o.off(i), o.off(j)
	if ka, kb := o.c.key(a), o.c.key(b); ka != kb {
		return ka < kb
	}
	return a < b
}

func (o offsets) Swap(i, j int) {
	x, y := o.b[4*i:4*i+4], o.b[4*j:4*j+4]
	var t [4]byte
	copy(t[:], x)
	copy(x, y)
	copy(y, t[:])
}

// decodeCompactValues reads the ExpressionAttributeValues object at d.pos
// (its '{') as a compact map, or reports false with d unmoved when it is
// not one (see above).
func decodeCompactValues(d *reqDecoder) (ExpressionValues, bool) {
	start := d.pos
	// The values' strings are views of the body: this pass keeps none.
	body := d.bodyText()
	probe := decoder{data: d.data, pos: start, text: body, cutValues: d.cutValues}
	var w Witnesses[storage.Value]
	size, err := probe.values(nil, &w)
	if err != nil || probe.verr != nil || probe.olderForm || size > MaxSubstitutionBytes ||
		w.Seen() < compactMinEntries || w.have[ruleKeyTooLong] || w.have[ruleKeySyntax] {
		return nil, false
	}
	end := probe.pos
	c := &CompactValues{text: body[start:end], data: d.data[start:end], size: size}
	text := c.text
	b := make([]byte, 0, 4*w.Seen())
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
		b = binary.LittleEndian.AppendUint32(b, uint32(i))
		p := decoder{data: c.data, pos: i + q + 2}
		if p.expect(':') != nil || p.skipValue(1) != nil {
			return nil, false
		}
		i = p.pos
		i += spaces(text[i:])
		if text[i] == '}' {
			break
		}
		i++ // ','
	}
	o := offsets{b: b, c: c}
	sort.Sort(o)
	// A key given twice: the last one counts, as in a map.
	n := 0
	for i := range o.Len() {
		if i+1 < o.Len() && c.key(o.off(i+1)) == c.key(o.off(i)) {
			continue
		}
		copy(b[4*n:4*n+4], b[4*i:4*i+4])
		n++
	}
	if n < compactMinEntries || n == 0 {
		return nil, false
	}
	b = b[:4*n]
	c.offs = unsafe.String(&b[0], len(b))
	if n < o.Len() {
		// The size of the map kept: its entries' once.
		c.size = 0
		for i := range c.Len() {
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
// offsets and its size.
func compactStandIn(c *CompactValues) storage.Value {
	return storage.L([]storage.Value{
		storage.BString(c.text), storage.BString(c.offs), storage.BString(strconv.Itoa(c.size)),
	})
}

// compactOf is the CompactValues of a stand-in's value.
func compactOf(v storage.Value) *CompactValues {
	l := v.List()
	text := l[0].Str()
	size, _ := strconv.Atoi(l[2].Str())
	return &CompactValues{text: text, data: bytesOf(text), offs: l[1].Str(), size: size}
}

// bytesOf is the bytes of s, not a copy: nothing may write them.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// CompilerValues is what the compiler reads of a request's values
// (SplitValues).
type CompilerValues struct {
	// Map is the map without a stand-in's key (nil with Table).
	Map map[string]storage.Value
	// Over: the map was a stand-in for one of more than 2 MB.
	Over bool
	// Table holds the values of a compact map.
	Table *CompactValues
}

// SplitValues is what the compiler reads of values: the map without a
// stand-in's key and whether it stood for a map of more than 2 MB (as
// WithoutStandIn), or, for a compact map, its table. It costs the one
// lookup WithoutStandIn does.
func SplitValues(values ExpressionValues) CompilerValues {
	v, ok := values[oversizeKey]
	if !ok {
		return CompilerValues{Map: values}
	}
	if v.Kind() == storage.KindL {
		return CompilerValues{Table: compactOf(v)}
	}
	m, over := WithoutStandIn(map[string]storage.Value(values))
	return CompilerValues{Map: m, Over: over}
}

// Compiler is expr's pooled compiler (with cache, which may be nil) over
// names and these values.
func (cv CompilerValues) Compiler(cache *expr.Cache, names map[string]string) *expr.Compiler {
	if cv.Table != nil {
		return expr.NewPooledTableCompiler(cache, names, cv.Table)
	}
	return expr.NewPooledCompiler(cache, names, cv.Map)
}
