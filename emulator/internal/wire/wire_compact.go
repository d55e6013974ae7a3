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
// values held 7.6 times its body at its peak). A value an expression
// names is read from its text when it is named (expr.ValueTable): the one
// value a request's decoding reads twice, of a map no request can use
// whole.
//
// Only a map that cannot all be used takes this form: at least
// compactMinEntries distinct keys, more than the expressions of a request
// or of a transaction's action can name (at most two of them name values,
// of at most 4 KB each: 4,096 placeholders of two bytes). Such a request is
// refused, by the unused values' message if nothing comes before it; the
// values it looks up are those its expressions name. Its decoding reads
// every value once (valueSet), the first compactMinEntries into the map
// it then lets go; its keys that are no placeholders are the table's
// too, and the witnesses of them (Bad) are what Compiler.Err reports.
//
// The compact form travels in the ExpressionValues map as oversizeKey
// with an L value (the over-2 MB stand-in's value is the zero Value), so
// that the request's members, the idempotency fingerprint and the checks
// of which members are given see a map, and SplitValues, which costs the
// one lookup WithoutStandIn did, hands the table to the compiler.

// compactMinEntries is the least number of entries of a compact map (a
// variable for the tests, which try small maps).
var compactMinEntries = 16 << 10

// compactMinBytes is the least JSON text of compactMinEntries entries
// (`":a":{"S":""},`): a shorter request holds no compact map.
func compactMinBytes() int { return compactMinEntries * 14 }

// CompactValues is an ExpressionAttributeValues map kept compact (see
// above): an expr.ValueTable.
type CompactValues struct {
	text string                   // the map's JSON text
	offs string                   // 4 bytes (little-endian) an entry: its key's opening quote in text, by key
	size int                      // of the entries, by the 2 MB limit's measure, as the map's
	bad  map[string]storage.Value // the entries whose keys Compiler.Err reports (nil: none)
}

var _ expr.ValueTable = (*CompactValues)(nil)

// at is the offset of the i-th entry by key.
func (c *CompactValues) at(i int) int {
	s := c.offs[4*i : 4*i+4]
	return int(s[0]) | int(s[1])<<8 | int(s[2])<<16 | int(s[3])<<24
}

// entryAt is the key of the entry whose opening quote is at off in
// text, and where its value's ':' is (after spaces).
func (c *CompactValues) entryAt(off int) (key string, colon int) {
	s := c.text[off+1:]
	if q := strings.IndexByte(s, '"'); q >= 0 && strings.IndexByte(s[:q], '\\') < 0 {
		return s[:q], off + q + 2
	}
	d := decoder{data: bytesOf(c.text), pos: off} // a key with escapes: decoded
	key, _ = d.readString()
	return key, d.pos
}

// Len is the number of distinct keys.
func (c *CompactValues) Len() int { return len(c.offs) / 4 }

// Size is the entries' size by the 2 MB limit's measure, as the map's.
func (c *CompactValues) Size() int { return c.size }

// Key is the i-th key by key order, a view of the request body.
func (c *CompactValues) Key(i int) string { return c.keyAt(c.at(i)) }

// keyAt is the key whose opening quote is at off.
func (c *CompactValues) keyAt(off int) string {
	k, _ := c.entryAt(off)
	return k
}

// Bad is the entries whose keys break the placeholders' rules that
// Compiler.Err reports (nil: none).
func (c *CompactValues) Bad() map[string]storage.Value { return c.bad }

// Value decodes the value of key again, as the request held it (a
// faulty value as read), its strings copies.
func (c *CompactValues) Value(key string) (storage.Value, bool) {
	i := sort.Search(c.Len(), func(i int) bool { return c.Key(i) >= key })
	if i == c.Len() || c.Key(i) != key {
		return storage.Value{}, false
	}
	_, colon := c.entryAt(c.at(i))
	d := decoder{data: bytesOf(c.text), pos: colon}
	if d.expect(':') != nil {
		return storage.Value{}, false
	}
	v, err := d.attrValue(1)
	return v, err == nil // it decoded once: it does again
}

// compactValues is the compact map of vs, read by d, which is past its
// '}'.
func compactValues(d *reqDecoder, vs *valueSet) ExpressionValues {
	c := &CompactValues{text: d.bodyText()[vs.start:d.pos], size: vs.size}
	offs := make([]uint32, 0, vs.entries)
	vs.eachEntry(func(off, _ int) { offs = append(offs, uint32(off)) })
	// By key, then by place: of a key given twice the last counts, as in
	// a map, and the size the map measures is of the last ones.
	sort.Slice(offs, func(i, j int) bool {
		if ka, kb := c.keyAt(int(offs[i])), c.keyAt(int(offs[j])); ka != kb {
			return ka < kb
		}
		return offs[i] < offs[j]
	})
	b := make([]byte, 0, 4*len(offs))
	var replaced map[int]bool
	for i, off := range offs {
		if i+1 < len(offs) && c.keyAt(int(offs[i+1])) == c.keyAt(int(off)) {
			if replaced == nil {
				replaced = map[int]bool{}
			}
			replaced[int(off)] = true
			continue
		}
		b = binary.LittleEndian.AppendUint32(b, off)
	}
	if replaced != nil {
		vs.eachEntry(func(off, size int) {
			if replaced[off] {
				c.size -= size
			}
		})
	}
	c.offs = unsafe.String(&b[0], len(b))
	if vs.w.have[ruleKeyTooLong] || vs.w.have[ruleKeySyntax] {
		c.bad = vs.w.entries()
	}
	return ExpressionValues{oversizeKey: compactStandIn(c)}
}

// compactStandIn is c as the stand-in's value: an L of its text, its
// offsets, its size and its bad keys.
func compactStandIn(c *CompactValues) storage.Value {
	l := []storage.Value{storage.BString(c.text), storage.BString(c.offs), storage.BString(strconv.Itoa(c.size))}
	for k := range c.bad {
		l = append(l, storage.S(k))
	}
	return storage.L(l)
}

// compactOf is the CompactValues of a stand-in's value.
func compactOf(v storage.Value) *CompactValues {
	l := v.List()
	size, _ := strconv.Atoi(l[2].Str())
	c := &CompactValues{text: l[0].Str(), offs: l[1].Str(), size: size}
	for _, k := range l[3:] {
		if c.bad == nil {
			c.bad = map[string]storage.Value{}
		}
		c.bad[k.Str()] = storage.Null()
	}
	return c
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
