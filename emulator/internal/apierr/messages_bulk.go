package apierr

// Bulk operations (emulator/internal/transfers), after AWS's API reference
// (API_StartBulkPutItems, API_DescribeBulkOperation,
// API_ListBulkOperations, API_CancelBulkOperation). The reference lists
// no error of their own: an unknown operation ARN is a
// ResourceNotFoundException, a reused ClientToken with other parameters
// an IdempotentParameterMismatchException (as StartBulkPutItems'
// ClientToken documents). DynamoDB Local has none of these operations
// and no record of AWS's wording was found: the messages are ours.

// MsgBulkOperationNotFound answers an unknown bulk operation ARN (ours).
func MsgBulkOperationNotFound(arn string) string { return "Bulk operation not found: " + arn }

// MsgBulkOperationNotCancellable: CancelBulkOperation of an operation
// that already reached a terminal status (ours).
func MsgBulkOperationNotCancellable(arn, status string) string {
	return "Bulk operation " + arn + " cannot be cancelled in status " + status
}

// MsgBulkClientTokenMismatch: a ClientToken reused within 8 hours with
// other parameters (ours).
const MsgBulkClientTokenMismatch = "A bulk operation with this ClientToken and different parameters already exists"
