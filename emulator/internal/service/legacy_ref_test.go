package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/expr"
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
