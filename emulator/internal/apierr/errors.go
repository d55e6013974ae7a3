package apierr

import (
	"errors"
	"fmt"
	"iter"
	"net/http"
	"strings"
	"syscall"

	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Class is one DynamoDB error class: its wire name, the namespace that
// prefixes it in "__type", and its HTTP status. Classes are sentinels: test a
// returned error with errors.Is(err, ErrValidation).
type Class struct {
	Name   string // the part of __type after '#', which SDKs key on
	Prefix string // the part before '#'
	Status int
	// CapitalMessage: AWS spells the message field "Message" for errors raised
	// by its request layer (coral.service) and "message" elsewhere.
	CapitalMessage bool
}

func (c *Class) Error() string { return c.Name }

const (
	nsDynamoDB = "com.amazonaws.dynamodb.v20120810"
	nsValidate = "com.amazon.coral.validate"
	nsService  = "com.amazon.coral.service"
	// nsAvailability prefixes ThrottlingException in AWS's answers.
	nsAvailability = "com.amazon.coral.availability"
)

// The error classes, mapped to "__type" and an HTTP status only at the HTTP edge.
var (
	// ErrValidation: a parameter is invalid (AWS sends it from its coral validate layer).
	ErrValidation = &Class{"ValidationException", nsValidate, http.StatusBadRequest, false}
	// ErrResourceNotFound: the table or index does not exist (or is not ACTIVE).
	ErrResourceNotFound = &Class{"ResourceNotFoundException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrResourceInUse: the table exists already or is being created/deleted.
	ErrResourceInUse = &Class{"ResourceInUseException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrConditionalCheckFailed: a condition evaluated to false; may carry the old item.
	ErrConditionalCheckFailed = &Class{"ConditionalCheckFailedException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrItemCollectionSizeLimitExceeded: an item collection of an LSI table grew past 10 GB.
	ErrItemCollectionSizeLimitExceeded = &Class{"ItemCollectionSizeLimitExceededException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrTransactionCanceled: a transaction was cancelled; carries one
	// CancellationReason per action. AWS spells its message "Message".
	ErrTransactionCanceled = &Class{"TransactionCanceledException", nsDynamoDB, http.StatusBadRequest, true}
	// ErrIdempotentParameterMismatch: a ClientRequestToken reused with a different request.
	ErrIdempotentParameterMismatch = &Class{"IdempotentParameterMismatchException", nsDynamoDB, http.StatusBadRequest, true}
	// ErrLimitExceeded: too many concurrent control-plane operations or tables.
	ErrLimitExceeded = &Class{"LimitExceededException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrAccessDenied: the request names a resource of another account.
	ErrAccessDenied = &Class{"AccessDeniedException", nsService, http.StatusBadRequest, true}
	// ErrSerialization: the body is not JSON, or a member has the wrong JSON type.
	ErrSerialization = &Class{"SerializationException", nsService, http.StatusBadRequest, true}
	// ErrUnknownOperation: X-Amz-Target names no DynamoDB operation.
	ErrUnknownOperation = &Class{"UnknownOperationException", nsService, http.StatusBadRequest, true}
	// ErrMissingAuthenticationToken: the request has no SigV4 Authorization.
	ErrMissingAuthenticationToken = &Class{"MissingAuthenticationTokenException", nsService, http.StatusBadRequest, true}
	// ErrIncompleteSignature: an Authorization header without a usable Credential.
	ErrIncompleteSignature = &Class{"IncompleteSignatureException", nsService, http.StatusBadRequest, true}
	// ErrUnrecognizedClient: the access key id is not one the emulator accepts.
	ErrUnrecognizedClient = &Class{"UnrecognizedClientException", nsService, http.StatusBadRequest, false}
	// ErrThrottling: more requests in flight than the emulator's limit.
	ErrThrottling = &Class{"ThrottlingException", nsAvailability, http.StatusBadRequest, false}
	// ErrRequestEntityTooLarge: the body is larger than the request limit (16 MB).
	ErrRequestEntityTooLarge = &Class{"RequestEntityTooLargeException", nsService, http.StatusRequestEntityTooLarge, true}
	// ErrRequestTimeout: the request's body did not arrive in time (the
	// server's read timeout, or slower than the floor rate: apiserve's
	// pace.go). No public record shows AWS's answer to a body that stops
	// arriving; the name is the one the SDKs retry as a transient error
	// (botocore's standard mode, aws-sdk-go-v2's and the JS SDK v3's
	// retryable codes), with HTTP's 408 Request Timeout.
	ErrRequestTimeout = &Class{"RequestTimeoutException", nsService, http.StatusRequestTimeout, true}
	// ErrExpiredIterator: a shard iterator older than 15 minutes (Streams API).
	ErrExpiredIterator = &Class{"ExpiredIteratorException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrTrimmedDataAccess: a stream position whose records were trimmed (Streams API).
	ErrTrimmedDataAccess = &Class{"TrimmedDataAccessException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrForbidden: the emulator's edge refuses the request before any
	// operation sees it: a Host it does not serve (hosts.go) or a cross-site
	// request to an admin endpoint (httpedge/adminguard.go). Not an AWS answer (see
	// hosts.go): the wire name is AWS's AccessDeniedException so that SDKs
	// and the AWS CLI decode it and do not retry, with status 403.
	ErrForbidden = &Class{"AccessDeniedException", nsService, http.StatusForbidden, true}
	// ErrUnsupportedMediaType: a state-changing admin request without
	// Content-Type application/json (httpedge/adminguard.go); emulator-only.
	ErrUnsupportedMediaType = &Class{"UnsupportedMediaTypeException", nsService, http.StatusUnsupportedMediaType, true}
	// ErrDrainTimeout: the stream handlers' drain (POST
	// /dynamoemu/streams/drain) ended at its timeout with mappings still
	// behind; emulator-only. 504, as a gateway answers when what it waits
	// on (here the functions) has not answered in time: the request was
	// valid, so not ValidationException.
	ErrDrainTimeout = &Class{"DrainTimeoutException", nsService, http.StatusGatewayTimeout, false}
	// ErrInternalServer: a bug in the emulator (a panic or an unclassified error).
	ErrInternalServer = &Class{"InternalServerError", nsDynamoDB, http.StatusInternalServerError, false}
)

// Error is an error of one class with AWS's message text. Its Error() is the
// message alone, so callers may wrap or compare it with AWS's wording.
type Error struct {
	Class *Class
	Msg   string
	// Long, when set, is a message too large to copy (AWS's echo of every
	// element of a list far over its limit; Msg is ""), in pieces that
	// are written straight into the answer's body (wire.AppendErrorBody)
	// and joined by Error() alone. Constraints.Err makes it (AddLong).
	Long iter.Seq[string]
	Item storage.Item // ConditionalCheckFailedException with ALL_OLD; else nil
	// reasons are TransactionCanceledException's CancellationReasons; else nil.
	Reasons []CancellationReason
	// Throttling are the ThrottlingReasons of a throughput error (faults.go); else nil.
	Throttling []ThrottlingReason
	Cause      error // what a %w verb wrapped, for errors.Is/As; may be nil
}

// Error returns the message: Msg, or the pieces of Long joined.
func (e *Error) Error() string {
	if e.Long == nil {
		return e.Msg
	}
	return join(e.Long)
}

func (e *Error) Is(target error) bool { return target == e.Class }
func (e *Error) Unwrap() error        { return e.Cause }

func New(class *Class, msg string) error { return &Error{Class: class, Msg: msg} }

// Validation is a ValidationException (400) with AWS's message msg.
func Validation(msg string) error { return New(ErrValidation, msg) }

// Validationf is Validation with fmt.Sprintf formatting. A %w verb keeps
// the wrapped error reachable with errors.Is/As.
func Validationf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &Error{Class: ErrValidation, Msg: err.Error(), Cause: errors.Unwrap(err)}
}

// ResourceNotFound is a ResourceNotFoundException (400).
func ResourceNotFound(msg string) error { return New(ErrResourceNotFound, msg) }

// ResourceInUse is a ResourceInUseException (400).
func ResourceInUse(msg string) error { return New(ErrResourceInUse, msg) }

// ConditionalCheckFailed is a ConditionalCheckFailedException (400) with
// AWS's message. item is the old item to return when the request asked for
// ReturnValuesOnConditionCheckFailure=ALL_OLD, and nil otherwise.
func ConditionalCheckFailed(item storage.Item) error {
	return &Error{Class: ErrConditionalCheckFailed, Msg: "The conditional request failed", Item: item}
}

// ItemCollectionSizeLimitExceeded is an ItemCollectionSizeLimitExceededException (400).
func ItemCollectionSizeLimitExceeded(msg string) error {
	return New(ErrItemCollectionSizeLimitExceeded, msg)
}

// LimitExceeded is a LimitExceededException (400).
func LimitExceeded(msg string) error { return New(ErrLimitExceeded, msg) }

// AccessDenied is an AccessDeniedException (400).
func AccessDenied(msg string) error { return New(ErrAccessDenied, msg) }

// Serialization is a SerializationException (400). msg may be empty: AWS
// sends none for bodies that are not JSON at all.
func Serialization(msg string) error { return New(ErrSerialization, msg) }

// UnknownOperation is UnknownOperationException, with DynamoDB Local's message.
func UnknownOperation() error {
	return New(ErrUnknownOperation, "An unknown operation was requested.")
}

// MissingAuthenticationToken is AWS's answer to a request without SigV4 auth.
func MissingAuthenticationToken() error {
	return New(ErrMissingAuthenticationToken, "Request is missing Authentication Token")
}

// RequestEntityTooLarge answers a body over the limit. AWS documents this
// common error (HTTP 413, "The request entity is too large") without a fixed
// message text; we use the documented description.
func RequestEntityTooLarge() error {
	return New(ErrRequestEntityTooLarge, "The request entity is too large")
}

// RequestTimeout answers a body that did not arrive in time; msg says how
// much of it did (apiserve's bodyCut).
func RequestTimeout(msg string) error { return New(ErrRequestTimeout, msg) }

// UnrecognizedClient refuses an access key id. The message is the one
// DynamoDB's developer guide gives for UnrecognizedClientException and
// DynamoDB Local sends for a malformed key; the namespace and the lower-case
// "message" are AWS's (public records of its answer to an unknown key, whose
// text is "The security token included in the request is invalid.").
func UnrecognizedClient() error {
	return New(ErrUnrecognizedClient, "The Access Key ID or security token is invalid.")
}

// Throttling answers a request over the in-flight limit with AWS's
// ThrottlingException (HTTP 400, the SDKs retry it with back-off); the
// message is the one DynamoDB's developer guide gives for it.
func Throttling() error {
	return New(ErrThrottling, "Rate of requests exceeds the allowed throughput.")
}

// Internal is an InternalServerError (500); only for bugs.
func Internal() error { return New(ErrInternalServer, msgInternal) }

// Classify returns the class and message of err, and whether err was classified
// at all. Unclassified errors are bugs and become InternalServerError.
func Classify(err error) (*Error, bool) {
	var ae *Error
	if errors.As(err, &ae) {
		return ae, true
	}
	// Expression errors and number errors carry AWS's ValidationException
	// text already; the class is decided here, at the edge.
	var ee *expr.Error
	if errors.As(err, &ee) || isNumberError(err) {
		return &Error{Class: ErrValidation, Msg: err.Error(), Cause: err}, true
	}
	if ae, ok := collectionError(err); ok {
		return ae, true
	}
	// The namespace's commit hook refused a change (undone) or could not
	// make it durable (made): AWS's answer to a failure of its own, 500
	// InternalServerError, which SDKs retry. Classified, but logged by the
	// edge like every 500.
	if errors.Is(err, storage.ErrHookFailed) || errors.Is(err, storage.ErrNotDurable) {
		msg := msgInternal
		switch {
		case errors.Is(err, syscall.ENOSPC) && errors.Is(err, storage.ErrHookFailed):
			msg = msgNoSpace + "; the write was not made"
		case errors.Is(err, syscall.ENOSPC):
			msg = msgNoSpace
		}
		return &Error{Class: ErrInternalServer, Msg: msg, Cause: err}, true
	}
	return Internal().(*Error), false
}

func isNumberError(err error) bool {
	return errors.Is(err, storage.ErrNumberInvalid) || errors.Is(err, storage.ErrNumberPrecision) ||
		errors.Is(err, storage.ErrNumberOverflow) || errors.Is(err, storage.ErrNumberUnderflow)
}

// CancellationReason is one entry of TransactionCanceledException's
// CancellationReasons: Code None for an action that did not cause the
// cancellation.
type CancellationReason struct {
	Code    string
	Message string
	Item    storage.Item // the current item, for ReturnValuesOnConditionCheckFailure ALL_OLD
}

// TransactionCanceled is TransactionCanceledException with reasons, one
// per action in request order, listed by code in the message.
func TransactionCanceled(reasons []CancellationReason) error {
	codes := make([]string, len(reasons))
	for i, r := range reasons {
		codes[i] = r.Code
	}
	return &Error{
		Class:   ErrTransactionCanceled,
		Msg:     fmt.Sprintf(msgTxCanceled, strings.Join(codes, ", ")),
		Reasons: reasons,
	}
}

// collectionError classifies storage's refusal of a write that would grow
// an item collection past the limit; Classify calls it at the edge.
func collectionError(err error) (*Error, bool) {
	if !errors.Is(err, storage.ErrCollectionTooLarge) {
		return nil, false
	}
	return &Error{Class: ErrItemCollectionSizeLimitExceeded, Msg: MsgCollectionSizeExceeded, Cause: err}, true
}

// NoRequestItems is AWS's answer to RequestItems {}: "The requestItems
// parameter is required for BatchGetItem" (op is the operation).
func NoRequestItems(op string) error {
	return Validationf(msgNoRequestItems, op)
}
