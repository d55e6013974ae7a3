package storage

import (
	"encoding/binary"
	"fmt"
)

// decodeItem decodes an item encoded by appendItem. The returned values'
// strings share memory with data (Go strings are immutable, so this is safe
// and saves a copy per value); extra is spare map capacity for the caller to
// add the key attributes. It never panics: malformed input yields an error
// wrapping ErrCorrupt.
func decodeItem(data string, extra int) (Item, error) {
	d := decoder{s: data}
	if d.byte() != encodingVersion {
		return nil, d.fail("unknown version")
	}
	n := d.count()
	if d.err != nil {
		return nil, d.err
	}
	item := make(Item, n+extra)
	prev := ""
	for i := 0; i < n; i++ {
		name := d.str()
		if i > 0 && name <= prev {
			return nil, d.fail("attribute names out of order")
		}
		prev = name
		v := d.value(1)
		if d.err != nil {
			return nil, d.err
		}
		item[name] = v
	}
	if d.err == nil && d.pos != len(d.s) {
		return nil, d.fail("trailing bytes")
	}
	return item, d.err
}

// decoder reads the encoding; after the first error every read returns a
// zero value and err stays set.
type decoder struct {
	s   string
	pos int
	err error
}

func (d *decoder) fail(what string) error {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s at byte %d", ErrCorrupt, what, d.pos)
	}
	return d.err
}

func (d *decoder) byte() byte {
	if d.err != nil {
		return 0
	}
	if d.pos >= len(d.s) {
		d.fail("unexpected end")
		return 0
	}
	b := d.s[d.pos]
	d.pos++
	return b
}

func (d *decoder) uvarint() uint64 {
	if p := d.pos; d.err == nil && p < len(d.s) {
		if b := d.s[p]; b < 0x80 { // one byte: most lengths and counts, without the loop
			d.pos = p + 1
			return uint64(b)
		}
	}
	return d.uvarintLong()
}

// uvarintLong is uvarint of several bytes, or at an error or the end.
func (d *decoder) uvarintLong() uint64 {
	if d.err != nil {
		return 0
	}
	var x uint64
	var shift uint
	for i := 0; i < binary.MaxVarintLen64; i++ {
		if d.pos >= len(d.s) {
			d.fail("unexpected end")
			return 0
		}
		b := d.s[d.pos]
		d.pos++
		if b < 0x80 {
			if i == binary.MaxVarintLen64-1 && b > 1 {
				break
			}
			return x | uint64(b)<<shift
		}
		x |= uint64(b&0x7f) << shift
		shift += 7
	}
	d.fail("bad varint")
	return 0
}

// count reads an element count; every element takes at least one byte, so
// a count above the bytes left is corrupt (and would over-allocate).
func (d *decoder) count() int {
	n := d.uvarint()
	if d.err == nil && n > uint64(len(d.s)-d.pos) {
		d.fail("count exceeds input")
		return 0
	}
	return int(n)
}

func (d *decoder) str() string {
	n := d.uvarint()
	if d.err != nil {
		return ""
	}
	if n > uint64(len(d.s)-d.pos) {
		d.fail("string exceeds input")
		return ""
	}
	s := d.s[d.pos : d.pos+int(n)]
	d.pos += int(n)
	return s
}

func (d *decoder) value(depth int) Value {
	switch tag := d.byte(); tag {
	case tagS:
		return Value{kind: KindS, str: d.str()}
	case tagN:
		return Value{kind: KindN, str: d.str()}
	case tagB:
		return Value{kind: KindB, str: d.str()}
	case tagFalse:
		return Value{kind: KindBOOL}
	case tagTrue:
		return Value{kind: KindBOOL, b: true}
	case tagNull:
		return Value{kind: KindNULL, b: true}
	case tagL:
		if depth >= maxDepth {
			d.fail("nesting too deep")
			return Value{}
		}
		n := d.count()
		list := make([]Value, n)
		for i := range list {
			list[i] = d.value(depth + 1)
		}
		return Value{kind: KindL, c: &composite{list: list}}
	case tagM:
		if depth >= maxDepth {
			d.fail("nesting too deep")
			return Value{}
		}
		n := d.count()
		m := make(map[string]Value, n)
		prev := ""
		for i := 0; i < n && d.err == nil; i++ {
			name := d.str()
			if i > 0 && name <= prev {
				d.fail("map entries out of order")
			}
			prev = name
			m[name] = d.value(depth + 1)
		}
		return Value{kind: KindM, c: &composite{m: m}}
	case tagSS, tagNS, tagBS:
		kind := KindSS
		if tag == tagNS {
			kind = KindNS
		} else if tag == tagBS {
			kind = KindBS
		}
		n := d.count()
		set := make([]string, n)
		for i := range set {
			set[i] = d.str()
		}
		return Value{kind: kind, c: &composite{set: set}}
	default:
		if d.err == nil {
			d.fail(fmt.Sprintf("unknown tag %d", tag))
		}
		return Value{}
	}
}

// skip skips one value at nesting depth depth, as value would read it.
func (d *decoder) skip(depth int) {
	switch tag := d.byte(); tag {
	case tagS, tagN, tagB:
		n := d.uvarint()
		if d.err == nil && n > uint64(len(d.s)-d.pos) {
			d.fail("string exceeds input")
			return
		}
		d.pos += int(n)
	case tagFalse, tagTrue, tagNull:
	case tagL, tagM:
		if depth >= maxDepth {
			d.fail("nesting too deep")
			return
		}
		n := d.count()
		for i := 0; i < n && d.err == nil; i++ {
			if tag == tagM {
				d.str()
			}
			d.skip(depth + 1)
		}
	case tagSS, tagNS, tagBS:
		n := d.count()
		for i := 0; i < n && d.err == nil; i++ {
			d.str()
		}
	default:
		if d.err == nil {
			d.fail(fmt.Sprintf("unknown tag %d", tag))
		}
	}
}
