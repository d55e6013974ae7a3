package apierr

import "net/http"

// Error message text of ExecuteStatement and BatchExecuteStatement. AWS's
// wording where public records of AWS answers give it (noted "AWS");
// otherwise DynamoDB Local 3.3.0's, as observed.
const (
	// MsgStatementMalformed prefixes every syntax error (AWS and DynamoDB
	// Local). AWS follows it with its parser's reason; DynamoDB Local with
	// the statement itself.
	MsgStatementMalformed = "Statement wasn't well formed, can't be processed: "
	// AWS, for a statement that does not start with SELECT, INSERT,
	// UPDATE, DELETE or EXISTS (DynamoDB Local echoes the statement, or
	// for a bare expression says "Unsupported operation: VariableReference").
	MsgExpectedDML = "Expected data manipulation"
	// AWS, for a keyword the grammar does not allow at that place.
	MsgUnexpectedKeyword = "Unexpected keyword"

	MsgParamCount         = "Number of parameters in request and statement don't match."
	MsgPartiQLKeyType     = "Key attribute's data type should match its data type in table's schema: Key %s"
	MsgKeyEquality        = "Where clause does not contain a mandatory equality on all key attributes"
	MsgInsertKeyMissing   = "Key attribute should be present in the item: Key %s"
	MsgDuplicateItem      = "Duplicate primary key exists in table"
	MsgUnrecognizedFunc   = "Unrecognized function: %s"
	MsgMissingCompare     = "MISSING must be compared using IS operator"
	MsgUnsupportedOp      = "Unsupported operator in Condition Expression. Operator: %s"
	MsgInRightSide        = "IN operator must have a left hand argument of type Variable Reference and right hand argument of type Seq with at least one member"
	MsgUnsupportedType    = "Unsupported data type: %s under key %s at %d:%d:%d"
	MsgEmptyBag           = "Empty bags are not supported at %d:%d:%d"
	MsgBagType            = "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags"
	MsgBagTypeAt          = MsgBagType + " at %d:%d:%d"
	MsgListIndexRange     = "List index is not within the allowable range; index: [%s] at %d:%d:%d"
	MsgUnexpectedPathPart = "Unexpected path component at %d:%d:%d"
	MsgOrderByNoWhere     = "Must have WHERE clause in the statement when using ORDER BY clause."
	MsgOrderByNoHashKey   = "Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY clause."
	MsgOrderByNotKey      = "Variable reference %s in ORDER BY clause must be part of the primary key"
	MsgExistsOutsideTxn   = "EXISTS can only be used in ExecuteTransaction write requests."
	MsgAndOrArgs          = "The arguments to AND/OR must be Expressions"
	MsgNotArg             = "The argument to NOT must be a Type or Expression"
	// A SELECT from an index with a multi-attribute key (DynamoDB Local).
	MsgPartiQLMultiKey = "PartiQL statements cannot be executed on tables with composite HASH keys or composite RANGE keys."
	MsgInsertNotTuple  = "Unsupported format in item expression. Please use struct format {...} to express item values for insert statement. at %d:%d:%d"
	// Not observed: the emulator's own words for an unreadable NextToken,
	// a tuple key that is not a string and an expression where a value
	// must be.
	MsgInvalidNextToken = "The provided NextToken is invalid"
	MsgTupleKey         = "Unsupported tuple key at %d:%d:%d"
	MsgUnsupportedExpr  = "Unsupported expression at %d:%d:%d"
)

// Messages of BatchExecuteStatement (DynamoDB Local's; no public record of
// AWS's wording).
const (
	MsgBatchMixed         = "Read and write requests together in the same batch is not supported."
	MsgBatchSingleSelect  = "Only single item select is supported"
	MsgBatchInvalidOp     = "Invalid operation. Only select, insert, update and delete operations are valid"
	MsgBatchReadsTooMany  = "BatchGetItem cannot fetch more than 25 items"
	MsgBatchWritesTooMany = "BatchWriteItem cannot write more than 25 items"
)

// ErrDuplicateItem: INSERT of an item whose primary key exists. AWS's name;
// DynamoDB Local sends "DuplicateItem".
var ErrDuplicateItem = &Class{"DuplicateItemException", nsDynamoDB, http.StatusBadRequest, false}

// Messages of ExecuteTransaction: DynamoDB Local 3.3.0's (no public record
// of AWS's wording was found; AWS's documentation states the rules: at
// most 100 statements, reads and writes not mixed, EXISTS as a condition
// check).
const (
	MsgExecTxEmpty     = "ExecutePartiQLTransaction can not have empty statement."
	MsgExecTxMixed     = "ExecuteTransaction API does not support both read and write operations in the same request."
	MsgExecTxStatement = "Validation failed in TransactStatements[%d]: %s"
	MsgExecTxSelectKey = "Select statements within ExecuteTransaction must specify the primary key in the where clause."
	MsgExecTxIndexRead = "Reads on indices are not supported within transactions."
	MsgExecTxIndexOp   = "Operations on indices are not supported in transactions"
	MsgExecTxExists    = "EXISTS() must contain a single item read with additional condition"
)
