package apierr

// Kinesis streaming destinations and replica auto scaling
// (resources/kinesis.go, globaltables/autoscaling.go), after AWS's
// API reference (API_EnableKinesisStreamingDestination,
// API_UpdateTableReplicaAutoScaling). DynamoDB Local has none of these
// operations. Enable's, Update's and Disable's state messages are AWS's as
// recorded (conformance/records/kinesis-destinations.jsonl); the
// others' wording is not on record, so those messages are ours, the
// classes AWS's.

// MsgKinesisARNInvalid: a StreamArn that is not a Kinesis stream's.
func MsgKinesisARNInvalid(arn string) string {
	return "Invalid StreamArn: " + arn + " is not the ARN of a Kinesis data stream"
}

// kinesisState is the head of AWS's ValidationException on a destination
// in the wrong state (and on one never attached).
const kinesisState = "Table is not in a valid state to enable Kinesis Streaming Destination: "

// MsgKinesisDisableNotActive: Disable on a destination not ACTIVE, or
// never attached: AWS's message names neither the stream nor its state.
const MsgKinesisDisableNotActive = kinesisState + "KinesisStreamingDestination must be ACTIVE to perform DISABLE operation."

// MsgKinesisUpdateNotActive: Update on a destination not ACTIVE.
const MsgKinesisUpdateNotActive = kinesisState + "Kinesis streaming is not in ACTIVE state. Updates are only allowed in ACTIVE state."

// MsgKinesisNoDestination: Update naming a stream never attached to the
// table (not a DISABLED destination).
func MsgKinesisNoDestination(arn, table string) string {
	return kinesisState + "No streaming destination with streamArn: " + arn + " found for table with tableName: " + table
}

// MsgKinesisEnableNotDisabled: Enable while any destination of the
// table, this stream's or another's, is not DISABLED.
const MsgKinesisEnableNotDisabled = kinesisState + "EnableKinesisStreamingDestination must be DISABLED or ENABLE_FAILED to perform ENABLE operation."

// MsgKinesisUpdateEmpty: Update without a configuration, or with one
// whose members are all null.
const MsgKinesisUpdateEmpty = "Streaming destination cannot be updated with given parameters: UpdateKinesisStreamingConfiguration cannot be null or contain only null values"

// MsgKinesisPrecisionSame: Update to the precision the destination has
// (MILLISECOND when none was set).
func MsgKinesisPrecisionSame(p, tableID, arn string) string {
	return "Invalid Request: Precision is already set to the desired value of " + p + " for tableId: " + tableID + ", kdsArn: " + arn
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
