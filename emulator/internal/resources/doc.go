// Package resources is two table-level features behind the service
// core's seam (service.Config.Features) that attach something to a table
// and keep it in the table's definition, in the feature's slot
// (service.Definition.Slot), so that replay, persistence and backups
// carry it and it goes with the table:
//
//   - Policies: resource-based policies, PutResourcePolicy,
//     GetResourcePolicy and DeleteResourcePolicy, on a table or its
//     latest stream (policies.go). Documents are checked as JSON policy
//     documents of at most 20 KB, and enforced only in the IAM policy
//     mode, on the data plane (the IAM stage reads them from the slot:
//     docs/iam.md).
//   - KinesisDestinations: Kinesis Data Streams for DynamoDB,
//     Enable, Disable, Describe and UpdateKinesisStreamingDestination
//     (kinesis.go), with AWS's transient states (ENABLING, UPDATING,
//     DISABLING), each lasting the service's transient delay.
//
// # Caveats
//
// AWS applies a policy asynchronously; the emulator at once. There is no
// Kinesis: a destination's stream ARN is checked for its form only, and
// no record is ever delivered to it.
package resources
