package emulator

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/dynamoemu/dynamoemu/expr"
	"github.com/dynamoemu/dynamoemu/storage"
)

// errorClass is one DynamoDB error class: its wire name, the namespace that
// prefixes it in "__type", and its HTTP status. Classes are sentinels: test a
// returned error with errors.Is(err, ErrValidation).
type errorClass struct {
	name   string // the part of __type after '#', which SDKs key on
	prefix string // the part before '#'
	status int
	// capitalMessage: AWS spells the message field "Message" for errors raised
	// by its request layer (coral.service) and "message" elsewhere.
	capitalMessage bool
}

func (c *errorClass) Error() string { return c.name }

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
	ErrValidation = &errorClass{"ValidationException", nsValidate, http.StatusBadRequest, false}
	// ErrResourceNotFound: the table or index does not exist (or is not ACTIVE).
	ErrResourceNotFound = &errorClass{"ResourceNotFoundException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrResourceInUse: the table exists already or is being created/deleted.
	ErrResourceInUse = &errorClass{"ResourceInUseException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrConditionalCheckFailed: a condition evaluated to false; may carry the old item.
	ErrConditionalCheckFailed = &errorClass{"ConditionalCheckFailedException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrItemCollectionSizeLimitExceeded: an item collection of an LSI table grew past 10 GB.
	ErrItemCollectionSizeLimitExceeded = &errorClass{"ItemCollectionSizeLimitExceededException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrTransactionCanceled: a transaction was cancelled; carries one
	// CancellationReason per action. AWS spells its message "Message".
	ErrTransactionCanceled = &errorClass{"TransactionCanceledException", nsDynamoDB, http.StatusBadRequest, true}
	// ErrIdempotentParameterMismatch: a ClientRequestToken reused with a different request.
	ErrIdempotentParameterMismatch = &errorClass{"IdempotentParameterMismatchException", nsDynamoDB, http.StatusBadRequest, true}
	// ErrLimitExceeded: too many concurrent control-plane operations or tables.
	ErrLimitExceeded = &errorClass{"LimitExceededException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrAccessDenied: the request names a resource of another account.
	ErrAccessDenied = &errorClass{"AccessDeniedException", nsService, http.StatusBadRequest, true}
	// ErrSerialization: the body is not JSON, or a member has the wrong JSON type.
	ErrSerialization = &errorClass{"SerializationException", nsService, http.StatusBadRequest, true}
	// ErrUnknownOperation: X-Amz-Target names no DynamoDB operation.
	ErrUnknownOperation = &errorClass{"UnknownOperationException", nsService, http.StatusBadRequest, true}
	// ErrMissingAuthenticationToken: the request has no SigV4 Authorization.
	ErrMissingAuthenticationToken = &errorClass{"MissingAuthenticationTokenException", nsService, http.StatusBadRequest, true}
	// ErrIncompleteSignature: an Authorization header without a usable Credential.
	ErrIncompleteSignature = &errorClass{"IncompleteSignatureException", nsService, http.StatusBadRequest, true}
	// ErrUnrecognizedClient: the access key id is not one the emulator accepts.
	ErrUnrecognizedClient = &errorClass{"UnrecognizedClientException", nsService, http.StatusBadRequest, false}
	// ErrThrottling: more requests in flight than the emulator's limit.
	ErrThrottling = &errorClass{"ThrottlingException", nsAvailability, http.StatusBadRequest, false}
	// ErrRequestEntityTooLarge: the body is larger than the request limit (16 MB).
	ErrRequestEntityTooLarge = &errorClass{"RequestEntityTooLargeException", nsService, http.StatusRequestEntityTooLarge, true}
	// ErrExpiredIterator: a shard iterator older than 15 minutes (Streams API).
	ErrExpiredIterator = &errorClass{"ExpiredIteratorException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrTrimmedDataAccess: a stream position whose records were trimmed (Streams API).
	ErrTrimmedDataAccess = &errorClass{"TrimmedDataAccessException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrForbidden: the emulator's edge refuses the request before any
	// operation sees it: a Host it does not serve (hosts.go) or a cross-site
	// request to an admin endpoint (admin_guard.go). Not an AWS answer (see
	// hosts.go): the wire name is AWS's AccessDeniedException so that SDKs
	// and the AWS CLI decode it and do not retry, with status 403.
	ErrForbidden = &errorClass{"AccessDeniedException", nsService, http.StatusForbidden, true}
	// ErrUnsupportedMediaType: a state-changing admin request without
	// Content-Type application/json (admin_guard.go); emulator-only.
	ErrUnsupportedMediaType = &errorClass{"UnsupportedMediaTypeException", nsService, http.StatusUnsupportedMediaType, true}
	// ErrInternalServer: a bug in the emulator (a panic or an unclassified error).
	ErrInternalServer = &errorClass{"InternalServerError", nsDynamoDB, http.StatusInternalServerError, false}
)

// apiError is an error of one class with AWS's message text. Its Error() is the
// message alone, so callers may wrap or compare it with AWS's wording.
type apiError struct {
	class *errorClass
	msg   string
	item  storage.Item // ConditionalCheckFailedException with ALL_OLD; else nil
	// reasons are TransactionCanceledException's CancellationReasons; else nil.
	reasons []CancellationReason
	cause   error // what a %w verb wrapped, for errors.Is/As; may be nil
}

func (e *apiError) Error() string        { return e.msg }
func (e *apiError) Is(target error) bool { return target == e.class }
func (e *apiError) Unwrap() error        { return e.cause }

func newError(class *errorClass, msg string) error { return &apiError{class: class, msg: msg} }

// errValidation is a ValidationException (400) with AWS's message msg.
func errValidation(msg string) error { return newError(ErrValidation, msg) }

// errValidationf is errValidation with fmt.Sprintf formatting. A %w verb keeps
// the wrapped error reachable with errors.Is/As.
func errValidationf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &apiError{class: ErrValidation, msg: err.Error(), cause: errors.Unwrap(err)}
}

// errResourceNotFound is a ResourceNotFoundException (400).
func errResourceNotFound(msg string) error { return newError(ErrResourceNotFound, msg) }

// errResourceInUse is a ResourceInUseException (400).
func errResourceInUse(msg string) error { return newError(ErrResourceInUse, msg) }

// errConditionalCheckFailed is a ConditionalCheckFailedException (400) with
// AWS's message. item is the old item to return when the request asked for
// ReturnValuesOnConditionCheckFailure=ALL_OLD, and nil otherwise.
func errConditionalCheckFailed(item storage.Item) error {
	return &apiError{class: ErrConditionalCheckFailed, msg: "The conditional request failed", item: item}
}

// errItemCollectionSizeLimitExceeded is an ItemCollectionSizeLimitExceededException (400).
func errItemCollectionSizeLimitExceeded(msg string) error {
	return newError(ErrItemCollectionSizeLimitExceeded, msg)
}

// errLimitExceeded is a LimitExceededException (400).
func errLimitExceeded(msg string) error { return newError(ErrLimitExceeded, msg) }

// errAccessDenied is an AccessDeniedException (400).
func errAccessDenied(msg string) error { return newError(ErrAccessDenied, msg) }

// errSerialization is a SerializationException (400). msg may be empty: AWS
// sends none for bodies that are not JSON at all.
func errSerialization(msg string) error { return newError(ErrSerialization, msg) }

// errUnknownOperation is UnknownOperationException, with DynamoDB Local's message.
func errUnknownOperation() error {
	return newError(ErrUnknownOperation, "An unknown operation was requested.")
}

// errMissingAuthenticationToken is AWS's answer to a request without SigV4 auth.
func errMissingAuthenticationToken() error {
	return newError(ErrMissingAuthenticationToken, "Request is missing Authentication Token")
}

// errRequestEntityTooLarge answers a body over the limit. AWS documents this
// common error (HTTP 413, "The request entity is too large") without a fixed
// message text; we use the documented description.
func errRequestEntityTooLarge() error {
	return newError(ErrRequestEntityTooLarge, "The request entity is too large")
}

// errUnrecognizedClient refuses an access key id. The message is the one
// DynamoDB's developer guide gives for UnrecognizedClientException and
// DynamoDB Local sends for a malformed key; the namespace and the lower-case
// "message" are AWS's (public records of its answer to an unknown key, whose
// text is "The security token included in the request is invalid.").
func errUnrecognizedClient() error {
	return newError(ErrUnrecognizedClient, "The Access Key ID or security token is invalid.")
}

// errThrottling answers a request over the in-flight limit with AWS's
// ThrottlingException (HTTP 400, the SDKs retry it with back-off); the
// message is the one DynamoDB's developer guide gives for it.
func errThrottling() error {
	return newError(ErrThrottling, "Rate of requests exceeds the allowed throughput.")
}

// errInternal is an InternalServerError (500); only for bugs.
func errInternal() error { return newError(ErrInternalServer, msgInternal) }

// classify returns the class and message of err, and whether err was classified
// at all. Unclassified errors are bugs and become InternalServerError.
func classify(err error) (*apiError, bool) {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae, true
	}
	// Expression errors and number errors carry AWS's ValidationException
	// text already; the class is decided here, at the edge.
	var ee *expr.Error
	if errors.As(err, &ee) || isNumberError(err) {
		return &apiError{class: ErrValidation, msg: err.Error(), cause: err}, true
	}
	if ae, ok := collectionError(err); ok {
		return ae, true
	}
	// The namespace's commit hook refused a change (undone) or could not
	// make it durable (made): AWS's answer to a failure of its own, 500
	// InternalServerError, which SDKs retry. Classified, but logged by the
	// edge like every 500.
	if errors.Is(err, storage.ErrHookFailed) || errors.Is(err, storage.ErrNotDurable) {
		return &apiError{class: ErrInternalServer, msg: msgInternal, cause: err}, true
	}
	return errInternal().(*apiError), false
}

func isNumberError(err error) bool {
	return errors.Is(err, storage.ErrNumberInvalid) || errors.Is(err, storage.ErrNumberPrecision) ||
		errors.Is(err, storage.ErrNumberOverflow) || errors.Is(err, storage.ErrNumberUnderflow)
}

// appendErrorBody renders the JSON body of a classified error.
func appendErrorBody(b []byte, e *apiError) []byte {
	b = append(b, `{"__type":`...)
	b = appendString(b, e.class.prefix+"#"+e.class.name)
	if e.msg != "" {
		if e.class.capitalMessage {
			b = append(b, `,"Message":`...)
		} else {
			b = append(b, `,"message":`...)
		}
		b = appendString(b, e.msg)
	}
	if e.item != nil {
		b = append(b, `,"Item":`...)
		b = appendItem(b, e.item)
	}
	if e.reasons != nil {
		b = appendCancellationReasons(b, e.reasons)
	}
	return append(b, '}')
}
