package service

import (
	"reflect"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Condition is one entry of a legacy condition map as a request gives
// it. The server reads KeyConditions, QueryFilter and ScanFilter as lists
// (wire.KeyConditions, expr.LegacyFilter); the tests decode them as maps
// of Conditions too, the way the server once did, and compare.
type Condition = wire.Condition

// conditionOp is a Condition's ComparisonOperator, "" when absent.
func conditionOp(c Condition) string {
	if c.ComparisonOperator == nil {
		return ""
	}
	return *c.ComparisonOperator
}

// legacyConditions converts a map of Conditions to expr's plain structs,
// as the server did before it read the lists.
func legacyConditions(m map[string]Condition) []expr.NamedCondition {
	out := make([]expr.NamedCondition, 0, len(m))
	for name, c := range m {
		nc := expr.NamedCondition{Name: name, AttributeValueList: wire.ValuesOf(c.AttributeValueList)}
		if c.ComparisonOperator != nil {
			nc.ComparisonOperator = *c.ComparisonOperator
		}
		out = append(out, nc)
	}
	return out
}

// ExpectedAttributeValue is one entry of the legacy Expected map as a
// request gives it. The server reads Expected as a list
// (expr.LegacyExpected); the tests decode it as a map too, the way the
// server once did, and compare.
type ExpectedAttributeValue = wire.ExpectedCondition

// expectedConditions converts an Expected map to the map expr.Expected
// takes, as the server did before it read the list.
func expectedConditions(expected map[string]ExpectedAttributeValue) map[string]expr.LegacyCondition {
	legacy := make(map[string]expr.LegacyCondition, len(expected))
	for name, e := range expected {
		lc := expr.LegacyCondition{ComparisonOperator: e.ComparisonOperator, Exists: e.Exists}
		if e.Value != nil {
			v := e.Value.Value
			lc.Value = &v
		}
		if e.AttributeValueList != nil {
			lc.AttributeValueList = make([]storage.Value, len(e.AttributeValueList))
			for i, av := range e.AttributeValueList {
				lc.AttributeValueList[i] = av.Value
			}
		}
		legacy[name] = lc
	}
	return legacy
}

// expectedOfMap is the list of an Expected map, as its decoder makes it
// (nil for nil).
func expectedOfMap(expected map[string]ExpectedAttributeValue) *expr.LegacyExpected {
	if expected == nil {
		return nil
	}
	ex := new(expr.LegacyExpected)
	for name, c := range expectedConditions(expected) {
		ex.Add(name, c)
	}
	ex.Distinct()
	return ex
}

// expectedOfInput is the Expected member of a write's input, nil of any
// other input.
func expectedOfInput(in any) **expr.LegacyExpected {
	switch in := in.(type) {
	case *PutItemInput:
		return &in.Expected
	case *UpdateItemInput:
		return &in.Expected
	case *DeleteItemInput:
		return &in.Expected
	}
	return nil
}

// sameExpected reports whether got and want (inputs of one type) have
// the same Expected entries, and then leaves both without one: the
// lists hold them in the order read, so are compared by their entries.
func sameExpected(got, want any) bool {
	g, w := expectedOfInput(got), expectedOfInput(want)
	if g == nil {
		return true
	}
	same := (*g == nil) == (*w == nil) && (*g == nil || reflect.DeepEqual((*g).Conditions(), (*w).Conditions()))
	*g, *w = nil, nil
	return same
}
