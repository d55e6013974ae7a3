package throttle

import "time"

// Settings say which tables' capacity an emulator enforces: the
// throttling stage (emulator/internal/stages/throttle) configures a
// Throttler per namespace with them, and each table from its definition
// and tags (Tag, VectorSearchTag).
type Settings struct {
	// Provisioned enforces the provisioned capacity of PROVISIONED tables
	// and their GSIs (token buckets with Burst of unused capacity).
	Provisioned bool
	// HotKeys enforces the per-partition-key limits (3,000 RCU, 1,000 WCU
	// per second) on every table (but those tagged off): ThrottlingException
	// on an on-demand table, ProvisionedThroughputExceededException on a
	// provisioned one, whether or not its capacity is enforced.
	HotKeys bool
	// Burst is the unused capacity kept (0: AWS's 300 s).
	Burst time.Duration
}

// Tag is the tag that turns throttling on or off for one table ("on":
// its provisioned capacity is enforced, whatever the Settings; "off":
// never throttled).
const Tag = "dynamoemu:throttle"

// VectorSearchTag is the tag that limits SearchVectors on each of a
// table's vector indexes to its value in VectorSearchRequestBytes per
// second (a positive number; a bucket of one second's worth, starting
// full): ThrottlingException past it. AWS publishes no such limit (a
// search draws on no read capacity of the table); the tag lets a test
// see its client's retries. Tag off turns it off too.
const VectorSearchTag = "dynamoemu:vector-search-bytes"
