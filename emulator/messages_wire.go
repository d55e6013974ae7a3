package emulator

// Messages of the wire codec: attribute values, JSON types and the
// placeholder maps, AWS's wording unless marked.

// Messages of the attribute value checks, AWS's wording (checked against
// DynamoDB Local). "An string set  may not be empty" has AWS's double space.
const (
	msgAVEmpty            = "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"
	msgAVMultiple         = "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"
	msgSSEmpty            = "One or more parameter values were invalid: An string set  may not be empty"
	msgNSEmpty            = "One or more parameter values were invalid: An number set  may not be empty"
	msgBSEmpty            = "One or more parameter values were invalid: Binary sets should not be empty"
	msgSSNullMember       = "One or more parameter values were invalid: An string set may not have a null string as a member"
	msgNullNotTrue        = "One or more parameter values were invalid: Null attribute value types must have the value of true"
	msgEmptyAttributeName = "Empty attribute name" // in an item, a key or a nested map (DynamoDB Local's wording)
	msgNestingExceeded    = "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit"
	msgNullInList         = "The supplied Item contains a null AttributeValue"
	msgSerListStart       = "Start of list found where not expected"
	msgSerMapStart        = "Start of structure or map found where not expected"
	msgSerExpectedList    = "Expected list or null"
	msgSerExpectedMap     = "Expected map or null"
	msgSerExpectedNull    = "Expected null"
	msgSerInvalidBase64   = "Base64 encoded string is invalid"
)

// msgBSNullMember is not confirmed: DynamoDB Local fails with an internal error
// on a null BS member. It follows the wording of the SS case.
const msgBSNullMember = "One or more parameter values were invalid: A binary set may not have a null binary as a member"

// Messages of the size limit (DynamoDB Local's).
const (
	msgNamesTooLarge    = "ExpressionAttributeNames exceeds max size"
	msgValuesTooLarge   = "ExpressionAttributeValues exceeds max size"
	msgCombinedTooLarge = "Combined size of ExpressionAttributeNames and ExpressionAttributeValues exceeds max size"
)

// Serialization messages of a member of the wrong JSON type: the JSON
// type found, then the Java type wanted (AWS's current pattern; see
// doc.go's Caveats for which are inferred).
const (
	msgStringCannotConvert = "STRING_VALUE cannot be converted to "
	msgTrueCannotConvert   = "TRUE_VALUE cannot be converted to "
	msgFalseCannotConvert  = "FALSE_VALUE cannot be converted to "
	msgNumberCannotConvert = "NUMBER_VALUE cannot be converted to "
)

// msgExprValueInvalid and msgExprValueForKey frame the error of one
// ExpressionAttributeValues entry: "ExpressionAttributeValues contains
// invalid value: <error> for key <name>".
const (
	msgExprValueInvalid = "ExpressionAttributeValues contains invalid value: "
	msgExprValueForKey  = " for key "
)
