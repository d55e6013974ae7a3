package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/insights"
)

// Fault injection, throttling and the report in PartiQL's ExecuteStatement
// and BatchExecuteStatement (faults/WIRING.md §2): each statement goes
// through the pipeline as the operation it stands for, once it is
// planned, so that the rules see the key the lowering found (a write or
// a batch's SELECT through beginItem, pipeline_item.go; BatchExecuteStatement
// finishes each statement's use before the next begins). A write
// (INSERT, UPDATE, DELETE) names its item's full key; a SELECT that fixes
// one partition names it and its sort key condition (a Query), one that
// fixes several (an IN list) is decided per partition (beginSelect), and any
// other is a Scan. The operation a rule matches is the API's (ExecuteStatement,
// BatchExecuteStatement); ExecuteTransaction's statements are the actions
// of a transaction and decided with them (fx_tx.go).
//
// In BatchExecuteStatement an injected fault, or a throttled statement,
// fails its statement only: its Error's Code is the fault's
// (batchFaultCode: BatchStatementErrorCodeEnum's TransactionConflict,
// ConditionalCheckFailed, ProvisionedThroughputExceeded, ThrottlingError,
// RequestLimitExceeded, InternalServerError), as BatchWriteItem leaves an
// item unprocessed rather than fail the call. A fault the enum has no code
// for (TransactionInProgress) fails the call.

// beginSelect runs the hooks before a SELECT reads its table or index, from
// its first partition on (a NextToken's). A SELECT over several
// partitions (WHERE pk IN [...]) is a read of each: the fault rules
// decide on each partition it reads, with its key (so a key or key-prefix
// rule on one of them fires), and the first refused fails the statement,
// as that read would fail it; the throttler and the report see one Query
// with no key.
func (c *call) beginSelect(plan *selectPlan, req *readRequest, first int) error {
	var kc insights.KeyCondition
	access := insights.Scan
	if len(plan.kcs) > 0 || plan.none {
		access = insights.Query
	}
	var parts []*expr.KeyCondition
	switch {
	case len(plan.kcs) == 1:
		kc = queryKey(plan.kcs[0].Partition, plan.kcs[0].Sort)
	case len(plan.kcs) > 1:
		parts = plan.kcs[first:]
	}
	return c.beginRead(plan.t, plan.x, kc, parts, access, req.filter != nil)
}

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
