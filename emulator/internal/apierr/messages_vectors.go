package apierr

// Error message text of vector indexes and SearchVectors.
// vector/VECTOR_SPEC.md has the sources: AWS's API reference
// (API_SearchVectors, API_VectorIndex), the developer guide's
// "Troubleshooting vector indexes" page, and AWS's agent skill for
// DynamoDB, which quotes the service's errors verbatim. DynamoDB Local
// 3.3.0 has no vector indexes. Messages marked "unconfirmed" are the
// emulator's wording where no AWS text was found; they follow the nearest
// GSI message.

const (
	// MsgTopKRange: TopK outside 1..100 (verbatim; the troubleshooting page
	// lists it for "TopK was outside 1 to 100", so for 0 too).
	MsgTopKRange = "Provided TopK value '%d' is out of valid range. The value must be between 1 and 100 inclusive"
	// MsgSearchVectorDimension: a search vector of the wrong length (verbatim).
	MsgSearchVectorDimension = "Input search vector dimension %d does not match vector index dimension %d"
	// MsgSearchVectorInvalid: an element that is not a number, or beyond float32 (the text).
	MsgSearchVectorInvalid = "Search vector contains invalid values. All values in the search vector must be a 32-bit floating-point number attribute"
	// MsgSearchHashRequired: no condition on an index with a HASH element (verbatim).
	MsgSearchHashRequired = "SearchConditionExpression must be provided when SearchSchema has a HASH key"
	// MsgSearchComparator: anything but attr = :value terms joined by AND (verbatim).
	MsgSearchComparator = "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression"
	// MsgSearchNotInSchema: a condition on an attribute outside the search schema (the text).
	MsgSearchNotInSchema = "SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid attribute: %s"
	// MsgSearchHashMissing: a condition that leaves out the HASH element
	// (unconfirmed: AWS's wording for a condition without it is unknown;
	// the no-condition message is the nearest).
	MsgSearchHashMissing = MsgSearchHashRequired
	// MsgSearchBackfilling: a search of an index still being built (verbatim).
	MsgSearchBackfilling = "Cannot search backfilling vector index: %s"
	// MsgSearchNoIndex: no such vector index (verbatim; Query's MsgNoSuchIndex).
	MsgSearchNoIndex = MsgNoSuchIndex
	// MsgSearchTwice: two terms on one attribute (unconfirmed).
	MsgSearchTwice = "Invalid SearchConditionExpression: Attribute %s is used more than once in SearchConditionExpression"

	// MsgVectorIndexQuery: Query of a vector index (verbatim).
	MsgVectorIndexQuery = "Query operation not supported on this index type."
	// MsgVectorIndexScan: Scan of a vector index (unconfirmed: Query's, for Scan).
	MsgVectorIndexScan = "Scan operation not supported on this index type."

	// MsgSearchSchemaNotDefined: a search schema attribute without an
	// attribute definition (verbatim).
	MsgSearchSchemaNotDefined = msgInvalidParams + "One element in SearchSchema is not defined in attribute definitions"
	// The rest of the definition checks are unconfirmed.
	MsgVectorOnDemandOnly       = msgInvalidParams + "Vector indexes are supported only on tables that use on-demand capacity mode (PAY_PER_REQUEST)"
	MsgVectorIndexLimit         = msgInvalidParams + "VectorIndex count exceeds the per-table limit of 5"
	MsgVectorIndexListEmpty     = msgInvalidParams + "List of VectorIndexes is empty"
	MsgVectorDimensionsMax      = msgInvalidParams + "Dimensions of vector index %s must be between 1 and 4096, got %d"
	MsgVectorDimensionsMismatch = msgInvalidParams + "Vector indexes on the same attribute must have the same Dimensions: attribute %s has %d in index %s and %d in index %s"
	MsgSearchSchemaHashTwice    = msgInvalidParams + "SearchSchema of vector index %s has more than one HASH element"
	MsgSearchSchemaFilters      = msgInvalidParams + "SearchSchema of vector index %s has more than 18 INLINE_FILTER elements"
	MsgSearchSchemaTwice        = msgInvalidParams + "SearchSchema of vector index %s names attribute %s more than once"
	MsgSearchSchemaEmpty        = msgInvalidParams + "SearchSchema of vector index %s is empty"
	MsgSearchSchemaIsVector     = msgInvalidParams + "SearchSchema of vector index %s names its vector attribute %s"
	MsgVectorProjectedLimit     = msgInvalidParams + "Vector index %s projects %d non-key attributes (its vector attribute, INLINE_FILTER elements and NonKeyAttributes), more than the per-index limit of 20"
	MsgVectorAttrIsKey          = msgInvalidParams + "VectorAttribute %s of vector index %s is a key attribute"
	MsgVectorIndexUpdateEmpty   = msgInvalidParams + "One of VectorIndexUpdate.Create, VectorIndexUpdate.Delete must not be null"

	// Writes of an item whose vector does not fit an index: AWS's
	// troubleshooting page words them "Invalid size for parameter
	// <attribute>, Expected: <n>, Actual: <m>. IndexName: <index>" and
	// "Invalid type for parameter ..." naming the element; the rest is
	// unconfirmed.
	MsgVectorSize        = msgInvalidParams + "Invalid size for parameter %s, Expected: %d, Actual: %d. IndexName: %s"
	MsgVectorType        = msgInvalidParams + "Invalid type for parameter %s, Expected: L, Actual: %s. IndexName: %s"
	MsgVectorElementType = msgInvalidParams + "Invalid type for parameter %s[%d], Expected: N, Actual: %s. IndexName: %s"
	MsgVectorElementFP32 = msgInvalidParams + "Invalid value for parameter %s[%d], Expected: a 32-bit floating-point number. IndexName: %s"
)
