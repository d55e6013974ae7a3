package apierr

// Error message text of the DynamoDB Streams API and of TimeToLive. Each
// says where its wording comes from: DynamoDB Local 3.3.0 unless noted.

const (
	// GetRecords with an iterator that does not decode.
	MsgInvalidShardIterator = "Invalid ShardIterator"
	// GetShardIterator: a shard the stream does not have.
	MsgShardNotFound = "Requested resource not found: Shard does not exist"
	// GetShardIterator: AT_ or AFTER_SEQUENCE_NUMBER without one, or a
	// sequence number that is not one.
	MsgInvalidSequenceNumber = msgInvalidParams + "Invalid SequenceNumber"
	// GetShardIterator: TRIM_HORIZON or LATEST with a SequenceNumber.
	MsgSequenceNumberNotAllowed = msgInvalidParams + "SequenceNumber should not be passed for this iterator type"
	// GetRecords: Limit above 1000.
	MsgGetRecordsLimit = msgInvalidParams + "Limit should be less than or equal to 1000"
	// An iterator past its 15 minutes. AWS's text is not on record; this
	// says what AWS's documentation says happened.
	MsgIteratorExpired = "Iterator expired. The shard iterator has expired and can no longer be used to retrieve stream records."
	// A position whose records are gone (AWS's wording, as quoted in
	// client libraries' issues).
	MsgTrimmedData = "The data you are trying to access has been trimmed"

	// TimeToLive.
	MsgTTLAlreadyEnabled  = "TimeToLive is already enabled"
	MsgTTLAlreadyDisabled = "TimeToLive is already disabled"
	MsgTTLOtherAttribute  = "TimeToLive is active on a different AttributeName"
	// DescribeTimeToLive and UpdateTimeToLive on a missing table.
	MsgTTLTableNotFound = "Cannot do operations on a non-existent table"
)

// MsgStreamNotFound is the ResourceNotFoundException of a stream ARN that
// names no stream.
func MsgStreamNotFound(arn string) string {
	return "Requested resource not found: Stream: " + arn + " not found"
}

// MsgInvalidStreamArn: a StreamArn (or ExclusiveStartStreamArn) that is not
// a DynamoDB stream ARN. AWS's answer in aws-sdk-js's integration tests
// against AWS (DescribeStream of "fake-stream"); DynamoDB Local answers
// ResourceNotFoundException.
const MsgInvalidStreamArn = "Invalid StreamArn"
