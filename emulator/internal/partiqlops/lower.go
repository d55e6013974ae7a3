package partiqlops

import (
	"errors"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/partiql/lower"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// PartiQL runs on package expr through partiql/lower: a statement's WHERE
// clause, SELECT list and SET and REMOVE actions are lowered straight into
// expr's trees and compiled, as a ConditionExpression, KeyConditionExpression,
// ProjectionExpression or UpdateExpression would be. Nothing is printed as
// expression text and parsed again; there is no second evaluator. What
// needs the table (the lookup, the key values' own rules, item sizes,
// index keys, the conventions layer) is the core's (service's
// feature_statements.go).

// binding is a statement's text and parameters as the lowering takes them.
func binding(text string, params []storage.Value) lower.Binding {
	return lower.Binding{Src: text, Params: params}
}

// lowered words an error of the lowering as the API answers it: a
// ValidationException with the lowering's message, an itemRuleError when
// it is an error of the statement's item (ExecuteTransaction cancels with
// those).
func lowered(err error) error {
	var le *lower.Error
	if !errors.As(err, &le) {
		return err
	}
	ae := &apierr.Error{Class: apierr.ErrValidation, Msg: le.Msg, Cause: err}
	if le.Item {
		return itemRule(ae)
	}
	return ae
}

// statementKey makes the storage key of the key attributes a statement
// names, with the key values' own rules (an error of the item).
func statementKey(t service.Table, key storage.Item) (storage.Key, error) {
	k, err := t.KeyFromKeyParam(key)
	return k, itemRule(err)
}
