package apierr

// Error message text added to follow AWS's answers where the emulator once
// answered as DynamoDB Local or dynalite do (issue 11). Where DynamoDB Local
// words a message differently, AWS wins and the comment gives DynamoDB
// Local's text. Sources: AWS's recorded answers (us-east-1), AWS's
// documentation, ScyllaDB's tests run against AWS, and DynamoDB Local.

const (
	// MsgOperationNotImplemented: an operation of DynamoDB's API the emulator
	// lacks (UnknownOperationException, as AWS answers unknown names; the
	// emulator's own wording, so that a gap is told from a typo).
	MsgOperationNotImplemented = "An unknown operation was requested: the emulator does not implement %s yet."

	// MsgNoRequestItems: RequestItems {} of BatchGetItem or BatchWriteItem.
	// DynamoDB Local: "BatchGetItem must have some requests set" and
	// "BatchWriteItem cannot have a null or no requests set".
	msgNoRequestItems = "The requestItems parameter is required for %s"

	// Three constraint violations whose texts Violation builds (AWS's
	// wording; DynamoDB Local's differs): more than 100 keys for one table
	// of a BatchGetItem (no echoed value, the path in PascalCase;
	// DynamoDB Local: "Too many items requested for the BatchGetItem
	// call"), more than 25 requests for one table of a BatchWriteItem (the
	// Java-style dump of RequestItems; DynamoDB Local: "Too many items
	// requested for the BatchWriteItem call"), and Query's Limit below 1
	// (no echoed value, 'Limit'; DynamoDB Local: "Limit must be greater
	// than or equal to 1"): batch_constraints.go and LimitViolation.

	// MsgSetDuplicates and MsgBinarySetDuplicates: a set with duplicate
	// members, listed (binary ones in base64, with AWS's missing space
	// before "of"); how the members are listed depends on the layer
	// (value_faults.go).
	MsgSetDuplicates       = "One or more parameter values were invalid: Input collection [%s] contains duplicates."
	MsgBinarySetDuplicates = "One or more parameter values were invalid: Input collection [%s]of type BS contains duplicates."

	// MsgIncludeWithoutNonKey: an index projection of type INCLUDE without
	// NonKeyAttributes (AWS's and DynamoDB Local's wording).
	MsgIncludeWithoutNonKey = "If Projection type INCLUDE is specified, some non-key attributes to include in the projection must be specified as well"
)
