package wire

import (
	"reflect"

	"github.com/dynamoemu/dynamoemu/internal/expr"
)

// A QueryFilter or ScanFilter is read into an expr.LegacyFilter: its
// entries in a list and their values in one array (expr's legacy_read.go
// says what that saves). The JSON object is read as a map of conditions
// is: each entry's value by Condition's decoder, so its faults are worded and
// ordered as before; a name given twice keeps its last entry (Distinct).

// decodeLegacyFilter reads a QueryFilter's or ScanFilter's JSON object
// into v (an expr.LegacyFilter) as mapCodec reads a map.
func decodeLegacyFilter(d *reqDecoder, v reflect.Value, depth int) error {
	switch d.peek() {
	case '{':
	case 'n':
		return d.setNull(v)
	default:
		// A map's wording: "Expected map...".
		return d.mismatch(conditionMapType)
	}
	if depth >= maxJSONDepth {
		return d.syntax()
	}
	d.pos++
	// A filter given twice adds its entries to the first's, as a map
	// decoded into again does.
	fc := v.Addr().Interface().(*expr.LegacyFilter)
	if d.peek() == '}' {
		d.pos++
		return nil
	}
	entryCodec := codecOf(reflect.TypeFor[Condition]())
	var e Condition
	ev := reflect.ValueOf(&e).Elem()
	// Each entry is read into e, its values into room reused from one
	// entry to the next (cleared, so each is read as into a new list)
	// and then appended to fc.Vals: no list and no operator string an
	// entry.
	var room []AttributeValue
	var op string
	nvals := 0
	for i := 0; ; i++ {
		if i == longList {
			// Sized at once for all the members, as mapCodec sizes a map:
			// the values by the mean of the entries read so far.
			fc.Grow(d.membersLeft(depth), (nvals+i-1)/i)
		}
		name, err := d.readString()
		if err != nil {
			return d.syntax()
		}
		if err := d.expect(':'); err != nil {
			return err
		}
		clear(room[:cap(room)])
		op = ""
		e = Condition{AttributeValueList: room[:0], ComparisonOperator: &op}
		if err := entryCodec(d, ev, depth+1); err != nil {
			return err
		}
		entryOp := ""
		if e.ComparisonOperator != nil {
			entryOp = *e.ComparisonOperator
		}
		fc.Add(name, entryOp, ValuesOf(e.AttributeValueList))
		nvals += len(e.AttributeValueList)
		if cap(e.AttributeValueList) > cap(room) {
			room = e.AttributeValueList
		}
		switch d.peek() {
		case ',':
			d.pos++
		case '}':
			d.pos++
			fc.Distinct()
			return nil
		default:
			return d.syntax()
		}
	}
}
