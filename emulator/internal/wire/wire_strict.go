package wire

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// A strict request is a struct some of whose fields carry a strict tag:
// it is read as a strict deserializer reads it before any member is
// checked (SearchVectors' request, vectorsearch's strict_decode.go),
// in the one reading every request gets:
//
//   - a member tagged strict:"<what>" given as JSON null is a
//     SerializationException "invalid type: null, expected <what> at
//     line L column C", C the column of the null's last byte;
//   - a member tagged strict:"<what>,required" that the object lacks is
//     a ValidationException "missing field `<name>` at line L column C",
//     C the column of its closing brace (the first such member in the
//     struct's order).
//
// Lines and columns are 1-based and count bytes from the object's '{'.
// The first of these in the body wins over every error of the common
// reading but a syntax error anywhere (run's); the other members, and
// the members the struct does not have, are read as structOf reads
// them, null or not. An error that ends the common reading of a member
// (a B value that is not base64, a placeholder map over its limit) does
// not end the strict reading: that member is read again from its start
// as JSON only (skipValue), the members after it only so, and the error
// is returned if the strict reading finds nothing. A strict struct has
// no member with a policy of Limits and no MemberOwner; the bytes of an
// attribute's own list over the item size limit that the window drops
// (overList) are counted as they go (place).
type strictField struct {
	field
	what     string // what a null of it is expected as; "" for none
	required int    // its bit among the required members; -1 for none
}

// strictOf returns the codec of struct t if it is a strict request, or
// nil.
func (b *builder) strictOf(t reflect.Type) codec {
	members, owner := structFields(t)
	s := strictFields(t, members)
	if s == nil {
		return nil
	}
	if owner >= 0 || len(s.required) > 64 {
		panic(unsupported(fmt.Sprintf("emulator: request decoder does not support a MemberOwner or over 64 required members in strict %s", t)))
	}
	for name, f := range s.fields {
		if b.lim.list(t, name) != nil {
			panic(unsupported(fmt.Sprintf("emulator: request decoder does not support Limits on strict %s's %s", t, name)))
		}
		f.dec = b.codec(members[name].t)
		s.fields[name] = f
	}
	return s.decode
}

// A strictStruct is the reading of a strict request's struct: its
// members by name, and the names of its required ones in the struct's
// order, each at its strictField.required bit.
type strictStruct struct {
	fields   map[string]strictField
	required []string
}

// strictFields returns the members of struct t (structFields') with
// their strict tags, their codecs not yet set, or nil when no member has
// a strict tag. It panics on a tag it does not know.
func strictFields(t reflect.Type, members map[string]member) *strictStruct {
	names := make([]string, 0, len(members)) // in the struct's order
	index := func(name string) []int { m := members[name].f; return append(slices.Clip(m.path), m.index) }
	for name := range members {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int { return slices.Compare(index(a), index(b)) })
	s := &strictStruct{fields: make(map[string]strictField, len(members))}
	strict := false
	for _, name := range names {
		what, opt, _ := CutComma(t.FieldByIndex(index(name)).Tag.Get("strict"))
		f := strictField{field: members[name].f, what: what, required: -1}
		switch {
		case what != "" && opt == "required":
			f.required = len(s.required)
			s.required = append(s.required, name)
		case opt != "":
			panic(unsupported(fmt.Sprintf("emulator: request decoder does not support strict tag %q in %s", opt, t)))
		}
		strict = strict || what != ""
		s.fields[name] = f
	}
	if !strict {
		return nil
	}
	return s
}

// strictRead is what the reading of a strict object has met so far.
type strictRead struct {
	stopped error  // what ended the common reading
	seen    uint64 // the required members read, by bit
}

// decode is the codec of a strict struct.
func (s *strictStruct) decode(d *reqDecoder, v reflect.Value, depth int) error {
	if done, err := d.openObject(v.Type(), depth); done || err != nil {
		return err
	}
	pl := &place{at: d.pos}
	d.place = pl
	d.pos++
	var r strictRead
	for more := d.peek() != '}'; more; {
		if err := s.member(d, v, depth, pl, &r); err != nil {
			return err
		}
		if more = d.peek() == ','; more {
			d.pos++
		}
	}
	if d.peek() != '}' {
		return d.syntax()
	}
	d.pos++
	for i, name := range s.required {
		if r.seen&(1<<i) == 0 {
			line, col := pl.end(d.data, d.pos)
			return apierr.Validation(fmt.Sprintf("missing field `%s` at line %d column %d", name, line, col))
		}
	}
	return r.stopped
}

// member reads one member of a strict object, its name to its value's
// end: a strict member's null is the error; a member the struct does
// not have, and every member once the common reading stopped, is read
// as JSON only.
func (s *strictStruct) member(d *reqDecoder, v reflect.Value, depth int, pl *place, r *strictRead) error {
	key, err := d.readKey()
	if err != nil {
		return err
	}
	if err := d.expect(':'); err != nil {
		return err
	}
	f, ok := s.fields[string(key)]
	if ok && f.what != "" && d.peek() == 'n' {
		if err := d.literal("null"); err != nil {
			return err
		}
		line, col := pl.end(d.data, d.pos)
		return apierr.Serialization(fmt.Sprintf("invalid type: null, expected %s at line %d column %d", f.what, line, col))
	}
	if ok && f.required >= 0 {
		r.seen |= 1 << f.required
	}
	if ok && r.stopped == nil {
		start := d.pos
		if r.stopped = f.dec(d, f.at(v), depth+1); r.stopped == nil {
			return nil
		}
		d.pos = start
	}
	return d.skipValue(depth + 1)
}
