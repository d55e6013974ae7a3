package shapes

// Put is one item's put with its condition: a transaction's Put action
// (the service's TransactPut) and a line of a bulk import's input file,
// which carries the same members. I holds the item, N the expression
// attribute names and V their values: the emulator's wire types in a
// transaction; in a file's line, the raw JSON that is refused line by
// line into the operation's report.
type Put[I, N, V any] struct {
	TableName                           *string `json:"TableName"`
	Item                                I       `json:"Item"`
	ConditionExpression                 *string `json:"ConditionExpression"`
	ExpressionAttributeNames            N       `json:"ExpressionAttributeNames"`
	ExpressionAttributeValues           V       `json:"ExpressionAttributeValues"`
	ReturnValuesOnConditionCheckFailure *string `json:"ReturnValuesOnConditionCheckFailure"`
}
