package storage

import "github.com/dynamoemu/dynamoemu/internal/number"

// EncodedItem is a stored item as it is kept at rest, with its key: what
// Get, Query and Scan decode into an Item, before decoding. A reader that
// only writes the item out (the emulator's responses) walks it with an
// ItemReader and builds no Values; one that needs a few attributes (a
// filter) decodes only those with Attributes. It is a view of an immutable
// record, so it stays valid after the table lock is released and whatever
// the table does later; it is a few words, cheap to copy.
type EncodedItem struct {
	body string     // the encoded item without its key attributes (encode.go)
	key  Key        // the item's key; its Sort is zero while nsk holds it
	nsk  string     // a number sort key still in its order-preserving encoding (keyenc.go), or ""
	ks   *KeySchema // the table's key schema (immutable); nil: body holds the whole item (EncodedItemOf)
	size uint32     // the item's DynamoDB size
}

// encodedOf returns the EncodedItem of entry e, whose key is k.
func (t *Table) encodedOf(k Key, e entry) EncodedItem {
	return EncodedItem{body: e.body(), key: k, ks: &t.ks, size: e.size}
}

// Key returns the item's key.
func (e EncodedItem) Key() Key {
	if e.nsk != "" {
		k := e.key
		k.Sort = sortKeyValue(KindN, e.nsk)
		return k
	}
	return e.key
}

// Size returns the item's DynamoDB size (ItemSize of its decoded form).
func (e EncodedItem) Size() int { return int(e.size) }

// Bytes returns the bytes of the encoding the item holds (its body), for
// accounting of memory: the record it views may be shared.
func (e EncodedItem) Bytes() int { return len(e.body) + len(e.nsk) }

// Item decodes the whole item, key attributes included. The Item is the
// caller's; its strings share memory with the record.
func (e EncodedItem) Item() Item {
	it, err := decodeItem(e.body, 2)
	if err != nil {
		// Records are only ever built by encodeLocked.
		panic("storage: corrupt stored item: " + err.Error())
	}
	if e.ks != nil {
		e.ks.SetKey(it, e.Key())
	}
	return it
}

// Attributes decodes only the top-level attributes named in names (key
// attributes included) that the item has: for a caller, such as a filter,
// whose result depends on those attributes alone. names may be in any
// order and repeat.
func (e EncodedItem) Attributes(names []string) Item {
	return e.AttributesInto(make(Item, len(names)), names)
}

// AttributesInto is Attributes decoding into it, which must be empty (a
// caller's scratch map, cleared and reused across requests), and returns
// it.
func (e EncodedItem) AttributesInto(it Item, names []string) Item {
	for _, n := range names {
		if v, ok := e.keyAttr(n); ok {
			it[n] = v
		}
	}
	if len(it) == len(names) {
		return it
	}
	d := decoder{s: e.body}
	if d.byte() != encodingVersion {
		d.fail("unknown version")
	}
	for i, n := 0, d.count(); i < n && d.err == nil; i++ {
		name := d.str()
		if contains(names, name) {
			it[name] = d.value(1)
		} else {
			d.skip(1)
		}
	}
	if d.err != nil {
		panic("storage: corrupt stored item: " + d.err.Error())
	}
	return it
}

func contains(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// Reader returns an ItemReader positioned before the item's first attribute.
func (e EncodedItem) Reader() ItemReader {
	r := ItemReader{d: decoder{s: e.body}}
	if r.d.byte() != encodingVersion {
		r.d.fail("unknown version")
	}
	r.left = r.d.count()
	if e.ks == nil {
		return r // an item written whole (EncodedItemOf)
	}
	// The key attributes, in name order.
	r.keys[0] = keyAttrValue{name: e.ks.Partition.Name, v: e.key.Partition}
	r.nkeys = 1
	if e.ks.HasSort() {
		r.keys[1] = keyAttrValue{name: e.ks.Sort.Name, v: e.key.Sort, nsk: e.nsk}
		r.nkeys = 2
		if r.keys[1].name < r.keys[0].name {
			r.keys[0], r.keys[1] = r.keys[1], r.keys[0]
		}
	}
	return r
}

// ItemReader walks an encoded item without building Values: its
// attributes in ascending byte order of their names, the key attributes
// among them, and in each value its parts in order. It is a pull parser:
//
//   - Next returns the next attribute's name; its value follows.
//   - Head reads the start of a value: its kind and, for a scalar, the
//     scalar; for L, M and the sets, the number of parts that follow.
//   - The parts: each L element is a value (Head ...); each M entry is
//     EntryName then a value, entries in ascending name order; each set
//     member is Member.
//   - Skip skips a whole value instead of Head and its parts.
//
// The caller must read each value completely, in order, before the next
// Next. A malformed record makes every later read return zero values and
// Err report ErrCorrupt; stored records are never malformed.
type ItemReader struct {
	d       decoder
	left    int             // record attributes not yet read
	next    string          // the next record attribute's name, when peeked
	peeked  bool            // next holds a name read ahead
	read    int             // record attribute names read so far
	keys    [2]keyAttrValue // the key attributes not yet returned, in name order
	nkeys   int
	key     Value  // the value of the attribute Next returned, when it is a key
	keyNSK  string // or that key's encoded number, when it is a number sort key
	wantKey bool   // the next Head is that key's
}

// keyAttrValue is a key attribute's name and value: v, or for a number
// sort key not yet decoded, nsk, its order-preserving encoding.
type keyAttrValue struct {
	name string
	v    Value
	nsk  string
}

// Head is the start of one value: its Kind, and Str (S text, N canonical
// text, B raw bytes), Bool (BOOL) or Len (the elements of L, the entries of
// M, the members of a set) as the kind has. A Head from HeadLazy may
// instead hold a number as its sort key encoding: AppendNumber writes the
// text of every N Head.
type Head struct {
	Kind Kind
	Str  string
	Bool bool
	Len  int
	nsk  string // HeadLazy's number sort key, encoded (keyenc.go); Str is then ""
}

// AppendNumber appends the canonical text of an N Head to dst: Str, or the
// text of the encoded sort key a HeadLazy left in it, rendered straight
// into dst.
func (h Head) AppendNumber(dst []byte) []byte {
	if h.nsk == "" {
		return append(dst, h.Str...)
	}
	out, ok := number.AppendKeyText(dst, h.nsk)
	if !ok {
		panic("storage: corrupt number key") // only ever built by number.AppendKey
	}
	return out
}

// Next returns the next attribute's name, or false after the last one.
func (r *ItemReader) Next() (string, bool) {
	if r.d.err != nil {
		return "", false
	}
	if !r.peeked && r.left > 0 {
		name := r.d.str()
		if r.read > 0 && name <= r.next {
			r.d.fail("attribute names out of order")
		}
		if r.d.err != nil {
			return "", false
		}
		r.next, r.peeked = name, true
		r.left--
		r.read++
	}
	if r.nkeys > 0 && (!r.peeked || r.keys[0].name <= r.next) {
		if r.peeked && r.keys[0].name == r.next {
			r.d.fail("key attribute in record")
			return "", false
		}
		k := r.keys[0]
		r.keys[0], r.keys[1] = r.keys[1], keyAttrValue{}
		r.nkeys--
		r.key, r.keyNSK, r.wantKey = k.v, k.nsk, true
		return k.name, true
	}
	if !r.peeked {
		if r.d.pos != len(r.d.s) {
			r.d.fail("trailing bytes")
		}
		return "", false
	}
	r.peeked = false
	return r.next, true
}

// Head reads the start of the next value.
func (r *ItemReader) Head() Head {
	h := r.HeadLazy()
	if h.nsk != "" {
		h.Str, h.nsk = sortKeyValue(KindN, h.nsk).str, ""
	}
	return h
}

// HeadLazy is Head for a writer of the item's text: for a number sort key,
// kept in its order-preserving encoding, it leaves Str empty and the
// encoding in the Head, so AppendNumber writes the text without building
// it as a string first.
func (r *ItemReader) HeadLazy() Head {
	if r.wantKey {
		r.wantKey = false
		if r.keyNSK != "" {
			return Head{Kind: KindN, nsk: r.keyNSK}
		}
		return Head{Kind: r.key.kind, Str: r.key.str}
	}
	switch tag := r.d.byte(); tag {
	case tagS:
		return Head{Kind: KindS, Str: r.d.str()}
	case tagN:
		return Head{Kind: KindN, Str: r.d.str()}
	case tagB:
		return Head{Kind: KindB, Str: r.d.str()}
	case tagFalse:
		return Head{Kind: KindBOOL}
	case tagTrue:
		return Head{Kind: KindBOOL, Bool: true}
	case tagNull:
		return Head{Kind: KindNULL, Bool: true}
	case tagL, tagM, tagSS, tagNS, tagBS:
		n := r.d.count()
		if r.d.err != nil {
			return Head{}
		}
		return Head{Kind: tagKinds[tag], Len: n}
	default:
		if r.d.err == nil {
			r.d.fail("unknown tag")
		}
		return Head{}
	}
}

// tagKinds maps the composite tags to their kinds.
var tagKinds = [...]Kind{tagL: KindL, tagM: KindM, tagSS: KindSS, tagNS: KindNS, tagBS: KindBS}

// EntryName reads the name of the next M entry; its value follows.
func (r *ItemReader) EntryName() string { return r.d.str() }

// Member reads the next set member: SS text, NS canonical text or BS raw bytes.
func (r *ItemReader) Member() string { return r.d.str() }

// Skip skips the next value.
func (r *ItemReader) Skip() {
	if r.wantKey {
		r.wantKey = false
		return
	}
	r.d.skip(1)
}

// Err reports whether the record was malformed (an error wrapping
// ErrCorrupt), or nil.
func (r *ItemReader) Err() error { return r.d.err }
