package apierr

// Messages of the wire codec: attribute values, JSON types and the
// placeholder maps, AWS's wording unless marked.

// Messages of the attribute value checks, AWS's wording (checked against
// DynamoDB Local). "An string set  may not be empty" has AWS's double space.
const (
	MsgAVEmpty            = "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"
	MsgAVMultiple         = "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"
	MsgSSEmpty            = "One or more parameter values were invalid: An string set  may not be empty"
	MsgNSEmpty            = "One or more parameter values were invalid: An number set  may not be empty"
	MsgBSEmpty            = "One or more parameter values were invalid: Binary sets should not be empty"
	MsgSSNullMember       = "One or more parameter values were invalid: An string set may not have a null string as a member"
	MsgNullNotTrue        = "One or more parameter values were invalid: Null attribute value types must have the value of true"
	MsgEmptyAttributeName = "Empty attribute name" // in an item, a key or a nested map (DynamoDB Local's wording)
	MsgNestingExceeded    = "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit"
	MsgNullInList         = "The supplied Item contains a null AttributeValue"
	MsgSerListStart       = "Start of list found where not expected"
	MsgSerMapStart        = "Start of structure or map found where not expected"
	MsgSerExpectedList    = "Expected list or null"
	MsgSerExpectedMap     = "Expected map or null"
	MsgSerExpectedNull    = "Expected null"
	MsgSerInvalidBase64   = "Base64 encoded string is invalid"
)

// MsgSerBase64Length is the SerializationException of a B value whose
// base64 text is not a multiple of 4 long (no "=" padding): AWS's answer as
// recorded in scylladb/scylladb#6487 ("Base64 encoded length is expected a
// multiple of 4 bytes but found: 11").
const MsgSerBase64Length = "Base64 encoded length is expected a multiple of 4 bytes but found: "

// MsgBSNullMember is not confirmed: DynamoDB Local fails with an internal error
// on a null BS member. It follows the wording of the SS case.
const MsgBSNullMember = "One or more parameter values were invalid: A binary set may not have a null binary as a member"

// Messages of the size limit (DynamoDB Local's).
const (
	MsgNamesTooLarge    = "ExpressionAttributeNames exceeds max size"
	MsgValuesTooLarge   = "ExpressionAttributeValues exceeds max size"
	MsgCombinedTooLarge = "Combined size of ExpressionAttributeNames and ExpressionAttributeValues exceeds max size"
)

// Serialization messages of a member of the wrong JSON type: the JSON
// type found, then the Java type wanted (AWS's current pattern; see
// doc.go's Caveats for which are inferred).
const (
	MsgStringCannotConvert = "STRING_VALUE cannot be converted to "
	MsgTrueCannotConvert   = "TRUE_VALUE cannot be converted to "
	MsgFalseCannotConvert  = "FALSE_VALUE cannot be converted to "
	MsgNumberCannotConvert = "NUMBER_VALUE cannot be converted to "
)

// MsgExprValueInvalid and MsgExprValueForKey frame the error of one
// ExpressionAttributeValues entry: "ExpressionAttributeValues contains
// invalid value: <error> for key <name>".
const (
	MsgExprValueInvalid = "ExpressionAttributeValues contains invalid value: "
	MsgExprValueForKey  = " for key "
)

// AWS's wording where DynamoDB Local and dynalite word it otherwise.
const (
	// MsgSetDuplicates and MsgBinarySetDuplicates: a set with duplicate
	// members, listed (binary ones in base64, with AWS's missing space
	// before "of"); how the members are listed depends on the layer
	// (value_faults.go).
	MsgSetDuplicates       = "One or more parameter values were invalid: Input collection [%s] contains duplicates."
	MsgBinarySetDuplicates = "One or more parameter values were invalid: Input collection [%s]of type BS contains duplicates."
)
