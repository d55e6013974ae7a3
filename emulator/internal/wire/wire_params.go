package wire

import "reflect"

// KeptParams is how many of a Params list's values are kept: a
// statement of at most 8,192 characters (ExecuteStatement's limit)
// has no more ?s.
const KeptParams = 8192

// Params is ExecuteStatement's Parameters: each value is decoded and
// checked as a []AttributeValue's element is (the same faults, in the
// same order), but only the first KeptParams are kept, and the count of
// the others; a statement binds its ?s to the first values and ignores
// the rest (DynamoDB Local does). 246,720 values (a 4 MB request) kept
// whole were 7.9 MB, 1.9 times the body, and their strings 0.45 more
// (BenchmarkOversizeMemory/Parameters).
type Params struct {
	vals  []AttributeValue // the first KeptParams values
	n     int              // how many values the list gave
	given bool             // the list was given (it may be empty)
}

// Given reports whether the request gave the list (JSON null is not).
func (p *Params) Given() bool { return p.given }

// Len is how many values the list gave.
func (p *Params) Len() int { return p.n }

// Kept returns the first min(Len, KeptParams) values.
func (p *Params) Kept() []AttributeValue { return p.vals }

// decodeParams reads a list of attribute values into a Params (v) as
// sliceOf reads it into a []AttributeValue: values past KeptParams are
// decoded into one scratch value, then dropped with their bytes (as
// limits.go drops a list's elements).
func decodeParams(d *reqDecoder, v reflect.Value, depth int) error {
	if ok, err := d.listStart(v, reflect.TypeFor[[]AttributeValue](), depth); !ok {
		return err
	}
	p := v.Addr().Interface().(*Params)
	vals := reflect.ValueOf(&p.vals).Elem()
	var scratch AttributeValue
	sv := reflect.ValueOf(&scratch).Elem()
	end := d.pos + 1 // after the last value kept, or the '['
	n, err := d.readList(depth, false, func(i, _ int) error {
		if i < KeptParams {
			err := decodeAttributeValue(d, elemAt(vals, i, -1), depth+1)
			end = d.pos
			return err
		}
		scratch = AttributeValue{}
		text := d.text
		d.viewText()
		err := decodeAttributeValue(d, sv, depth+1)
		d.text = text
		d.drop(end)
		return err
	})
	if err != nil {
		return err
	}
	endSlice(vals, min(n, KeptParams))
	p.n, p.given = n, true
	return nil
}
