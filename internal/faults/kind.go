package faults

import "net/http"

// Kind is what an injected fault does to the call it hits.
type Kind uint8

// The fault kinds. Each one but Delay is an error AWS answers with; the
// wire facts (ErrorType, Status, Message) are AWS's, and CancellationCode
// says what the fault is inside a transaction.
const (
	// None: no fault (the zero Fault).
	None Kind = iota
	// TransactionConflict: inside TransactWriteItems or TransactGetItems,
	// the matching action is cancelled with CancellationReason code
	// TransactionConflict (the others None); on a single-item call,
	// TransactionConflictException ("an ongoing transaction for the item").
	TransactionConflict
	// TransactionInProgress: TransactionInProgressException, which AWS
	// answers a TransactWriteItems whose ClientRequestToken is still being
	// processed.
	TransactionInProgress
	// ConditionalCheckFailed: ConditionalCheckFailedException; inside a
	// transaction, the action's reason ConditionalCheckFailed.
	ConditionalCheckFailed
	// InternalServerError: HTTP 500 InternalServerError.
	InternalServerError
	// RequestLimitExceeded: the account's throughput quota.
	RequestLimitExceeded
	// Throttling: ThrottlingException, as an on-demand table's hot key gets
	// it; inside a transaction, the action's reason ThrottlingError.
	Throttling
	// ProvisionedThroughputExceeded: ProvisionedThroughputExceededException;
	// inside a transaction, the action's reason ProvisionedThroughputExceeded.
	ProvisionedThroughputExceeded
	// Delay: the call is held for the rule's delay, then runs normally.
	Delay
	numKinds
)

// kindInfo is what the wire needs of a kind.
type kindInfo struct {
	name       string // the name in rules (config and String)
	errorType  string // the __type after '#'
	status     int
	message    string
	cancelCode string // CancellationReason code inside a transaction; "" = the whole call fails
}

// The messages, and where each wording comes from.
const (
	// The API reference's list of CancellationReason messages (types.
	// TransactionCanceledException in aws-sdk-go-v2 carries it); AWS's
	// answers quoted in issues end without the period.
	msgTransactionConflict = "Transaction is ongoing for the item"
	// AWS's answer quoted in aws/aws-sdk-java-v2#2518.
	msgTransactionInProgress = "Transaction from previous request is still in progress"
	// AWS's answers (boto/boto3#2657 and others); the cancellation reason
	// uses the same text.
	msgConditionalCheckFailed = "The conditional request failed"
	// The text the emulator already answers a 500 with (errors.go).
	msgInternalServerError = "Internal server error"
	// No captured AWS answer found: the API reference's description of
	// RequestLimitExceeded.
	msgRequestLimitExceeded = "Throughput exceeds the current throughput quota for your account. Please contact AWS Support to request a quota increase."
	// AWS's answers on on-demand tables quoted in
	// praetorian-inc/chariot-ui#684 (2024) and cowinapi/developer.cowin#151
	// (2021), code ThrottlingException; the API reference lists it as the
	// ThrottlingError reason's message.
	MsgThrottlingTable = "Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try again shortly. If exceptions persist, check if you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html"
	// The API reference's ThrottlingError message for an on-demand GSI
	// (also quoted in BrighterCommand/Brighter#2810).
	MsgThrottlingIndex = "Throughput exceeds the current capacity for one or more global secondary indexes. DynamoDB is automatically scaling your index so please try again shortly."
	// AWS's answers quoted in many issues (mifi/dynamodump#20,
	// quintilesims/layer0#229, oasisprotocol/oasis-core#539).
	MsgProvisionedTable = "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API."
	// AWS's answer quoted in grailbio/reflow#101 (no final period), also
	// the API reference's list.
	MsgProvisionedIndex = "The level of configured provisioned throughput for one or more global secondary indexes of the table was exceeded. Consider increasing your provisioning level for the under-provisioned global secondary indexes with the UpdateTable API"
)

var kinds = [numKinds]kindInfo{
	None:                          {name: "None"},
	TransactionConflict:           {"TransactionConflict", "TransactionConflictException", http.StatusBadRequest, msgTransactionConflict, "TransactionConflict"},
	TransactionInProgress:         {"TransactionInProgress", "TransactionInProgressException", http.StatusBadRequest, msgTransactionInProgress, ""},
	ConditionalCheckFailed:        {"ConditionalCheckFailed", "ConditionalCheckFailedException", http.StatusBadRequest, msgConditionalCheckFailed, "ConditionalCheckFailed"},
	InternalServerError:           {"InternalServerError", "InternalServerError", http.StatusInternalServerError, msgInternalServerError, ""},
	RequestLimitExceeded:          {"RequestLimitExceeded", "RequestLimitExceeded", http.StatusBadRequest, msgRequestLimitExceeded, ""},
	Throttling:                    {"Throttling", "ThrottlingException", http.StatusBadRequest, MsgThrottlingTable, "ThrottlingError"},
	ProvisionedThroughputExceeded: {"ProvisionedThroughputExceeded", "ProvisionedThroughputExceededException", http.StatusBadRequest, MsgProvisionedTable, "ProvisionedThroughputExceeded"},
	Delay:                         {name: "Delay"},
}

// String is the kind's name in rules ("TransactionConflict", "Delay", ...).
func (k Kind) String() string {
	if k < numKinds {
		return kinds[k].name
	}
	return "Kind(?)"
}

// KindOf returns the kind named s (as String spells it), or false.
func KindOf(s string) (Kind, bool) {
	for k := Kind(1); k < numKinds; k++ {
		if kinds[k].name == s {
			return k, true
		}
	}
	return None, false
}

// ErrorType is the exception's name, the part of __type after '#' that
// SDKs key on ("ProvisionedThroughputExceededException"); "" for None and
// Delay.
func (k Kind) ErrorType() string { return k.info().errorType }

// Status is the HTTP status AWS answers the error with (500 for
// InternalServerError, 400 for the others; 0 for None and Delay).
func (k Kind) Status() int { return k.info().status }

// Message is AWS's message for the error (for Throttling and
// ProvisionedThroughputExceeded, the table's wording; faults on an index
// use IndexMessage).
func (k Kind) Message() string { return k.info().message }

// IndexMessage is the message when the fault names a global secondary
// index: AWS words the throughput errors of an index differently.
func (k Kind) IndexMessage() string {
	switch k {
	case Throttling:
		return MsgThrottlingIndex
	case ProvisionedThroughputExceeded:
		return MsgProvisionedIndex
	}
	return k.Message()
}

// CancellationCode is the CancellationReason code of the fault inside a
// transaction ("TransactionConflict", "ConditionalCheckFailed",
// "ThrottlingError", "ProvisionedThroughputExceeded"), or "" when the
// fault fails the whole call instead (TransactionInProgress,
// InternalServerError, RequestLimitExceeded) or is no error (Delay).
func (k Kind) CancellationCode() string { return k.info().cancelCode }

// Retried reports whether aws-sdk-go-v2's standard retryer retries the
// error (its throttle codes, and HTTP 500): what a test of an injected
// fault should expect the SDK to do. TransactionConflictException,
// ConditionalCheckFailedException and TransactionCanceledException are
// not retried.
func (k Kind) Retried() bool {
	switch k {
	case TransactionInProgress, InternalServerError, RequestLimitExceeded, Throttling, ProvisionedThroughputExceeded:
		return true
	}
	return false
}

func (k Kind) info() kindInfo {
	if k < numKinds {
		return kinds[k]
	}
	return kindInfo{}
}
