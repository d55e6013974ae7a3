package apierr

import (
	"errors"
	"net/http"
)

// The errors of fault injection and capacity throttling (package faults
// and faults/throttle): classes the emulator never answered
// before, because nothing conflicted or ran out of capacity.
var (
	// ErrTransactionConflict: an item operation on an item that a
	// transaction is writing.
	ErrTransactionConflict = &Class{"TransactionConflictException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrTransactionInProgress: a TransactWriteItems whose
	// ClientRequestToken is still being processed.
	ErrTransactionInProgress = &Class{"TransactionInProgressException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrRequestLimitExceeded: the account's throughput quota.
	ErrRequestLimitExceeded = &Class{"RequestLimitExceeded", nsDynamoDB, http.StatusBadRequest, false}
	// ErrProvisionedThroughputExceeded: a provisioned table or GSI ran out
	// of capacity.
	ErrProvisionedThroughputExceeded = &Class{"ProvisionedThroughputExceededException", nsDynamoDB, http.StatusBadRequest, false}
)

// ThrottlingReason is one entry of the ThrottlingReasons member of
// ProvisionedThroughputExceededException and ThrottlingException: AWS's
// reason ("TableWriteProvisionedThroughputExceeded") and the ARN of the
// table or index that ran out.
type ThrottlingReason struct {
	Reason, Resource string
}

// faultClass maps an injected fault's error type (faults.Kind.ErrorType)
// to its class. ThrottlingException is the class the in-flight limit
// answers with already (AWS's coral availability namespace); SDKs key on
// the part after '#'. Nil for another error type. A switch, not a
// package-level map: nothing to build at the server's start.
func faultClass(errorType string) *Class {
	switch errorType {
	case "TransactionConflictException":
		return ErrTransactionConflict
	case "TransactionInProgressException":
		return ErrTransactionInProgress
	case "ConditionalCheckFailedException":
		return ErrConditionalCheckFailed
	case "InternalServerError":
		return ErrInternalServer
	case "RequestLimitExceeded":
		return ErrRequestLimitExceeded
	case "ThrottlingException":
		return ErrThrottling
	case "ProvisionedThroughputExceededException":
		return ErrProvisionedThroughputExceeded
	}
	return nil
}

// Fault is the error of an injected fault or a throttled request: the
// class whose wire name is errorType, AWS's message, and for the
// throughput errors their ThrottlingReasons (nil: none). An unknown
// errorType is an InternalServerError.
func Fault(errorType, msg string, reasons []ThrottlingReason) error {
	c := faultClass(errorType)
	if c == nil {
		c = ErrInternalServer
	}
	return &Error{Class: c, Msg: msg, Throttling: reasons}
}

// MsgCINextToken answers a ListContributorInsights NextToken the emulator
// did not give out (AWS's wording unknown: no captured answer).
const MsgCINextToken = "The provided NextToken is not valid"

// Unprocessable reports whether a batch item refused with err goes back
// in UnprocessedItems or UnprocessedKeys rather than failing the call
// (AWS's BatchWriteItem reference: the items that fail because the
// provisioned throughput is exceeded or an internal processing failure).
func Unprocessable(err error) bool {
	return errors.Is(err, ErrProvisionedThroughputExceeded) || errors.Is(err, ErrThrottling) ||
		errors.Is(err, ErrRequestLimitExceeded) || errors.Is(err, ErrInternalServer)
}

// CancellationCode is the CancellationReason code (AWS's
// TransactionCanceledException) of a transaction's action refused with
// err, or "" when err fails the whole call.
func CancellationCode(err error) string {
	switch {
	case errors.Is(err, ErrTransactionConflict):
		return "TransactionConflict"
	case errors.Is(err, ErrConditionalCheckFailed):
		return "ConditionalCheckFailed"
	case errors.Is(err, ErrProvisionedThroughputExceeded):
		return "ProvisionedThroughputExceeded"
	case errors.Is(err, ErrThrottling):
		return "ThrottlingError"
	}
	return ""
}
