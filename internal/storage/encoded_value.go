package storage

// EncodedValue is one attribute value of a stored item, not decoded: a
// view of its encoding (encode.go) that answers what a filter or a
// projection asks of a value (its kind and scalar, a map entry, a list
// element, a set member, equality) without building a Value. Building
// one allocates nothing, and nor does any method but Value. The zero
// EncodedValue is invalid (Kind() == KindInvalid): a missing attribute.
//
// Like EncodedItem, it is a view of an immutable record and stays valid
// for good. It is a few words, cheap to copy.
type EncodedValue struct {
	kind Kind
	b    bool   // BOOL (and NULL, true)
	n    int    // L, M and sets: the number of parts
	str  string // S and N: the text; B: the raw bytes; L, M and sets: the whole encoding, tag first
}

// Kind returns the value's DynamoDB type; KindInvalid for a missing value.
func (v EncodedValue) Kind() Kind { return v.kind }

// IsValid reports whether v holds a value.
func (v EncodedValue) IsValid() bool { return v.kind != KindInvalid }

// Str returns the text of an S value, the canonical text of an N value or
// the raw bytes of a B value, as Value.Str does; "" for other kinds.
func (v EncodedValue) Str() string {
	if v.kind.IsScalarKey() {
		return v.str
	}
	return ""
}

// Bool returns the boolean of a BOOL value.
func (v EncodedValue) Bool() bool { return v.b }

// Len returns the number of elements of an L, the entries of an M or the
// members of a set, and 0 for other kinds.
func (v EncodedValue) Len() int { return v.n }

// isComposite reports whether k is L, M or a set.
func isComposite(k Kind) bool { return k >= KindL && k <= KindBS }

// encodedScalar is the EncodedValue of a scalar Value (a key attribute's).
func encodedScalar(v Value) EncodedValue {
	return EncodedValue{kind: v.kind, b: v.b, str: v.str}
}

// Value decodes v. Scalars cost nothing; L, M and sets are built afresh
// (their strings share memory with the record).
func (v EncodedValue) Value() Value {
	if !isComposite(v.kind) {
		return Value{kind: v.kind, b: v.b, str: v.str}
	}
	d := decoder{s: v.str}
	w := d.value(1)
	if d.err != nil {
		panic("storage: corrupt stored value: " + d.err.Error())
	}
	return w
}

// parts returns a decoder positioned on the first part of a composite.
func (v EncodedValue) parts() decoder {
	d := decoder{s: v.str}
	d.byte()
	d.uvarint()
	return d
}

// readEncoded reads one value at nesting depth depth as an EncodedValue,
// skipping over the parts of a composite. After an error it returns the
// zero EncodedValue.
func (d *decoder) readEncoded(depth int) EncodedValue {
	start := d.pos
	switch tag := d.byte(); tag {
	case tagS:
		return EncodedValue{kind: KindS, str: d.str()}
	case tagN:
		return EncodedValue{kind: KindN, str: d.str()}
	case tagB:
		return EncodedValue{kind: KindB, str: d.str()}
	case tagFalse:
		return EncodedValue{kind: KindBOOL}
	case tagTrue:
		return EncodedValue{kind: KindBOOL, b: true}
	case tagNull:
		return EncodedValue{kind: KindNULL, b: true}
	case tagL, tagM, tagSS, tagNS, tagBS:
		d.pos = start
		n := d.peekCount()
		d.skip(depth)
		if d.err != nil {
			return EncodedValue{}
		}
		return EncodedValue{kind: tagKinds[tag], n: n, str: d.s[start:d.pos]}
	default:
		if d.err == nil {
			d.fail("unknown tag")
		}
		return EncodedValue{}
	}
}

// peekCount returns the count after the tag at the current position
// without moving.
func (d *decoder) peekCount() int {
	save := d.pos
	d.byte()
	n := d.count()
	d.pos = save
	return n
}

// Field returns the entry name of an M value; false when v is not an M or
// has no such entry. Entries are sorted, so it stops at the first name
// past name.
func (v EncodedValue) Field(name string) (EncodedValue, bool) {
	if v.kind != KindM {
		return EncodedValue{}, false
	}
	d := v.parts()
	for i := 0; i < v.n && d.err == nil; i++ {
		switch entry := d.str(); {
		case entry == name:
			w := d.readEncoded(2)
			return w, w.IsValid()
		case entry > name:
			return EncodedValue{}, false
		}
		d.skip(2)
	}
	return EncodedValue{}, false
}

// Index returns element i of an L value; false when v is not an L or i is
// out of range.
func (v EncodedValue) Index(i int) (EncodedValue, bool) {
	if v.kind != KindL || i < 0 || i >= v.n {
		return EncodedValue{}, false
	}
	d := v.parts()
	for j := 0; j < i && d.err == nil; j++ {
		d.skip(2)
	}
	w := d.readEncoded(2)
	return w, w.IsValid()
}

// HasMember reports whether the set value v contains m (in Members' string
// form: canonical number text for NS, raw bytes for BS).
func (v EncodedValue) HasMember(m string) bool {
	if !v.kind.IsSet() {
		return false
	}
	d := v.parts()
	for i := 0; i < v.n && d.err == nil; i++ {
		if d.str() == m {
			return true
		}
	}
	return false
}

// Parts iterates the parts of an L, M or set value: L elements, M entries
// (name and value) in ascending name order, set members (as values of the
// member kind: S, N or B). The zero Parts, and the Parts of a scalar, has
// none.
type Parts struct {
	d    decoder
	left int
	kind Kind
}

// Parts returns an iterator over v's parts.
func (v EncodedValue) Parts() Parts {
	if !isComposite(v.kind) {
		return Parts{}
	}
	return Parts{d: v.parts(), left: v.n, kind: v.kind}
}

// setMemberKind maps a set kind to its members' kind.
var setMemberKind = [...]Kind{KindSS: KindS, KindNS: KindN, KindBS: KindB}

// Next returns the next part: its name (M entries only) and value; false
// after the last.
func (p *Parts) Next() (name string, v EncodedValue, ok bool) {
	if p.left <= 0 || p.d.err != nil {
		return "", EncodedValue{}, false
	}
	p.left--
	switch p.kind {
	case KindM:
		name = p.d.str()
		v = p.d.readEncoded(2)
	case KindL:
		v = p.d.readEncoded(2)
	default:
		v = EncodedValue{kind: setMemberKind[p.kind], str: p.d.str()}
	}
	if p.d.err != nil {
		return "", EncodedValue{}, false
	}
	return name, v, true
}

// Equal reports whether v and w are the same DynamoDB value, as Equal
// compares two Values: numbers by their canonical text, sets without
// regard to order.
func (v EncodedValue) Equal(w Value) bool {
	if v.kind != w.kind {
		return false
	}
	switch v.kind {
	case KindS, KindN, KindB:
		return v.str == w.str
	case KindBOOL, KindNULL:
		return v.b == w.b
	case KindL:
		list := w.List()
		if v.n != len(list) {
			return false
		}
		p := v.Parts()
		for _, e := range list {
			_, x, _ := p.Next()
			if !x.Equal(e) {
				return false
			}
		}
		return true
	case KindM:
		m := w.Map()
		if v.n != len(m) {
			return false
		}
		p := v.Parts()
		for {
			name, x, ok := p.Next()
			if !ok {
				return p.d.err == nil
			}
			if e, ok := m[name]; !ok || !x.Equal(e) {
				return false
			}
		}
	case KindSS, KindNS, KindBS:
		members := w.Members()
		if v.n != len(members) {
			return false
		}
		for _, m := range members {
			if !v.HasMember(m) {
				return false
			}
		}
		return true
	}
	return v.kind != KindInvalid
}

// EqualEncoded reports whether v and w are the same DynamoDB value.
func (v EncodedValue) EqualEncoded(w EncodedValue) bool {
	if v.kind != w.kind {
		return false
	}
	switch v.kind {
	case KindS, KindN, KindB:
		return v.str == w.str
	case KindBOOL, KindNULL:
		return v.b == w.b
	case KindL, KindM:
		if v.n != w.n {
			return false
		}
		// Both lists in order; both maps in ascending name order.
		p, q := v.Parts(), w.Parts()
		for {
			n1, x, ok1 := p.Next()
			n2, y, ok2 := q.Next()
			if !ok1 || !ok2 {
				return ok1 == ok2
			}
			if n1 != n2 || !x.EqualEncoded(y) {
				return false
			}
		}
	case KindSS, KindNS, KindBS:
		if v.n != w.n {
			return false
		}
		p := v.Parts()
		for {
			_, m, ok := p.Next()
			if !ok {
				return true
			}
			if !w.HasMember(m.str) {
				return false
			}
		}
	}
	return v.kind != KindInvalid
}

// AppendTo appends v's encoding (encode.go) to dst: a value of an item
// that an EncodingBuilder is writing.
func (v EncodedValue) AppendTo(dst []byte) []byte {
	switch v.kind {
	case KindS:
		return appendStr(append(dst, tagS), v.str)
	case KindN:
		return appendStr(append(dst, tagN), v.str)
	case KindB:
		return appendStr(append(dst, tagB), v.str)
	case KindBOOL:
		if v.b {
			return append(dst, tagTrue)
		}
		return append(dst, tagFalse)
	case KindNULL:
		return append(dst, tagNull)
	}
	return append(dst, v.str...) // a composite's whole encoding
}
