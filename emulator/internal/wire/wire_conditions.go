package wire

import (
	"reflect"
	"slices"

	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// KeyConditions is Query's legacy KeyConditions map kept as the list the
// compiler takes (expr.KeyConditions): its entries sorted by name, a
// name given twice once, with its last condition, as in a map. It
// decodes as a map[string]Condition did, with the same errors, but a
// 4 MB Query of 58,254 conditions no longer holds a map of them beside
// the list made from it (each entry's slot, key and operator pointer):
// the peak went from 5.0 to 2.8-3.3 times the body (TestOversizedMembers
// in cmd/dynamoemu).
type KeyConditions []expr.NamedCondition

// Condition is one condition of a legacy KeyConditions, QueryFilter or
// ScanFilter map as the request gives it.
type Condition struct {
	AttributeValueList []AttributeValue `json:"AttributeValueList,omitempty"`
	ComparisonOperator *string          `json:"ComparisonOperator"`
}

// conditionMapType is the map KeyConditions stands for, whose type names
// a JSON value of the wrong type (mismatchMessage).
var conditionMapType = reflect.TypeFor[map[string]Condition]()

// decodeKeyConditions reads a KeyConditions as mapCodec reads a map (readObject): each entry
// decoded as the map's element, then appended, the list sorted and its
// repeated names dropped (all but the last) once the object ends. A
// member given twice adds to the list, as it adds to a map.
func decodeKeyConditions(d *reqDecoder, v reflect.Value, depth int) error {
	list := v.Addr().Interface().(*KeyConditions)
	elem := codecOf(reflect.TypeFor[Condition](), d.lim)
	var c Condition
	e := reflect.ValueOf(&c).Elem()
	err := d.readObject(v, conditionMapType, depth, func() {
		if *list == nil {
			*list = KeyConditions{}
		}
	}, func(_, left int) {
		*list = slices.Grow(*list, left)
	}, func(key string) error {
		// As the map's zeroed element, but its operator's string kept
		// for the next entry: "" is what a nil operator reads as.
		c.AttributeValueList = nil
		if c.ComparisonOperator != nil {
			*c.ComparisonOperator = ""
		}
		if err := elem(d, e, depth+1); err != nil {
			return err
		}
		nc := expr.NamedCondition{Name: key, AttributeValueList: ValuesOf(c.AttributeValueList)}
		if c.ComparisonOperator != nil {
			nc.ComparisonOperator = *c.ComparisonOperator
		}
		*list = append(*list, nc)
		return nil
	})
	if err == nil {
		*list = lastByName(*list)
	}
	return err
}

// lastByName sorts conds by name and keeps, of a name given more than
// once, its last condition.
func lastByName(conds KeyConditions) KeyConditions {
	expr.SortByName(conds)
	n := 0
	for i := range conds {
		if i+1 < len(conds) && conds[i+1].Name == conds[i].Name {
			continue
		}
		conds[n] = conds[i]
		n++
	}
	clear(conds[n:])
	return conds[:n]
}

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
	entryCodec := codecOf(reflect.TypeFor[Condition](), d.lim)
	var e Condition
	ev := reflect.ValueOf(&e).Elem()
	// Each entry is read into e, its values into room reused from one
	// entry to the next (cleared, so each is read as into a new list)
	// and then appended to fc.Vals: no list and no operator string an
	// entry.
	var room []AttributeValue
	var op string
	// A map's wording for a value of another type: "Expected map...".
	return readConditionMap(d, v, conditionMapType, depth, fc, func(name string) (int, error) {
		clear(room[:cap(room)])
		op = ""
		e = Condition{AttributeValueList: room[:0], ComparisonOperator: &op}
		if err := entryCodec(d, ev, depth+1); err != nil {
			return 0, err
		}
		entryOp := ""
		if e.ComparisonOperator != nil {
			entryOp = *e.ComparisonOperator
		}
		fc.Add(name, entryOp, ValuesOf(e.AttributeValueList))
		if cap(e.AttributeValueList) > cap(room) {
			room = e.AttributeValueList
		}
		return len(e.AttributeValueList), nil
	})
}

// conditionList is a legacy condition map read as a list
// (expr.LegacyFilter, expr.LegacyExpected).
type conditionList interface {
	Grow(n, perEntry int)
	Distinct()
}

// readConditionMap reads a legacy condition map's JSON object into l as
// mapCodec reads a map (readObject): entry reads and adds each member,
// returning how many values it had; l is sized at once for all the
// members, the values by the mean of the entries read so far; and a
// name given twice keeps its last entry (Distinct).
func readConditionMap(d *reqDecoder, v reflect.Value, mapType reflect.Type, depth int, l conditionList, entry func(name string) (int, error)) error {
	nvals := 0
	err := d.readObject(v, mapType, depth, func() {}, func(read, left int) {
		l.Grow(left, (nvals+read-1)/read)
	}, func(name string) error {
		n, err := entry(name)
		nvals += n
		return err
	})
	if err == nil {
		l.Distinct()
	}
	return err
}

// ExpectedCondition is one entry of a legacy Expected map as the request
// gives it (the wire's ExpectedAttributeValue).
type ExpectedCondition struct {
	Value              *AttributeValue  `json:"Value,omitempty"`
	Exists             *bool            `json:"Exists,omitempty"`
	ComparisonOperator string           `json:"ComparisonOperator,omitempty"`
	AttributeValueList []AttributeValue `json:"AttributeValueList,omitempty"`
}

// expectedMapType is the map an Expected stands for, whose type names a
// JSON value of the wrong type (mismatchMessage).
var expectedMapType = reflect.TypeFor[map[string]ExpectedCondition]()

// decodeLegacyExpected reads an Expected's JSON object into v (an
// expr.LegacyExpected) as decodeLegacyFilter reads a filter: each entry
// by ExpectedCondition's decoder, then added; a name given twice keeps
// its last entry.
func decodeLegacyExpected(d *reqDecoder, v reflect.Value, depth int) error {
	ex := v.Addr().Interface().(*expr.LegacyExpected)
	entryCodec := codecOf(reflect.TypeFor[ExpectedCondition](), d.lim)
	var e ExpectedCondition
	ev := reflect.ValueOf(&e).Elem()
	// The list is read into room, reused from entry to entry. room has
	// room for one at least, so a list left as it was (len 0, cap > 0)
	// was not given: one given empty is made anew with cap 0 (sliceOf),
	// one given null is nil.
	room := make([]AttributeValue, 0, 1)
	return readConditionMap(d, v, expectedMapType, depth, ex, func(name string) (int, error) {
		clear(room[:cap(room)])
		e = ExpectedCondition{AttributeValueList: room[:0]}
		if err := entryCodec(d, ev, depth+1); err != nil {
			return 0, err
		}
		list := e.AttributeValueList
		c := expr.LegacyCondition{ComparisonOperator: e.ComparisonOperator, Exists: e.Exists}
		switch {
		case len(list) > 0:
			c.AttributeValueList = ValuesOf(list)
		case list != nil && cap(list) == 0:
			c.AttributeValueList = []storage.Value{}
		}
		if e.Value != nil {
			c.Value = &e.Value.Value
		}
		ex.Add(name, c)
		if cap(list) > cap(room) {
			room = list
		}
		return len(list), nil
	})
}
