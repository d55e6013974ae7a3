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
// into v (an expr.LegacyFilter) as mapCodec reads a map (readObject).
func decodeLegacyFilter(d *reqDecoder, v reflect.Value, depth int) error {
	// A filter given twice adds its entries to the first's, as a map
	// decoded into again does.
	fc := v.Addr().Interface().(*expr.LegacyFilter)
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
	// A map's wording for a value of another type: "Expected map...".
	err := d.readObject(v, conditionMapType, depth, func() {}, func(read, left int) {
		// Sized at once for all the members, as mapCodec sizes a map:
		// the values by the mean of the entries read so far.
		fc.Grow(left, (nvals+read-1)/read)
	}, func(name string) error {
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
		return nil
	})
	if err == nil {
		fc.Distinct()
	}
	return err
}
