package expr

import "github.com/dynamoemu/dynamoemu/internal/lease"

// CheckKeyCondition makes the checks of a KeyConditionExpression that need
// no key schema (syntax, placeholders, operand types, the shape of each
// condition), in the order DynamoDB makes them, so that a caller can
// report their errors before it looks up the table (AWS's order: a bad
// operand is reported ahead of a missing table, as recorded in
// paritysuite/dynamodb-conformance, tests/tier3/validation-ordering/
// queryKeyCondition.test.ts). The number of conditions is left to
// KeyCondition, which knows the key schema. A later KeyCondition of the
// same text is a cache hit.
func (c *Compiler) CheckKeyCondition(text string) error {
	lease.Check(c)
	var buf [4]keyTerm // most conditions: no allocation
	_, _, err := c.keyTerms(text, anyKeyTerms, buf[:0])
	return err
}
