package apierr

// Error message text of TransactWriteItems and TransactGetItems. Each
// constant says where its wording comes from: AWS's own answers as
// published (AWS documentation, knowledge-center articles, captured
// responses quoted in SDK issues), or DynamoDB Local 3.3.0 where no AWS
// record was found.

const (
	// Knowledge center "Why is my TransactWriteItems API call failing" and
	// DynamoDB Local (same text); also TransactGetItems in DynamoDB Local.
	MsgTxSameItem = "Transaction request cannot include multiple operations on one item"

	// More than 100 statements of an ExecuteTransaction: DynamoDB Local's
	// bare constraint. TransactWriteItems and TransactGetItems answer
	// AWS's constraint violation echoing the list (transactItemsLimit).
	MsgTxTooManyItems = "Member must have length less than or equal to 100"

	// An entry with none of ConditionCheck, Put, Delete, Update: DynamoDB Local.
	MsgTxWriteNoAction = "Invalid Request: TransactWriteRequest should contain Delete or Put or Update request"
	// An entry with more than one of them: DynamoDB Local.
	MsgTxWriteManyActions = "TransactItems can only contain one of Check, Put, Update or Delete"

	// The items' aggregate size over 4 MB: DynamoDB Local (the size is the
	// sum of the Put items' sizes and the other actions' key sizes).
	MsgTxPayloadTooLarge = "Transaction payload size cannot exceed 4MB. Payload Size: %d"

	// A table name that is not a valid name or table ARN: DynamoDB Local.
	MsgTxInvalidTableName = "Invalid table/index name.  Table/index names must be between 3 and 255 characters long, and may contain only the characters a-z, A-Z, 0-9, '_', '-', and '.'"

	// TransactionCanceledException, reason codes listed in request order:
	// AWS responses quoted in aws/aws-sdk-net#1292 and pynamodb/PynamoDB#1144
	// (DynamoDB Local: same).
	msgTxCanceled = "Transaction cancelled, please refer cancellation reasons for specific reasons [%s]"

	// A failed condition's reason message: the same AWS captures (boto/boto3#2657
	// too). DynamoDB Local ends it with a period.
	MsgTxConditionFailed = "The conditional request failed"

	// IdempotentParameterMismatchException: DynamoDB Local sends an empty
	// message; no AWS text is on record.
	MsgIdempotentMismatch = ""
)

// Cancellation reason codes (the API reference's list for CancellationReason).
const (
	ReasonNone                = "None"
	ReasonConditionalCheck    = "ConditionalCheckFailed"
	ReasonValidation          = "ValidationError"
	ReasonCollectionSizeLimit = "ItemCollectionSizeLimitExceeded"
	reasonTransactionConflict = "TransactionConflict"
	// A PartiQL INSERT of an existing item in ExecuteTransaction: AWS's
	// code (the INSERT reference names DuplicateItemException; Amazon's
	// amzn/smoke-dynamodb maps the reason DuplicateItem). DynamoDB Local
	// answers ValidationError with the same message.
	ReasonDuplicateItem = "DuplicateItem"
)
