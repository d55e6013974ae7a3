package exprparams

import (
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// Params says which expression-related parameters a request carries, for
// the checks AWS runs before compiling anything.
type Params struct {
	// Expressions are the expression parameters present, in AWS's order
	// (e.g. "UpdateExpression", "ConditionExpression").
	Expressions []string
	// Legacy are the non-expression parameters present, in AWS's order
	// (e.g. "AttributeUpdates", "Expected").
	Legacy []string
	// ValueExprs are the expression parameters of the operation that may
	// use :values, in AWS's order, for the "... is null" message.
	ValueExprs []string
	Names      map[string]string
	Values     wire.ExpressionValues
	// LoneConditionalOp: ConditionalOperator was given without Expected.
	LoneConditionalOp bool
}

// AppendExpected appends to legacy the legacy condition parameters of a
// write given (Expected and ConditionalOperator, in the order AWS lists
// them) and says whether ConditionalOperator came without Expected. A
// function of values, not a method on *Params: appending through a
// pointer would move the caller's stack buffers to the heap.
func AppendExpected(legacy []string, expected bool, conditionalOperator string) ([]string, bool) {
	if expected {
		legacy = append(legacy, "Expected")
	}
	if conditionalOperator != "" {
		return append(legacy, "ConditionalOperator"), !expected
	}
	return legacy, false
}

// Check runs AWS's checks on the mix of parameters: legacy and expression
// parameters never together; placeholder maps only with expressions and
// never empty.
func (p Params) Check() error {
	if len(p.Expressions) > 0 && len(p.Legacy) > 0 {
		return apierr.Validationf(apierr.MsgMixedExpressionParams,
			strings.Join(p.Legacy, ", "), strings.Join(p.Expressions, ", "))
	}
	if p.LoneConditionalOp {
		return apierr.Validation(apierr.MsgConditionalOperatorOnly)
	}
	if p.Names != nil && len(p.Expressions) == 0 {
		return apierr.Validation(apierr.MsgNamesWithoutExpr)
	}
	if p.Values != nil && len(p.Expressions) == 0 {
		verb := " are null"
		if len(p.ValueExprs) == 1 {
			verb = " is null"
		}
		return apierr.Validationf(apierr.MsgValuesWithoutExpr, strings.Join(p.ValueExprs, " and ")+verb)
	}
	if p.Names != nil && len(p.Names) == 0 {
		return apierr.Validation(apierr.MsgNamesEmpty)
	}
	if p.Values != nil && len(p.Values) == 0 {
		return apierr.Validation(apierr.MsgValuesEmpty)
	}
	return nil
}

// AppendIf appends s to list when ok.
func AppendIf(list []string, ok bool, s string) []string {
	if ok {
		return append(list, s)
	}
	return list
}

// ValuesNeedValueExpr rejects ExpressionAttributeValues when none of the
// expressions that can use them is present (a ProjectionExpression alone
// cannot): "... FilterExpression is null".
func ValuesNeedValueExpr(values wire.ExpressionValues, valueExprs ...*string) error {
	if values == nil {
		return nil
	}
	for _, e := range valueExprs {
		if e != nil {
			return nil
		}
	}
	// Check's message for values without an expression that may use them.
	names := []string{"FilterExpression", "KeyConditionExpression"}[:len(valueExprs)]
	return Params{Values: values, ValueExprs: names}.Check()
}

// EmptyFilterOrProjection is a Query's first expression check: an empty
// FilterExpression, then an empty ProjectionExpression, is refused before
// the key condition is parsed, whatever is wrong with it (dynalite's
// suite run against AWS, test/query.js "empty FilterExpression" and
// "empty ProjectionExpression"; the project's AWS-exact issue quotes a
// 2024-2026 record of the same; DynamoDB Local 3.3.0 agrees).
func EmptyFilterOrProjection(filter, projection *string) error {
	switch {
	case filter != nil && *filter == "":
		return apierr.Validation("Invalid FilterExpression: The expression can not be empty;")
	case projection != nil && *projection == "":
		return apierr.Validation("Invalid ProjectionExpression: The expression can not be empty;")
	}
	return nil
}
