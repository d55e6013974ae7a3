package wire

import (
	"errors"
	"reflect"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// ExpressionValues is the ExpressionAttributeValues parameter: placeholder
// (":v") to value. Its decoder words value errors as DynamoDB does for this
// parameter: "ExpressionAttributeValues contains invalid value: <reason> for
// key :v", and keeps no map of more than 2 MB (wire_placeholders.go). It
// has the underlying type of the maps expr compiles against, so Values
// copies nothing.
type ExpressionValues map[string]storage.Value

// UnmarshalJSON decodes and validates the placeholders' values. A map
// that is whole JSON but holds a malformed value is kept, and the error
// returned is a *ValueError: the request decoder records it and goes on
// (see Deferred).
func (x *ExpressionValues) UnmarshalJSON(data []byte) error { return x.unmarshal(data, false) }

// unmarshal is UnmarshalJSON, cutting the lists over the item size
// limit when cut is set (UpdateValues).
func (x *ExpressionValues) unmarshal(data []byte, cut bool) error {
	d := decoder{data: data}
	if d.peek() == 'n' && d.consumeLiteral("null") {
		*x = nil
		return d.end()
	}
	if d.peek() != '{' {
		return d.mapTypeError()
	}
	entries := 0 // known after a measuring pass: the map is made for them
	if len(data) > MaxSubstitutionBytes {
		// Measure first, keeping nothing (JSON is never shorter than what
		// it measures, so a shorter map needs no such pass).
		var w Witnesses[storage.Value]
		size, verr, err := decodeValues(data, nil, &w, cut)
		if err != nil {
			return err
		}
		if size > MaxSubstitutionBytes {
			if verr != nil {
				// A map over the limit answers its value's fault first,
				// and at once (DynamoDB Local's order; AWS's unrecorded).
				return verr
			}
			*x = w.StandIn()
			return nil
		}
		// Made at its size, the map of 190,646 values (a 4 MB Query)
		// never grows: BenchmarkOversizeMemory.
		entries = w.Seen()
	}
	out := ExpressionValues(valueMap(entries)) // may be reused (wire_recycle.go)
	_, verr, err := decodeValues(data, out, nil, cut)
	if err != nil {
		return err
	}
	*x = out
	return valueError(verr)
}

// decodeValues reads an ExpressionAttributeValues object into out, or,
// with out nil, only validates and measures its entries and shows them to
// w, cutting its lists over the item size limit when cut is set. It
// returns their size and the first validation error of a value (verr);
// err is a syntax or serialization error.
func decodeValues(data []byte, out ExpressionValues, w *Witnesses[storage.Value], cut bool) (size int, verr, err error) {
	d := decoder{data: data, cutValues: cut}
	d.skipSpace()
	if size, err = d.values(out, w); err != nil {
		return 0, nil, err
	}
	if err := d.end(); err != nil {
		return 0, nil, err
	}
	return size, d.verr, nil
}

// values is decodeValues on d, at the object's '{': it reads the object
// and no further, and leaves the first validation error of a value in
// d.verr.
func (d *decoder) values(out ExpressionValues, w *Witnesses[storage.Value]) (size int, err error) {
	d.pos++ // '{'
	// Keys are copied only when kept.
	read := func() (string, error) {
		if out == nil {
			return d.stringView()
		}
		return d.readString()
	}
	if d.peek() == '}' {
		d.pos++
	} else {
		for {
			name, err := read()
			if err != nil {
				return 0, d.syntax()
			}
			if err := d.expect(':'); err != nil {
				return 0, err
			}
			if d.isNull() {
				d.validation(apierr.MsgExprValueInvalid + apierr.MsgNullInList + apierr.MsgExprValueForKey + name)
			} else {
				before := d.verr
				v, err := d.attrValue(1)
				if err != nil {
					if errors.Is(err, apierr.ErrValidation) && before == nil {
						err = inExprValue(err, name)
					}
					return 0, err
				}
				if d.verr != before {
					d.verr = inExprValue(d.verr, name)
				}
				size += len(name) + cutValueSize(v)
				if out != nil {
					out[name] = v
				} else {
					w.See(':', name, storage.Null(), "")
				}
			}
			switch d.peek() {
			case ',':
				d.pos++
				continue
			case '}':
				d.pos++
			default:
				return 0, d.syntax()
			}
			break
		}
	}
	return size, nil
}

// setValues sets v, an ExpressionValues or an UpdateValues, to m: by
// their pointers, where reflect's Convert would link its conversions
// for this one (24,576 bytes of the shipped binary).
func setValues(v reflect.Value, m ExpressionValues) {
	switch p := v.Addr().Interface().(type) {
	case *UpdateValues:
		*p = UpdateValues(m)
	case *ExpressionValues:
		*p = m
	default:
		panic("wire: expression values decoded into " + v.Type().String())
	}
}

// decodeExpressionValues is the request decoder's codec for
// ExpressionValues: UnmarshalJSON's answers without its first pass. When
// what is left of the request is within the size limit, so is the map:
// it is read on the request's scanner (its strings views of the request
// body, as an item's are). Anything else (null, another JSON type, a map
// that may be over the limit, or one that ends in an error, whose
// error is to be the one UnmarshalJSON finds after skipping the whole
// value) goes through UnmarshalJSON as before.
func decodeExpressionValues(d *reqDecoder, v reflect.Value, depth int) error {
	if len(d.data)-d.pos >= compactMinBytes() && d.peek() == '{' && depth < maxJSONDepth {
		if m, ok := decodeCompactValues(d); ok { // many entries (wire_compact.go)
			setValues(v, m)
			return nil
		}
	}
	if d.peek() != '{' || len(d.data)-d.pos > MaxSubstitutionBytes || depth >= maxJSONDepth {
		return decodeUnmarshaler(d, v, depth)
	}
	start := d.pos
	d.keepBody()
	d.text, d.textOff = d.body, 0 // "" (strings of their own) when the body is too large
	d.verr, d.vrank = nil, 0
	out := ExpressionValues(valueMap(0)) // may be reused (wire_recycle.go)
	_, err := d.values(out, nil)
	verr := d.verr
	d.text, d.textOff, d.verr, d.vrank = "", 0, nil, 0
	if err != nil {
		d.pos = start
		return decodeUnmarshaler(d, v, depth)
	}
	setValues(v, out)
	if verr != nil {
		d.deferValue(verr)
	}
	return nil
}

// Values returns the placeholders' values as storage values: the same
// map, not a copy.
func (x ExpressionValues) Values() map[string]storage.Value { return x }

// inExprValue is err, the error of the expression value name, framed as
// AWS's older layer frames it ("ExpressionAttributeValues contains invalid
// value: <error> for key <name>"); a malformed value keeps its fault, for
// apierr.Relayer.
func inExprValue(err error, name string) error {
	var f *apierr.ValueFault
	if errors.As(err, &f) {
		return f.InExprValue(name).Err()
	}
	return apierr.Validation(apierr.MsgExprValueInvalid + err.Error() + apierr.MsgExprValueForKey + name)
}
