package apierr

// Messages of the single-item operations and the data-plane helpers they
// share (keys, expression parameters, item collections), AWS's exact
// wording.

// Data-plane messages, AWS's exact wording.
const (
	MsgKeySchemaMismatch = "The provided key element does not match the schema"
	MsgKeyMissingInItem  = "One or more parameter values were invalid: Missing the key %s in the item"
	MsgKeyTypeMismatch   = "One or more parameter values were invalid: Type mismatch for key %s expected: %s actual: %s"
	MsgKeyEmptyString    = "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: %s"
	MsgKeyEmptyBinary    = "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty binary value. Key: %s"
	// AWS really writes "of2048" without a space.
	MsgHashKeyTooLong  = "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"
	MsgRangeKeyTooLong = "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes"

	MsgMixedExpressionParams = "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {%s} Expression parameters: {%s}"
	MsgNamesWithoutExpr      = "ExpressionAttributeNames can only be specified when using expressions"
	MsgValuesWithoutExpr     = "ExpressionAttributeValues can only be specified when using expressions: %s"
	MsgNamesEmpty            = "ExpressionAttributeNames must not be empty"
	MsgValuesEmpty           = "ExpressionAttributeValues must not be empty"
)

// Single-item operation messages, AWS's exact wording.
const (
	MsgItemTooLarge          = "Item size has exceeded the maximum allowed size"
	MsgUpdatedItemTooLarge   = "Item size to update has exceeded the maximum allowed size"
	MsgReturnValuesPutDelete = "ReturnValues can only be ALL_OLD or NONE"
	MsgCannotUpdateKey       = "One or more parameter values were invalid: Cannot update attribute %s. This attribute is part of the key"
)

// MsgCollectionSizeExceeded is the message of
// ItemCollectionSizeLimitExceededException as AWS's error table in the
// developer guide ("Error handling with DynamoDB") gives it.
const MsgCollectionSizeExceeded = "Collection size exceeded."

// Index key messages: AWS's wording as quoted in reports of real errors
// (DynamoDB Local stops at "Type mismatch for Index Key").
const (
	MsgIndexKeyTypeMismatch = "One or more parameter values were invalid: Type mismatch for Index Key %s Expected: %s Actual: %s IndexName: %s"
	MsgIndexKeyEmpty        = "One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty %s value. IndexName: %s, IndexKey: %s"
	MsgUpdateIndexKeyEmpty  = "One or more parameter values are not valid. The update expression attempted to update a secondary index key to a value that is not supported. The AttributeValue for a key attribute cannot contain an empty %s value."
)

// MsgUpdateNesting is UpdateItem's answer when an update nests values
// deeper than DynamoDB allows (PutItem's wording is longer: see wire_decode.go).
const MsgUpdateNesting = "Nesting Levels have exceeded supported limits"
