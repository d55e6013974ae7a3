package partiqlops

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// Fault injection, throttling and the report in PartiQL's ExecuteStatement
// and BatchExecuteStatement (faults/WIRING.md §2): each statement goes
// through the pipeline as the operation it stands for, once it is
// planned, so that the rules see the key the lowering found (a write or
// a batch's SELECT through service's useItem, whose scope ends each
// statement's use before the next begins). A write
// (INSERT, UPDATE, DELETE) names its item's full key; a SELECT that fixes
// one partition names it and its sort key condition (a Query), one that
// fixes several (an IN list) is decided per partition (select_read.go's begin), and any
// other is a Scan. The operation a rule matches is the API's (ExecuteStatement,
// BatchExecuteStatement); ExecuteTransaction's statements are the actions
// of a transaction and decided with them (service's pipeline_tx.go).
//
// In BatchExecuteStatement an injected fault, or a throttled statement,
// fails its statement only: its Error's Code is the fault's
// (batchFaultCode: BatchStatementErrorCodeEnum's TransactionConflict,
// ConditionalCheckFailed, ProvisionedThroughputExceeded, ThrottlingError,
// RequestLimitExceeded, InternalServerError), as BatchWriteItem leaves an
// item unprocessed rather than fail the call. A fault the enum has no code
// for (TransactionInProgress) fails the call.

// batchFaultCode is the BatchStatementError code of an injected fault or
// a throttled statement ("" for an error of another kind, and for a
// fault that fails the whole call).
func batchFaultCode(ae *apierr.Error) string {
	switch ae.Class {
	case apierr.ErrTransactionConflict:
		return "TransactionConflict"
	case apierr.ErrProvisionedThroughputExceeded:
		return "ProvisionedThroughputExceeded"
	case apierr.ErrThrottling:
		return "ThrottlingError"
	case apierr.ErrRequestLimitExceeded:
		return "RequestLimitExceeded"
	}
	return ""
}
