package wire

// Reading a request's shape without decoding it: the members of an
// object and the elements of an array, as byte ranges of the body. The
// service reads a request's list members this way before it decodes the
// request (service/oversize.go), so a list far over its limit is
// answered without building its elements. The scanner is the request
// decoder's own (wire_scan.go): what it accepts, the decoder reads.

// Span is a value's bytes: body[Start:End].
type Span struct{ Start, End int }

// Member is one member of a JSON object.
type Member struct {
	Name  string
	Value Span
}

// ObjectMembers returns the members of the JSON object that starts at
// b[at] (after spaces) and where it ends; ok is false when no object
// starts there or it is not well formed.
func ObjectMembers(b []byte, at int) (members []Member, end int, ok bool) {
	d := decoder{data: b, pos: at}
	if d.peek() != '{' {
		return nil, 0, false
	}
	d.pos++
	if d.peek() == '}' {
		return nil, d.pos + 1, true
	}
	for {
		name, err := d.readString()
		if err != nil || d.expect(':') != nil {
			return nil, 0, false
		}
		d.peek()
		start := d.pos
		if d.skipValue(1) != nil {
			return nil, 0, false
		}
		members = append(members, Member{Name: name, Value: Span{start, d.pos}})
		switch d.peek() {
		case ',':
			d.pos++
		case '}':
			return members, d.pos + 1, true
		default:
			return nil, 0, false
		}
	}
}

// ArrayElements calls each with the index and span of every element of
// the JSON array that starts at b[at] (after spaces), in order, until
// each returns false; ok is false when no array starts there or it is
// not well formed.
func ArrayElements(b []byte, at int, each func(i int, s Span) bool) (ok bool) {
	d := decoder{data: b, pos: at}
	if d.peek() != '[' {
		return false
	}
	d.pos++
	if d.peek() == ']' {
		return true
	}
	for i := 0; ; i++ {
		d.peek()
		start := d.pos
		if d.skipValue(1) != nil {
			return false
		}
		if !each(i, Span{start, d.pos}) {
			return true
		}
		switch d.peek() {
		case ',':
			d.pos++
		case ']':
			return true
		default:
			return false
		}
	}
}

// StringAt returns the string value at s (a span ArrayElements or
// ObjectMembers gave); ok is false when s holds no string.
func StringAt(b []byte, s Span) (v string, ok bool) {
	d := decoder{data: b[:s.End], pos: s.Start}
	v, err := d.readString()
	return v, err == nil && d.pos == s.End
}

// Reading a body as it arrives (oversize.ListCut): each step reads one
// part of the body's shape from position at of b, the body so far, and
// reports ok false when the part is not well formed or not all there
// yet (the caller tries again once more of the body has arrived, and at
// its end takes ok false as not well formed).

// OpenAt returns the position after the opening c ('{' or '[') at b[at]
// (after spaces), and whether its container is empty (next is then after
// its closing byte).
func OpenAt(b []byte, at int, c byte) (next int, empty, ok bool) {
	d := decoder{data: b, pos: at}
	if d.peek() != c {
		return 0, false, false
	}
	d.pos++
	closing := byte('}')
	if c == '[' {
		closing = ']'
	}
	switch d.peek() {
	case 0:
		return 0, false, false
	case closing:
		return d.pos + 1, true, true
	}
	return d.pos, false, true
}

// NameAt reads an object member's name at b[at] (after spaces, after the
// object's '{' or a ','), and its colon; value is where its value starts
// (after spaces).
func NameAt(b []byte, at int) (name string, value int, ok bool) {
	d := decoder{data: b, pos: at}
	name, err := d.readString()
	if err != nil || d.expect(':') != nil || d.peek() == 0 {
		return "", 0, false
	}
	return name, d.pos, true
}

// ValueAt reads the value at b[at] (after spaces) of an object (close
// '}') or an array (close ']') and the ',' or close after it: next is
// after that byte, last whether it was close.
func ValueAt(b []byte, at int, close byte) (v Span, next int, last, ok bool) {
	d := decoder{data: b, pos: at}
	d.peek()
	start := d.pos
	if d.skipValue(1) != nil {
		return Span{}, 0, false, false
	}
	v = Span{start, d.pos}
	switch d.peek() {
	case ',':
		return v, d.pos + 1, false, true
	case close:
		return v, d.pos + 1, true, true
	}
	return Span{}, 0, false, false
}

// SepAt reads the ',' or close ('}' or ']') after a value, at b[at]
// (after spaces): next is after it, last whether it was close.
func SepAt(b []byte, at int, close byte) (next int, last, ok bool) {
	d := decoder{data: b, pos: at}
	switch d.peek() {
	case ',':
		return d.pos + 1, false, true
	case close:
		return d.pos + 1, true, true
	}
	return 0, false, false
}
