package streamsapi

import (
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// wellFormedStreamARN reports whether arn has the shape of a DynamoDB
// stream ARN, "arn:<partition>:dynamodb:<region>:<account>:table/<table
// name>/stream/<label>", whether or not such a stream exists. AWS answers
// a malformed one with ValidationException "Invalid StreamArn" (the
// aws-sdk-js integration tests against AWS: DescribeStream of
// "fake-stream"), a well-formed unknown one with ResourceNotFoundException.
// DynamoDB Local answers both "not found".
func wellFormedStreamARN(arn string) bool {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) != 6 || parts[0] != "arn" || parts[1] == "" || parts[2] != "dynamodb" || parts[3] == "" || parts[4] == "" {
		return false
	}
	rest, ok := strings.CutPrefix(parts[5], "table/")
	if !ok {
		return false
	}
	table, label, ok := strings.Cut(rest, "/stream/")
	return ok && label != "" && tablespec.ValidTableName(table)
}

// checkStreamARN refuses a malformed stream ARN (after the member
// constraints, before the lookup).
func checkStreamARN(arn string) error {
	if !wellFormedStreamARN(arn) {
		return apierr.Validation(apierr.MsgInvalidStreamArn)
	}
	return nil
}
