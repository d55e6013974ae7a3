package wire

import (
	"reflect"
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/expr"
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
	slices.SortStableFunc(conds, func(a, b expr.NamedCondition) int { return strings.Compare(a.Name, b.Name) })
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
