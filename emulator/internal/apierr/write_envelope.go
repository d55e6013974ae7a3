package apierr

import (
	"strings"
)

// WriteRequestEnvelope words the request-validation errors of PutItem,
// DeleteItem and UpdateItem as AWS does: inside the "1 validation error
// detected: " envelope, and the ExpressionAttributeValues message without
// its ": ConditionExpression is null" suffix (AWS's answers in us-east-1
// and eu-west-2, 2026-10-09, as recorded in paritysuite/
// dynamodb-conformance tests/tier3/error-messages/putItem.test.ts and
// deleteItem.test.ts; UpdateItem's "as PutItem and UpdateItem do" there).
// Expression syntax, size and placeholder errors, and the mix of
// expression and legacy members, stay bare. The transactions, which share
// the checks, answer them bare. Any other error is returned as it is.
func WriteRequestEnvelope(err error) error {
	ae, ok := Classify(err)
	if !ok || ae.Class != ErrValidation {
		return err
	}
	msg := ae.Msg
	valuesWithoutExpr, _, _ := strings.Cut(MsgValuesWithoutExpr, ":")
	switch {
	case strings.HasPrefix(msg, valuesWithoutExpr):
		msg = valuesWithoutExpr
	case msg == MsgNamesWithoutExpr, msg == MsgNamesEmpty, msg == MsgValuesEmpty,
		msg == MsgReturnValuesPutDelete, strings.HasSuffix(msg, "The expression can not be empty;"):
	case legacyConditionFault(msg):
	default:
		return err
	}
	return ConstraintErrors(msg)
}

// UpdateItemEnvelope is WriteRequestEnvelope for UpdateItem, which also
// envelopes a value its ConditionExpression uses and does not define
// ("1 validation error detected: Invalid ConditionExpression: An
// expression attribute value used in expression is not defined; attribute
// value: :v": AWS's answer in eu-west-2 and us-east-1, 2026-10-09,
// paritysuite/dynamodb-conformance tests/tier3/error-messages/
// updateItem.test.ts). PutItem's and DeleteItem's stay bare.
func UpdateItemEnvelope(err error) error {
	if ae, ok := Classify(err); ok && ae.Class == ErrValidation &&
		strings.HasPrefix(ae.Msg, "Invalid ConditionExpression: An expression attribute value used in expression is not defined;") {
		return ConstraintErrors(ae.Msg)
	}
	return WriteRequestEnvelope(err)
}

// legacyConditionFault reports whether msg is the error of a malformed
// Expected condition (package expr's legacy.go words them).
func legacyConditionFault(msg string) bool {
	rest, ok := strings.CutPrefix(msg, "One or more parameter values were invalid: ")
	if !ok {
		return false
	}
	for _, p := range []string{
		"Value must be provided when Exists is",
		"Value cannot be used when Exists is false",
		"Value and AttributeValueList cannot be used together",
		"Value or AttributeValueList must be used with ComparisonOperator",
		"Invalid number of argument(s) for the",
		"Exists and ComparisonOperator cannot be used together",
	} {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	return false
}
