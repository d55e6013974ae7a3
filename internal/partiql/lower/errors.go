package lower

import (
	"fmt"

	"github.com/dynamoemu/dynamoemu/internal/lex"
)

// Error is every error the lowering returns: a statement DynamoDB refuses
// with a ValidationException whose message is Msg, exactly.
type Error struct {
	Msg string
	Pos int // byte offset in the statement of what is wrong; -1 when none
	// Item marks an error of the item the statement reads or writes (its
	// key is missing from the WHERE clause or of the wrong type, an INSERT
	// lacks a key attribute) rather than of the statement's text:
	// ExecuteTransaction cancels with it as the statement's reason
	// (ValidationError) instead of failing the request, as DynamoDB Local
	// does.
	Item bool
	Err  error // the cause (an *expr.Error, a storage number error), if any
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// The messages. AWS's words where public records of AWS answers give them
// (marked AWS; the paritysuite/dynamodb-conformance records, pinned
// against real DynamoDB), else DynamoDB Local 3.3.0's as observed (marked
// Local), else the emulator's own where neither was observed (marked own).
// "at %d:%d:%d" is DynamoDB's place: line, column and length in UTF-16
// code units of the token it blames.
const (
	// Local.
	msgParamCount = "Number of parameters in request and statement don't match."
	// Local.
	msgKeyType = "Key attribute's data type should match its data type in table's schema: Key %s"
	// AWS (FROM ... SET without WHERE) and Local.
	msgKeyEquality = "Where clause does not contain a mandatory equality on all key attributes"
	// Local.
	msgInsertKeyMissing = "Key attribute should be present in the item: Key %s"
	// AWS: the function's name in lower case and its place (DynamoDB
	// Local gives no place).
	msgUnrecognizedFunc = "Unrecognized function: %s at %d:%d:%d"
	// Local.
	msgMissingCompare = "MISSING must be compared using IS operator"
	// Local: the operator in lower case.
	msgUnsupportedOp = "Unsupported operator in Condition Expression. Operator: %s"
	// Local.
	msgInRightSide = "IN operator must have a left hand argument of type Variable Reference and right hand argument of type Seq with at least one member"
	// Local; AWS for a function in an INSERT's value ("Unsupported data
	// type: set_add under key root at 1:44:7"). The key is the value's
	// place inside the literal: root, root.k, root.0.
	msgUnsupportedType = "Unsupported data type: %s under key %s at %d:%d:%d"
	// Local (AWS gives no place for the empty set of a set_add:
	// msgEmptyBagPlain).
	msgEmptyBag = "Empty bags are not supported at %d:%d:%d"
	// AWS, for the set a set_add or set_delete adds or removes.
	msgEmptyBagPlain = "Empty bags are not supported"
	// Local.
	msgBagType   = "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags"
	msgBagTypeAt = msgBagType + " at %d:%d:%d"
	// AWS (set_add's set; the same for a set an INSERT writes, assumed).
	// The members as written, Java's list form: [x, x].
	msgBagDuplicates = "One or more parameter values were invalid: Input collection %s contains duplicates."
	// Local.
	msgListIndexRange = "List index is not within the allowable range; index: [%s] at %d:%d:%d"
	// AWS and Local (attribute_exists(x) in a SELECT list).
	msgUnexpectedPathPart = "Unexpected path component at %d:%d:%d"
	// Local.
	msgOrderByNoWhere   = "Must have WHERE clause in the statement when using ORDER BY clause."
	msgOrderByNoHashKey = "Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY clause."
	msgOrderByNotKey    = "Variable reference %s in ORDER BY clause must be part of the primary key"
	// Local.
	msgAndOrArgs = "The arguments to AND/OR must be Expressions"
	msgNotArg    = "The argument to NOT must be a Type or Expression"
	// AWS (DynamoDB Local says "composite HASH keys or composite RANGE
	// keys").
	msgMultiKey = "PartiQL statements cannot be executed on tables with multi-attribute HASH keys or multi-attribute RANGE keys."
	// Local.
	msgInsertNotTuple = "Unsupported format in item expression. Please use struct format {...} to express item values for insert statement. at %d:%d:%d"
	// Own: a tuple key that is not a string, an expression where a value
	// or condition must be (not observed).
	msgTupleKey        = "Unsupported tuple key at %d:%d:%d"
	msgUnsupportedExpr = "Unsupported expression at %d:%d:%d"
	// Local.
	msgEmptyPathPart = "Path component cannot be an empty string"
	// Local.
	msgIsType = "Unsupported data type for IS operator: %s. Supported data types are [MISSING, NULL, BOOLEAN, BLOB, STRING, NUMERIC, STRUCT, TUPLE, LIST] at %d:%d:%d"
	// Local.
	msgIsOperand = "The left hand side argument to IS must be a Variable Reference, Literal, or Path"
	// Local (what DynamoDB's condition check says of an ordering of a
	// condition's result: "attribute_exists(a) < true").
	msgBoolOperand = "Incorrect operand type for operator or function; operator or function: %s, operand type: BOOL"
	// AWS, each with the function's place (DynamoDB Local gives none for
	// the first argument's rule). SET_ADD or SET_DELETE, in upper case.
	msgSetFuncArity  = "%s must have exactly two arguments at %d:%d:%d"
	msgSetFuncTarget = "The first argument to %s must equal the assignment value at %d:%d:%d"
	// AWS: the place is the first argument's, not the second's.
	msgSetFuncSet = "The second argument to %s must be a value with type SET at %d:%d:%d"
	// AWS and Local: ExecuteTransaction's rules.
	msgTxSelectKey = "Select statements within ExecuteTransaction must specify the primary key in the where clause."
	msgTxExists    = "EXISTS() must contain a single item read with additional condition"
	// Local.
	msgTxIndexRead = "Reads on indices are not supported within transactions."
	msgTxIndexOp   = "Operations on indices are not supported in transactions"
	// AWS: a BatchExecuteStatement SELECT reads one item by its key.
	msgBatchSelectKey = "Select statements within BatchExecuteStatement must specify the primary key in the where clause."
	// AWS's words (overlap.go names the records); DynamoDB Local runs such
	// statements.
	msgOverlapping = "Overlapping conditions with range keys are not supported in where clause"
)

// place renders byte offset pos of src and a length as DynamoDB's line,
// column and length.
func place(src string, pos, length int) (int, int, int) {
	line, col := lex.Position(src, pos)
	return line, col, length
}

func errPlain(msg string) *Error { return &Error{Msg: msg, Pos: -1} }

func errf(pos int, format string, args ...any) *Error {
	return &Error{Msg: fmt.Sprintf(format, args...), Pos: pos}
}

// itemErr marks err as an error of the statement's item.
func itemErr(err *Error) *Error {
	err.Item = true
	return err
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
