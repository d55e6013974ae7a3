package tablespec

import "github.com/dynamoemu/dynamoemu/emulator/internal/apierr"

// Table quotas: AWS's defaults, which DescribeLimits reports.
const (
	AccountMaxCapacityUnits = 80000
	TableMaxCapacityUnits   = 40000
)

// CheckTableMaxThroughput refuses table throughput above the per-table
// quota (CreateTable, UpdateTable) with AWS's LimitExceededException in
// region (text quoted from AWS in public error reports and the
// ack-api-quirks lab notes, DDB-TABLE-443). DynamoDB Local answers
// ValidationException "Cannot increase provisioned throughput to more
// than 40,000 units per table".
func CheckTableMaxThroughput(read, write int64, region string) error {
	if read > TableMaxCapacityUnits {
		return apierr.LimitExceeded(apierr.MsgAboveTableMax("ReadCapacityUnits", read, region))
	}
	if write > TableMaxCapacityUnits {
		return apierr.LimitExceeded(apierr.MsgAboveTableMax("WriteCapacityUnits", write, region))
	}
	return nil
}
