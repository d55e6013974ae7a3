package apierr

// Error message text of Query, Scan, BatchGetItem and BatchWriteItem, as AWS
// words it. Where DynamoDB Local words a message differently, AWS wins and
// the constant's comment gives DynamoDB Local's text.

const (
	// Query and Scan parameters.
	MsgNoKeyCondition = "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request."
	// DynamoDB Local: "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName" (same).
	MsgAllProjectedNoIndex     = "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"
	MsgSpecificWithoutProj     = "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES"
	MsgProjectionWithSelect    = "Cannot specify the %s when choosing to get %s" // parameter, "only the Count" or "ALL_ATTRIBUTES"
	MsgNoSuchIndex             = "The table does not have the specified index: %s"
	MsgConditionalOperatorOnly = "ConditionalOperator cannot be used without Filter or Expected"
	MsgFilterOnKey             = "%s can only contain non-primary key attributes: Primary key attribute: %s" // "Filter Expression" or "QueryFilter"

	// ExclusiveStartKey of a Query (AWS; DynamoDB Local says "Exclusive Start
	// Key must have same size as table's key schema" for a wrong count).
	MsgStartKeyInvalid       = "The provided starting key is invalid"
	MsgStartKeyInvalidReason = "The provided starting key is invalid: %s"
	MsgStartKeyOutside       = "The provided starting key is outside query boundaries based on provided conditions"
	MsgStartKeyRangePred     = "The provided starting key does not match the range key predicate"
	MsgStartKeyOneRow        = "The query can return at most one row and cannot be restarted"
	// A Query of a table without a sort key matches one item at most, so
	// AWS refuses any start key there; the key follows, as
	// "ExclusiveStartKey: {pk=AttributeValue: {S:a}}" (ScyllaDB Alternator's
	// test_query.py test_query_no_sort_key_exclusive_start_key, run against
	// AWS). DynamoDB Local answers 200 with no items.
	MsgStartKeyNoSortKey = "The provided exclusive start key is invalid: ExclusiveStartKey: {%s=%s}"
	// A parallel Scan's start key must lie in its segment. DynamoDB Local:
	// "Exclusive start key must lie within the segment".
	MsgStartKeyWrongSegment = "The provided starting key is invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct Segment. TotalSegments: %d Segment: %d"

	// Parallel scan. DynamoDB Local: "If segment is specified, total segment
	// must also be specified", "If total segments is specified, a particular
	// segment must also be specified for this request", and a constraint
	// message for Segment >= TotalSegments.
	MsgSegmentWithoutTotal = "The TotalSegments parameter is required but was not present in the request when Segment parameter is present"
	MsgTotalWithoutSegment = "The Segment parameter is required but was not present in the request when parameter TotalSegments is present"
	MsgSegmentTooLarge     = "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: %d is not less than TotalSegments: %d"

	// Batch operations.
	MsgBatchGetTooMany   = "Too many items requested for the BatchGetItem call"
	MsgBatchWriteTooMany = "Too many items requested for the BatchWriteItem call"
	MsgBatchDuplicates   = "Provided list of item keys contains duplicates"
	// A WriteRequest must hold exactly one of PutRequest and DeleteRequest;
	// AWS (and DynamoDB Local) answer with the union-type message.
	MsgWriteRequestNotOne = "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"
	MsgBatchItemTooLarge  = "Item size has exceeded the maximum allowed size"
)

// Enum value sets in AWS's order, for "Member must satisfy enum value set".
const (
	EnumSelect = "SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES"
)

// Messages of reads on an index. Sources: AWS's wording as quoted in
// public records of real AWS answers, which DynamoDB Local 3.3.0 gives
// too, except where marked "DynamoDB Local" (AWS's text unknown).
const (
	MsgGSIConsistentRead   = "Consistent reads are not supported on global secondary indexes"
	MsgGSINotProjected     = "One or more parameter values were invalid: Global secondary index %s does not project %s"
	MsgGSISelectAll        = "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index %s because its projection type is not ALL"
	MsgFilterNotProjected  = "One or more parameter values were invalid: Secondary index %s does not project one or more filter attributes: %s" // DynamoDB Local
	MsgStartKeySize        = "Exclusive Start Key must have same size as table's key schema"                                                    // DynamoDB Local
	MsgAllProjectedWithExp = "Cannot specify the %s when choosing to get ALL_PROJECTED_ATTRIBUTES"                                              // DynamoDB Local
)

// msgNoRequestItems: RequestItems {} of BatchGetItem or BatchWriteItem.
// DynamoDB Local: "BatchGetItem must have some requests set" and
// "BatchWriteItem cannot have a null or no requests set".
const msgNoRequestItems = "The requestItems parameter is required for %s"

// Three constraint violations whose texts Violation builds (AWS's
// wording; DynamoDB Local's differs): more than 100 keys for one table
// of a BatchGetItem (no echoed value, the path in PascalCase;
// DynamoDB Local: "Too many items requested for the BatchGetItem
// call"), more than 25 requests for one table of a BatchWriteItem (the
// Java-style dump of RequestItems; DynamoDB Local: "Too many items
// requested for the BatchWriteItem call"), and Query's Limit below 1
// (no echoed value, 'Limit'; DynamoDB Local: "Limit must be greater
// than or equal to 1"): batch_constraints.go and LimitViolation.
