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

	// The messages of the statements themselves are partiql/lower's.
	MsgParamCount       = "Number of parameters in request and statement don't match."
	MsgDuplicateItem    = "Duplicate primary key exists in table"
	MsgExistsOutsideTxn = "EXISTS can only be used in ExecuteTransaction write requests."
	// AWS, for a SELECT from an index the table does not have (no name,
	// where Query's message names it; DynamoDB Local names it) and from a
	// GSI with ConsistentRead (Query says "Consistent reads are not
	// supported on global secondary indexes", as DynamoDB Local does for
	// PartiQL): public records of AWS answers.
	MsgPartiQLNoSuchIndex       = "The table does not have the specified index"
	MsgPartiQLGSIConsistentRead = "Strongly consistent read is not supported on Global Secondary Indexes"
	// AWS, for a FROM (or INTO, UPDATE) path of more than two
	// components, and for an empty one (table or index), before the
	// table is looked up: public records of AWS answers
	// (nubo-db/dynamodb-conformance,
	// tests/tier3/error-messages/partiql.test.ts).
	MsgPartiQLPathComponents = "A path may contain at most 2 components in the FROM clause"
	MsgPartiQLEmptyComponent = "Path component cannot be an empty string"
	// AWS, for an index named in an UPDATE or DELETE, and in an INSERT,
	// before the table is looked up (AWS eu-west-2 as captured and
	// published by nubo-db/dynoxide, tests/partiql_index_qualifier.rs,
	// its captures Q23, Q24, Q25; DynamoDB Local agrees).
	MsgPartiQLWriteOnIndex  = "This operation is not supported on an index"
	MsgPartiQLInsertOnIndex = "FROM clause may only contain a single table name in data manipulation statements"
	// AWS, for a DELETE whose RETURNING is not ALL OLD * (%s: the clause's
	// words, "MODIFIED OLD"): nothing is deleted. Public records of AWS
	// answers (nubo-db/dynamodb-conformance,
	// tests/tier3/error-messages/partiql.test.ts).
	MsgDeleteReturning = "Invalid returning clause: RETURNING %s *. Only RETURNING ALL OLD * is allowed in DELETE statements."
	// Not observed: the emulator's own words for an unreadable NextToken.
	MsgInvalidNextToken = "The provided NextToken is invalid"
	// AWS, for an ExecuteStatement NextToken it cannot read, and for one
	// another statement or other parameters read: captured against AWS
	// (eu-west-2, 2026) and published by nubo-db/dynoxide (CHANGELOG,
	// src/partiql/executor.rs).
	MsgPartiQLInvalidNextToken = "Invalid NextToken"
	MsgNextTokenMismatch       = "NextToken does not match request"
)

// Messages of BatchExecuteStatement (DynamoDB Local's; no public record of
// AWS's wording).
const (
	MsgBatchMixed         = "Read and write requests together in the same batch is not supported."
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
	MsgExecTxIndexOp   = "Operations on indices are not supported in transactions"
	// AWS (and DynamoDB Local), for any statement of an ExecuteTransaction
	// with a RETURNING clause, in MsgExecTxStatement: the whole request
	// is refused before anything is written. Public records of AWS
	// answers (nubo-db/dynamodb-conformance,
	// tests/tier3/error-messages/partiql.test.ts).
	MsgExecTxReturning = "RETURNING clause is not supported in ExecuteTransaction."
)
