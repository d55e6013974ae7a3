package wire

import (
	"reflect"

	"github.com/dynamoemu/dynamoemu/internal/expr"
)

// The AttributesToGet of GetItem, Query and Scan is read into an
// expr.NameList, which their compiled projection reads until the answer
// is written: a name written without escapes is kept as its offset in
// the request body (4 bytes), not a string (16) or a copy. Views of the
// body as strings were 0.7 times the bytes of a 4 MB GetItem's 381,295
// names of 8, their headers 1.45 times.

// decodeNameView is decodeString for a NameList's element: the same
// string, a view of the body where it has no escapes.
func decodeNameView(d *reqDecoder, v reflect.Value, depth int) error {
	if d.peek() != '"' {
		return decodeString(d, v, depth)
	}
	s, err := d.stringView()
	if err != nil {
		return err
	}
	v.SetString(s)
	return nil
}

// decodeNameList reads a list of names into an expr.NameList (v) as
// sliceOf reads it into a []string (AttributeNames): the same faults, in
// the same order. A name written without escapes is kept as its offset
// in the body, 4 bytes where a string header took 16.
func decodeNameList(d *reqDecoder, v reflect.Value, depth int) error {
	if ok, err := d.listStart(v, reflect.TypeFor[[]string](), depth); !ok {
		return err
	}
	l := v.Addr().Interface().(*expr.NameList)
	// A list given twice is read as into the first one's elements: a
	// null keeps the first's name at its place.
	prev := *l
	l.Reset(d.bodyText())
	var name string
	nv := reflect.ValueOf(&name).Elem()
	_, err := d.readList(depth, true, func(i, left int) error {
		if left >= 0 {
			l.Grow(left)
		}
		name = ""
		if i < prev.Len() {
			name = prev.At(i)
		}
		d.peek() // past spaces: a name's text starts after its '"'
		start := d.pos + 1
		if err := decodeNameView(d, nv, depth+1); err != nil {
			return err
		}
		l.Retext(d.bodyText()) // the window as it has grown
		l.Add(name, start)
		return nil
	})
	return err
}
