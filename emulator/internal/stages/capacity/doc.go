// Package capacity is capacity accounting's stage of the request
// pipeline: it plugs into the service core through the stage seam
// (emulator/internal/service/stage.go and stage_capacity.go), wired in
// emulator/features.go, and the core names nothing of it.
//
// The core's operations report what they read and wrote: the sizes of
// the items or pages, whether a read was strongly consistent, a write's
// storage.Change (its old and new images), per table and per index. The
// stage, the service's Meter, turns that into units and hands them back
// through the seam: to the stages' Outcome (the throttler charges them,
// the report and Contributor Insights count them), and, when the request
// asks for it (ReturnConsumedCapacity TOTAL or INDEXES), to the answer's
// ConsumedCapacity member. A request that asks for none and that no
// stage watches never reaches the stage.
//
// The units are AWS's (the DynamoDB developer guide, "Read/write
// capacity mode"): a read is one unit per 4 KB, rounded up and at least
// one, half that when eventually consistent; a write is one unit per
// 1 KB, rounded up and at least one; a transaction's read or write is
// twice that (its read strongly consistent); an LSI read that fetches
// items from its table reads each apart, at its own size, on top of the
// index's read; an index write is one write of the entry's size, two
// when its key changes (units.go). The core says which reads and writes
// are a transaction's and reports each fetched item; it computes no
// units. A table with vector
// indexes bills each vector at four bytes a dimension and meters each
// vector index's VectorWriteRequestBytes apart (vector.go). The answer's
// member (consumed.go) carries the table's units, each index's in
// INDEXES mode, and a transaction's units also as ReadCapacityUnits or
// WriteCapacityUnits.
//
// The stage keeps no state and takes part in no use (its Watches is
// false): it only meters.
package capacity
