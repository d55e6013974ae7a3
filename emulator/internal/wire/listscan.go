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
