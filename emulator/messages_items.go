package emulator

// Messages of the single-item operations and the data-plane helpers they
// share (keys, expression parameters, item collections), AWS's exact
// wording.

// Data-plane messages, AWS's exact wording.
const (
	msgKeySchemaMismatch = "The provided key element does not match the schema"
	msgKeyMissingInItem  = "One or more parameter values were invalid: Missing the key %s in the item"
	msgKeyTypeMismatch   = "One or more parameter values were invalid: Type mismatch for key %s expected: %s actual: %s"
	msgKeyEmptyString    = "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: %s"
	msgKeyEmptyBinary    = "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty binary value. Key: %s"
	// AWS really writes "of2048" without a space.
	msgHashKeyTooLong  = "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"
	msgRangeKeyTooLong = "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes"

	msgMixedExpressionParams = "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {%s} Expression parameters: {%s}"
	msgNamesWithoutExpr      = "ExpressionAttributeNames can only be specified when using expressions"
	msgValuesWithoutExpr     = "ExpressionAttributeValues can only be specified when using expressions: %s"
	msgNamesEmpty            = "ExpressionAttributeNames must not be empty"
	msgValuesEmpty           = "ExpressionAttributeValues must not be empty"
)

// Single-item operation messages, AWS's exact wording.
const (
	msgItemTooLarge          = "Item size has exceeded the maximum allowed size"
	msgUpdatedItemTooLarge   = "Item size to update has exceeded the maximum allowed size"
	msgReturnValuesPutDelete = "ReturnValues can only be ALL_OLD or NONE"
	msgCannotUpdateKey       = "One or more parameter values were invalid: Cannot update attribute %s. This attribute is part of the key"
)

// msgCollectionSizeExceeded is the message of
// ItemCollectionSizeLimitExceededException as AWS's error table in the
// developer guide ("Error handling with DynamoDB") gives it.
const msgCollectionSizeExceeded = "Collection size exceeded."

// Index key messages: AWS's wording as quoted in reports of real errors
// (DynamoDB Local stops at "Type mismatch for Index Key").
const (
	msgIndexKeyTypeMismatch = "One or more parameter values were invalid: Type mismatch for Index Key %s Expected: %s Actual: %s IndexName: %s"
	msgIndexKeyEmpty        = "One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty %s value. IndexName: %s, IndexKey: %s"
	msgUpdateIndexKeyEmpty  = "One or more parameter values are not valid. The update expression attempted to update a secondary index key to a value that is not supported. The AttributeValue for a key attribute cannot contain an empty %s value."
)

// msgUpdateNesting is UpdateItem's answer when an update nests values
// deeper than DynamoDB allows (PutItem's wording is longer: see wire_decode.go).
const msgUpdateNesting = "Nesting Levels have exceeded supported limits"
