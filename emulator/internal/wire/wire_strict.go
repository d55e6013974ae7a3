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
	names := make([]string, 0, len(members)) // in the struct's order
	index := func(name string) []int { m := members[name].f; return append(slices.Clip(m.path), m.index) }
	for name := range members {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int { return slices.Compare(index(a), index(b)) })
	fields := make(map[string]strictField, len(members))
	var required []string
	for _, name := range names {
		what, opt, _ := CutComma(t.FieldByIndex(index(name)).Tag.Get("strict"))
		f := strictField{field: members[name].f, what: what, required: -1}
		switch {
		case what != "" && opt == "required":
			f.required = len(required)
			required = append(required, name)
		case opt != "":
			panic(unsupported(fmt.Sprintf("emulator: request decoder does not support strict tag %q in %s", opt, t)))
		}
		fields[name] = f
	}
	if !slices.ContainsFunc(names, func(name string) bool { return fields[name].what != "" }) {
		return nil
	}
	if owner >= 0 || len(required) > 64 {
		panic(unsupported(fmt.Sprintf("emulator: request decoder does not support a MemberOwner or over 64 required members in strict %s", t)))
	}
	for name, f := range fields {
		if b.lim.list(t, name) != nil {
			panic(unsupported(fmt.Sprintf("emulator: request decoder does not support Limits on strict %s's %s", t, name)))
		}
		f.dec = b.codec(members[name].t)
		fields[name] = f
	}
	return func(d *reqDecoder, v reflect.Value, depth int) error {
		if done, err := d.openObject(v.Type(), depth); done || err != nil {
			return err
		}
		pl := &place{at: d.pos}
		d.place = pl
		d.pos++
		var stopped error // what ended the common reading
		var seen uint64   // the required members read, by bit
		for more := d.peek() != '}'; more; {
			key, err := d.readKey()
			if err != nil {
				return err
			}
			if err := d.expect(':'); err != nil {
				return err
			}
			f, ok := fields[string(key)]
			if ok && f.what != "" && d.peek() == 'n' {
				if err := d.literal("null"); err != nil {
					return err
				}
				line, col := pl.end(d.data, d.pos)
				return apierr.Serialization(fmt.Sprintf("invalid type: null, expected %s at line %d column %d", f.what, line, col))
			}
			if ok && f.required >= 0 {
				seen |= 1 << f.required
			}
			start := d.pos
			if ok && stopped == nil {
				if stopped = f.dec(d, f.at(v), depth+1); stopped != nil {
					d.pos = start
				}
			}
			if !ok || stopped != nil {
				if err := d.skipValue(depth + 1); err != nil {
					return err
				}
			}
			if more = d.peek() == ','; more {
				d.pos++
			}
		}
		if d.peek() != '}' {
			return d.syntax()
		}
		d.pos++
		for i, name := range required {
			if seen&(1<<i) == 0 {
				line, col := pl.end(d.data, d.pos)
				return apierr.Validation(fmt.Sprintf("missing field `%s` at line %d column %d", name, line, col))
			}
		}
		return stopped
	}
}
