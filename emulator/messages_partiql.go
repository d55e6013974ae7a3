package emulator

import "net/http"

// Error message text of ExecuteStatement and BatchExecuteStatement. AWS's
// wording where public records of AWS answers give it (noted "AWS");
// otherwise DynamoDB Local 3.3.0's, as observed.
const (
	// msgStatementMalformed prefixes every syntax error (AWS and DynamoDB
	// Local). AWS follows it with its parser's reason; DynamoDB Local with
	// the statement itself.
	msgStatementMalformed = "Statement wasn't well formed, can't be processed: "
	// AWS, for a statement that does not start with SELECT, INSERT,
	// UPDATE, DELETE or EXISTS (DynamoDB Local echoes the statement, or
	// for a bare expression says "Unsupported operation: VariableReference").
	msgExpectedDML = "Expected data manipulation"
	// AWS, for a keyword the grammar does not allow at that place.
	msgUnexpectedKeyword = "Unexpected keyword"

	msgParamCount         = "Number of parameters in request and statement don't match."
	msgPartiQLKeyType     = "Key attribute's data type should match its data type in table's schema: Key %s"
	msgKeyEquality        = "Where clause does not contain a mandatory equality on all key attributes"
	msgInsertKeyMissing   = "Key attribute should be present in the item: Key %s"
	msgDuplicateItem      = "Duplicate primary key exists in table"
	msgUnrecognizedFunc   = "Unrecognized function: %s"
	msgMissingCompare     = "MISSING must be compared using IS operator"
	msgUnsupportedOp      = "Unsupported operator in Condition Expression. Operator: %s"
	msgInRightSide        = "IN operator must have a left hand argument of type Variable Reference and right hand argument of type Seq with at least one member"
	msgUnsupportedType    = "Unsupported data type: %s under key %s at %d:%d:%d"
	msgEmptyBag           = "Empty bags are not supported at %d:%d:%d"
	msgBagType            = "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags"
	msgBagTypeAt          = msgBagType + " at %d:%d:%d"
	msgListIndexRange     = "List index is not within the allowable range; index: [%s] at %d:%d:%d"
	msgUnexpectedPathPart = "Unexpected path component at %d:%d:%d"
	msgOrderByNoWhere     = "Must have WHERE clause in the statement when using ORDER BY clause."
	msgOrderByNoHashKey   = "Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY clause."
	msgOrderByNotKey      = "Variable reference %s in ORDER BY clause must be part of the primary key"
	msgExistsOutsideTxn   = "EXISTS can only be used in ExecuteTransaction write requests."
	msgAndOrArgs          = "The arguments to AND/OR must be Expressions"
	msgNotArg             = "The argument to NOT must be a Type or Expression"
	// A SELECT from an index with a multi-attribute key (DynamoDB Local).
	msgPartiQLMultiKey = "PartiQL statements cannot be executed on tables with composite HASH keys or composite RANGE keys."
	msgInsertNotTuple  = "Unsupported format in item expression. Please use struct format {...} to express item values for insert statement. at %d:%d:%d"
	// Not observed: the emulator's own words for an unreadable NextToken,
	// a tuple key that is not a string and an expression where a value
	// must be.
	msgInvalidNextToken = "The provided NextToken is invalid"
	msgTupleKey         = "Unsupported tuple key at %d:%d:%d"
	msgUnsupportedExpr  = "Unsupported expression at %d:%d:%d"
)

// Messages of BatchExecuteStatement (DynamoDB Local's; no public record of
// AWS's wording).
const (
	msgBatchMixed         = "Read and write requests together in the same batch is not supported."
	msgBatchSingleSelect  = "Only single item select is supported"
	msgBatchInvalidOp     = "Invalid operation. Only select, insert, update and delete operations are valid"
	msgBatchReadsTooMany  = "BatchGetItem cannot fetch more than 25 items"
	msgBatchWritesTooMany = "BatchWriteItem cannot write more than 25 items"
)

// ErrDuplicateItem: INSERT of an item whose primary key exists. AWS's name;
// DynamoDB Local sends "DuplicateItem".
var ErrDuplicateItem = &errorClass{"DuplicateItemException", nsDynamoDB, http.StatusBadRequest, false}

// Messages of ExecuteTransaction: DynamoDB Local 3.3.0's (no public record
// of AWS's wording was found; AWS's documentation states the rules: at
// most 100 statements, reads and writes not mixed, EXISTS as a condition
// check).
const (
	msgExecTxEmpty     = "ExecutePartiQLTransaction can not have empty statement."
	msgExecTxMixed     = "ExecuteTransaction API does not support both read and write operations in the same request."
	msgExecTxStatement = "Validation failed in TransactStatements[%d]: %s"
	msgExecTxSelectKey = "Select statements within ExecuteTransaction must specify the primary key in the where clause."
	msgExecTxIndexRead = "Reads on indices are not supported within transactions."
	msgExecTxIndexOp   = "Operations on indices are not supported in transactions"
	msgExecTxExists    = "EXISTS() must contain a single item read with additional condition"
)
