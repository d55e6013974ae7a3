// Package streamlog is the record log of a DynamoDB stream's shard and
// the Streams API's positions in it.
//
// A Log keeps a stream's Records (one item change each: event, key and
// the stored images the stream's view type shows, never decoded or
// copied), numbers them from FirstSequenceNumber as they are appended,
// trims those older than its retention as new ones arrive and before
// every read, and is closed by Disable. Read returns a page from a
// position (ErrTrimmed before the oldest kept), Bounds the oldest and the
// next position, State whether it is open and when it is to be
// forgotten. Its records live in fixed-size chunks, so an append copies
// nothing and trimming drops whole chunks. A Budget (Attach) bounds the
// bytes of many logs' records together: past it the oldest records go
// before their retention ends, and the trim horizon (Bounds' first)
// moves as it does for time. Changed is a channel the log's next record
// or its disabling closes (a Signal, as go-memdb's watch channels): a
// reader takes it before it reads, and waits on it when it found
// nothing, so it neither polls nor misses a record.
//
// An Iterator is a shard iterator: a stream ARN, a position and the time
// it was made, encoded as "<ARN>|1|<payload>" with a checksum, so it
// holds no server state. Sequence numbers are 21-digit decimals
// (FormatSequenceNumber, ParseSequenceNumber); EventIDPrefix gives the
// first half of a stream's eventIDs.
//
// A log kept across restarts (-dbPath) is written into snapshots: Mark
// notes where a log stands, Copy reads its records out a batch at a
// time, AppendRecords writes a batch in its binary form (storage's
// record form for the images), ParseRecords reads it back and Restore
// makes a log of the records again.
//
// # Files
//
//   - log.go: Record, Log and its chunks.
//   - budget.go: Budget, the bound of many logs' bytes.
//   - signal.go: Signal, the change channel.
//   - iterator.go: Iterator, sequence numbers, event IDs.
//   - restore.go: Mark, Copy, Restore.
//   - encode.go: records in bytes (AppendRecords, ParseRecords).
//
// What a stream is (its ARN, label, view type, its table's key schema)
// and how a snapshot frames its state belong to the service
// (emulator/internal/service's streams files); the log knows only
// storage's keys and images.
package streamlog
