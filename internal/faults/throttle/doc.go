// Package throttle enforces DynamoDB's capacity limits, when asked to:
// the provisioned read and write capacity of a table and of each global
// secondary index, and the per-partition-key limits of both capacity
// modes. It answers which error AWS gives (faults.Kind, the
// ThrottlingReason and AWS's message) and leaves the wire to the
// emulator. Everything runs on the clock it is given (the emulator's), so
// a test fills and drains capacity by moving that clock, never by
// sleeping, and the same calls at the same clock times get the same
// answers.
//
// # Basics
//
// A Throttler throttles the tables given to Configure (a Table: its Mode,
// provisioned Throughput, and GSIs) until Drop. Around each use of
// capacity the emulator asks Admit(Use) before the request runs, which
// refuses the use when a bucket it draws on is empty, and tells Charge the
// units the request consumed once it has run (the ConsumedCapacity it
// reports). A Use is reads or writes of the table or of one GSI on one
// partition key value: reads of a GSI draw on the GSI, a write draws on
// the table and on every GSI it updates (one Use each), reads of an LSI
// on the table.
//
// # The model
//
//   - Provisioned capacity is a token bucket per table and per GSI and
//     direction, filling at the provisioned units per second. Unused
//     capacity is kept up to 300 seconds' worth (Options.Burst): AWS's
//     developer guide, "Using burst capacity effectively" (and the
//     knowledge-center article "dynamodb-spiky-workloads-short-intervals"),
//     says DynamoDB "currently retains up to 5 minutes (300 seconds) of
//     unused read and write capacity". A new bucket starts full.
//   - A request is admitted while its bucket holds more than nothing, and
//     its units are taken after it ran, which may leave the bucket in debt
//     that later requests wait out: DynamoDB cannot know a Query's cost
//     before it runs, and serves a large read on a small table.
//   - Per-partition-key limits (Options.PerKey): 3,000 read and 1,000
//     write units per second on one partition key value of a table or GSI
//     (AWS's partition limits: "Best practices for designing and using
//     partition keys effectively"), in both modes, one second's worth at
//     most (burst capacity "can't alleviate partition-level throttling").
//     Their buckets are forgotten when full again, so memory follows the
//     keys of about the last second.
//
// # Errors
//
// A provisioned table or GSI out of capacity, or a hot key of a
// provisioned table: ProvisionedThroughputExceededException with "The
// level of configured provisioned throughput for the table was exceeded.
// ..." (for a GSI, "... for one or more global secondary indexes of the
// table was exceeded. ..."). A hot key of an on-demand table:
// ThrottlingException with "Throughput exceeds the current capacity of
// your table or index. ..." (a GSI: "... for one or more global secondary
// indexes. ..."). Reasons follow ThrottlingReason's format:
// Table|Index + Read|Write + ProvisionedThroughputExceeded|
// KeyRangeThroughputExceeded. Inside a transaction the action's
// CancellationReason code is ProvisionedThroughputExceeded or
// ThrottlingError (Kind.CancellationCode). Batches do not fail: their
// refused items go back as UnprocessedItems or UnprocessedKeys, and only a
// batch none of whose items was admitted fails with the error (AWS's
// BatchGetItem and BatchWriteItem references). The faults package's doc
// lists where each message comes from.
//
// # Caveats
//
//   - Burst capacity is kept per table and GSI, not per partition, and is
//     always there; AWS keeps it per partition, gives it on a best-effort
//     basis and may spend it on background work.
//   - Adaptive capacity is not modelled: AWS moves a table's unused
//     capacity to its hot partitions (and isolates hot items), so that a
//     hot key of a provisioned table is throttled only by the partition
//     limits; here, too, but a table's own capacity is never split among
//     partitions, so nothing throttles "a partition" of a provisioned
//     table below those limits either.
//   - On-demand tables are throttled only on hot keys (and a vector
//     index's searches at the emulator's own limit, Table.VectorSearch): not at twice their
//     previous peak, nor at the account's per-table quotas
//     (AccountLimitExceeded) or a configured maximum throughput
//     (MaxOnDemandThroughputExceeded).
//   - A throttled request consumes nothing, as on AWS; a request charged
//     into debt is not undone.
package throttle
