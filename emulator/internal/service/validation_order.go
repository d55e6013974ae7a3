package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/readparams"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/expr"
)

// The order in which each request kind is validated: when a request has
// more than one error, AWS answers the first layer's, and within the
// member constraints it lists every violation together in one message
// (except where said). Each operation's validate code follows its row;
// conformance/validation_order_test.go sends pairs of errors and expects
// the earlier layer's answer. Sources: AWS's answers recorded in
// paritysuite/dynamodb-conformance (tests/tier3/validation-ordering/*,
// captured in us-east-1 and eu-west-2, 2026-10-09).
//
// The layers, top to bottom:
//
//	constraints  the request's shape and member constraints (enums, lengths,
//	             required members, table name patterns), listed together
//	syntax       expression syntax, the mix of expression and legacy members
//	size         expression sizes, unused and undefined placeholders
//	values       attribute values: numbers, duplicate set members, empty
//	             names, nesting depth (see "The values layer" below)
//	table        the table (and index) lookup: ResourceNotFoundException
//	item         per-item checks against the schema: keys, index keys, sizes
//
// Per request kind:
//
//	PutItem, DeleteItem   constraints (tableName, returnValues,
//	                      returnConsumedCapacity, returnItemCollectionMetrics,
//	                      returnValuesOnConditionCheckFailure,
//	                      conditionalOperator, item/key) > syntax > size >
//	                      table > item
//	UpdateItem            as PutItem, but its constraints (updateItemConstraints):
//	                      with Key absent every violation, member by member
//	                      (returnConsumedCapacity, tableName, returnValues, ...,
//	                      conditionalOperator, key); with Key present only the
//	                      first one (tableName, returnValues,
//	                      returnConsumedCapacity, ...)
//	Query                 constraints > syntax > key condition operands and
//	                      size > table > index > item
//	TransactWriteItems    constraints (transactItems: null, empty, over 100;
//	                      each action's required members and enums;
//	                      returnConsumedCapacity, returnItemCollectionMetrics,
//	                      clientRequestToken) > each entry's shape > each
//	                      action in request order: table name, syntax, size,
//	                      Put item size > every action's table > each action's
//	                      key (an empty or over-long value: ValidationException;
//	                      one that does not fit the schema: the action's
//	                      ValidationError cancellation reason) > the same item
//	                      twice > the payload size > cancellation for the
//	                      item-level reasons (None for the other actions)
//	TransactGetItems      as TransactWriteItems with Gets (projection for
//	                      expressions)
//	BatchGetItem          constraints (requestItems: null, empty, malformed
//	                      table names, each table's Keys; then
//	                      returnConsumedCapacity) > the mix of expression and
//	                      legacy members > total keys > per table: table,
//	                      projection, keys, duplicates
//	BatchWriteItem        constraints (returnConsumedCapacity,
//	                      returnItemCollectionMetrics, requestItems, each
//	                      table's list: empty or over 25) > malformed table
//	                      names, alone > total requests > request shape and item
//	                      sizes > per table: table, keys, duplicates
//	CreateTable           constraints (attributeDefinitions, tableName,
//	                      billingMode, provisionedThroughput, keySchema, the
//	                      global secondary indexes, then the local ones,
//	                      streamSpecification, sseSpecification, tableClass) >
//	                      tags > the key schema and indexes' semantics
//
// The values layer (value_order.go): the request decoder reads past a
// value's error (wire.Deferred) and PutItem, UpdateItem, DeleteItem,
// GetItem, Query, the batch and the transaction operations report it
// after their constraints, syntax and sizes and before the table; a
// transaction at each action's place (an earlier action's value error
// before a later action's syntax error: paritysuite deepRequests.test.ts).
// Within one item AWS checks the item's own attribute names first, then
// the nesting depth, then the rest. Scan and the other operations answer
// a value's error before their own checks (Scan: deepRequests.test.ts,
// us-east-1). Not modelled: past about 62 levels AWS's single-item
// operations read the request in an older form (other enum wordings).

// updateItemConstraints is UpdateItem's constraints layer (see above):
// AWS's records show every violation, member by member, when Key is
// absent, and only the first when it is present.
func updateItemConstraints(in *UpdateItemInput) error {
	name1, name2 := tablespec.TableNameViolations(in.TableName)
	rv := apierr.EnumViolation(paramReturnValues, in.ReturnValues, enumReturnValues)
	rcc := readparams.ReturnConsumedCapacityViolation(in.ReturnConsumedCapacity)
	ricm := apierr.EnumViolation(paramReturnICM, in.ReturnItemCollectionMetrics, enumReturnICM)
	rvoccf := readparams.RVOCCFViolation("", in.ReturnValuesOnConditionCheckFailure)
	condOp := apierr.EnumViolation(paramConditionalOpWire, in.ConditionalOperator, enumConditionalOp)
	expectedOpV := readparams.ComparisonOpViolation("expected", in.Expected.UnknownOps(), expr.LegacyOp.String)
	if in.Key == nil {
		return apierr.ConstraintErrors(rcc, name1, name2, rv, ricm, rvoccf, condOp, expectedOpV, apierr.NullViolation("key", true))
	}
	for _, v := range []string{name1, name2, rv, rcc, ricm, rvoccf, condOp, expectedOpV} {
		if v != "" {
			return apierr.ConstraintErrors(v)
		}
	}
	return nil
}
