package apierr

import "fmt"

// Kinesis streaming destinations and replica auto scaling
// (resources/kinesis.go, globaltables/autoscaling.go), after AWS's
// API reference (API_EnableKinesisStreamingDestination,
// API_UpdateTableReplicaAutoScaling). DynamoDB Local has none of these
// operations; AWS's wording of these errors is not on record, so the
// messages are ours, the classes AWS's.

// MsgKinesisARNInvalid: a StreamArn that is not a Kinesis stream's.
func MsgKinesisARNInvalid(arn string) string {
	return "Invalid StreamArn: " + arn + " is not the ARN of a Kinesis data stream"
}

// MsgKinesisAlreadyEnabled: Enable on a destination not DISABLED.
func MsgKinesisAlreadyEnabled(arn, status string) string {
	return fmt.Sprintf("Table is already streaming to the Kinesis data stream %s (destination status %s)", arn, status)
}

// MsgKinesisNotActive: Disable or Update on a destination not ACTIVE.
func MsgKinesisNotActive(arn, status string) string {
	return fmt.Sprintf("The Kinesis streaming destination %s is not ACTIVE (destination status %s)", arn, status)
}

// MsgKinesisLimit: a third destination (LimitExceededException).
const MsgKinesisLimit = "The table already streams to the maximum number of Kinesis data streams (2)"

// MsgKinesisUpdateEmpty: Update without a change.
const MsgKinesisUpdateEmpty = "UpdateKinesisStreamingConfiguration must specify ApproximateCreationDateTimePrecision"

// MsgKinesisPrecisionSame: Update to the precision the destination has.
func MsgKinesisPrecisionSame(p string) string {
	return "The Kinesis streaming destination already uses ApproximateCreationDateTimePrecision " + p
}

// MsgTableNotActive: a control-plane change on a table not ACTIVE
// (ResourceInUseException).
func MsgTableNotActive(name, status string) string {
	return "Attempt to change a resource which is still in use: Table is being " + status + ": " + name
}

// MsgAutoScalingOnDemand: replica auto scaling on a PAY_PER_REQUEST table.
const MsgAutoScalingOnDemand = "Auto scaling settings cannot be updated for a table in PAY_PER_REQUEST billing mode"

// MsgAutoScalingMinMax: MinimumUnits above MaximumUnits.
const MsgAutoScalingMinMax = "MinimumUnits must be less than or equal to MaximumUnits"

// MsgAutoScalingNoUpdate: UpdateTableReplicaAutoScaling with nothing to update.
const MsgAutoScalingNoUpdate = "At least one of ProvisionedWriteCapacityAutoScalingUpdate, GlobalSecondaryIndexUpdates or ReplicaUpdates is required"

// MsgAutoScalingTarget: a target value outside 20..90 (Application Auto
// Scaling's DynamoDB utilization range).
const MsgAutoScalingTarget = "TargetValue must be between 20 and 90"

// MsgReplicaNotFound: an update naming a region with no replica.
func MsgReplicaNotFound(region string) string {
	return "Requested resource not found: Replica in region " + region + " not found"
}
