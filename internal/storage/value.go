package storage

import (
	"slices"
	"strings"
)

// Kind is the DynamoDB type of an attribute value.
type Kind uint8

// The attribute value kinds, named by their DynamoDB type descriptors.
const (
	KindInvalid Kind = iota
	KindS
	KindN
	KindB
	KindBOOL
	KindNULL
	KindL
	KindM
	KindSS
	KindNS
	KindBS
)

var kindNames = [...]string{
	KindInvalid: "INVALID",
	KindS:       "S",
	KindN:       "N",
	KindB:       "B",
	KindBOOL:    "BOOL",
	KindNULL:    "NULL",
	KindL:       "L",
	KindM:       "M",
	KindSS:      "SS",
	KindNS:      "NS",
	KindBS:      "BS",
}

// String returns the DynamoDB type descriptor ("S", "N", "SS", ...).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "INVALID"
}

// KindFromString maps a DynamoDB type descriptor to its Kind; KindInvalid if unknown.
func KindFromString(s string) Kind {
	for k, name := range kindNames {
		if name == s && k != int(KindInvalid) {
			return Kind(k)
		}
	}
	return KindInvalid
}

// IsSet reports whether k is one of the set kinds SS, NS, BS.
func (k Kind) IsSet() bool { return k == KindSS || k == KindNS || k == KindBS }

// IsScalarKey reports whether k may be the type of a key attribute (S, N, B).
func (k Kind) IsScalarKey() bool { return k == KindS || k == KindN || k == KindB }

// Value is one DynamoDB attribute value: a sum type over the ten kinds.
// The zero Value is invalid (Kind() == KindInvalid). Values are immutable
// once built: constructors copy nothing, so callers must not mutate slices
// or maps they passed in or got back.
//
// A Value is 32 bytes: scalars live inline, and the contents of L, M and
// sets sit behind one pointer, since most values in most items are scalars.
type Value struct {
	kind Kind
	b    bool       // BOOL
	str  string     // S: text; N: canonical decimal text; B: raw bytes
	c    *composite // L, M, SS, NS, BS
}

// composite holds the contents of an L, M or set value; only the field of
// the value's kind is set.
type composite struct {
	list []Value          // L elements
	set  []string         // SS members; NS canonical texts; BS raw bytes
	m    map[string]Value // M entries
}

// Item is a whole DynamoDB item: attribute name to value.
type Item = map[string]Value

// S returns a string value.
func S(s string) Value { return Value{kind: KindS, str: s} }

// N returns a number value. n must be canonical (from ParseNumber or arithmetic).
func N(n Number) Value { return Value{kind: KindN, str: string(n)} }

// B returns a binary value holding the raw (decoded) bytes.
func B(b []byte) Value { return Value{kind: KindB, str: string(b)} }

// BString returns a binary value whose raw bytes are the bytes of s.
func BString(s string) Value { return Value{kind: KindB, str: s} }

// Bool returns a BOOL value.
func Bool(b bool) Value { return Value{kind: KindBOOL, b: b} }

// Null returns the NULL value (NULL: true).
func Null() Value { return Value{kind: KindNULL, b: true} }

// L returns a list value.
func L(elems []Value) Value {
	if elems == nil {
		elems = []Value{}
	}
	return Value{kind: KindL, c: &composite{list: elems}}
}

// M returns a map value.
func M(m map[string]Value) Value {
	if m == nil {
		m = map[string]Value{}
	}
	return Value{kind: KindM, c: &composite{m: m}}
}

// SS returns a string set. Members must be distinct and non-empty in number;
// the decoder validates that.
func SS(members []string) Value { return SetOf(KindSS, members) }

// NS returns a number set of canonical numbers.
func NS(members []Number) Value {
	set := make([]string, len(members))
	for i, n := range members {
		set[i] = string(n)
	}
	return SetOf(KindNS, set)
}

// BS returns a binary set of raw byte strings.
func BS(members [][]byte) Value {
	set := make([]string, len(members))
	for i, b := range members {
		set[i] = string(b)
	}
	return SetOf(KindBS, set)
}

// SetOf returns a set of kind k (KindSS, KindNS or KindBS) whose members are
// given as strings (canonical number text for NS, raw bytes for BS).
// The members are put in AWS's order, in place: SS and BS by their bytes,
// NS by value (what AWS answers after a PutItem, an ADD and on every
// read).
func SetOf(k Kind, members []string) Value {
	if k == KindNS {
		slices.SortFunc(members, func(a, b string) int { return CompareNumbers(Number(a), Number(b)) })
	} else {
		slices.Sort(members)
	}
	return Value{kind: k, c: &composite{set: members}}
}

// Kind returns the value's DynamoDB type.
func (v Value) Kind() Kind { return v.kind }

// IsValid reports whether v holds a value.
func (v Value) IsValid() bool { return v.kind != KindInvalid }

// Str returns the text of an S value, the canonical text of an N value, or the
// raw bytes of a B value as a string. Empty for other kinds.
func (v Value) Str() string { return v.str }

// Number returns the number of an N value.
func (v Value) Number() Number { return Number(v.str) }

// Bytes returns a copy of the raw bytes of a B value.
func (v Value) Bytes() []byte { return []byte(v.str) }

// Bool returns the boolean of a BOOL value.
func (v Value) Bool() bool { return v.b }

// List returns the elements of an L value. Do not mutate.
func (v Value) List() []Value {
	if v.c == nil {
		return nil
	}
	return v.c.list
}

// Map returns the entries of an M value. Do not mutate.
func (v Value) Map() map[string]Value {
	if v.c == nil {
		return nil
	}
	return v.c.m
}

// Members returns the members of a set value as strings (canonical number
// text for NS, raw bytes for BS). Do not mutate.
func (v Value) Members() []string {
	if v.c == nil {
		return nil
	}
	return v.c.set
}

// Len returns the number of elements of an L, M or set value, and 0 otherwise.
func (v Value) Len() int {
	switch v.kind {
	case KindL:
		return len(v.List())
	case KindM:
		return len(v.Map())
	case KindSS, KindNS, KindBS:
		return len(v.Members())
	}
	return 0
}

// Equal reports whether a and b are the same DynamoDB value: same kind and
// content; numbers compare numerically (canonical text makes that textual),
// sets compare without regard to order.
func Equal(a, b Value) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case KindS, KindN, KindB:
		return a.str == b.str
	case KindBOOL, KindNULL:
		return a.b == b.b
	case KindL:
		al, bl := a.List(), b.List()
		if len(al) != len(bl) {
			return false
		}
		for i := range al {
			if !Equal(al[i], bl[i]) {
				return false
			}
		}
		return true
	case KindM:
		am, bm := a.Map(), b.Map()
		if len(am) != len(bm) {
			return false
		}
		for k, av := range am {
			bv, ok := bm[k]
			if !ok || !Equal(av, bv) {
				return false
			}
		}
		return true
	case KindSS, KindNS, KindBS:
		as, bs := a.Members(), b.Members()
		if len(as) != len(bs) {
			return false
		}
		for _, m := range as {
			if !containsString(bs, m) {
				return false
			}
		}
		return true
	}
	return true
}

// ItemsEqual reports whether two items hold the same attributes and values.
func ItemsEqual(a, b Item) bool {
	if len(a) != len(b) {
		return false
	}
	for k, av := range a {
		bv, ok := b[k]
		if !ok || !Equal(av, bv) {
			return false
		}
	}
	return true
}

// Compare orders two scalar values of the same kind as DynamoDB does: S by
// UTF-8 bytes, N numerically, B as unsigned bytes. ok is false when the kinds
// differ or are not S, N or B.
func Compare(a, b Value) (c int, ok bool) {
	if a.kind != b.kind {
		return 0, false
	}
	switch a.kind {
	case KindS, KindB:
		return strings.Compare(a.str, b.str), true
	case KindN:
		return CompareNumbers(Number(a.str), Number(b.str)), true
	}
	return 0, false
}

// HasMember reports whether the set value v contains member m (given in the
// same string form as Members).
func (v Value) HasMember(m string) bool { return containsString(v.Members(), m) }

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Depth is the nesting level of v's deepest value: a scalar or set is
// level 1, each enclosing list or map adds one (DynamoDB allows 32).
func (v Value) Depth() int {
	deepest := 0
	switch v.Kind() {
	case KindL:
		for _, e := range v.List() {
			deepest = max(deepest, e.Depth())
		}
	case KindM:
		for _, e := range v.Map() {
			deepest = max(deepest, e.Depth())
		}
	default:
		return 1
	}
	return deepest + 1
}
