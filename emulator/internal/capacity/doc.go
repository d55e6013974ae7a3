// Package capacity is DynamoDB's capacity accounting: the units a read or
// a write consumes, and the ConsumedCapacity member of an answer. The
// service core calls it as it calls tablespec: every data-plane
// operation reports what it read and wrote (the sizes of the items or
// pages, whether a read was strongly consistent, a write's
// storage.Change with its old and new images, per table and per index),
// and this package turns that into units for the stages' Outcome (the
// throttler charges them, the report and Contributor Insights count
// them) and, when the request asks for it (ReturnConsumedCapacity TOTAL
// or INDEXES), into the answer's ConsumedCapacity.
//
// The units are AWS's (the DynamoDB developer guide, "Read/write
// capacity mode"): a read is one unit per 4 KB, rounded up and at least
// one, half that when eventually consistent; a write is one unit per
// 1 KB, rounded up and at least one; a transaction's read or write is
// twice that (its read strongly consistent); an LSI read that fetches
// items from its table reads each apart, at its own size, on top of the
// index's read; an index write is one write of the entry's size, two
// when its key changes (units.go). A table with vector indexes bills
// each vector at four bytes a dimension and meters each vector index's
// VectorWriteRequestBytes apart (vector.go). The answer's member
// (consumed.go) carries the table's units, each index's in INDEXES mode,
// and a transaction's units also as ReadCapacityUnits or
// WriteCapacityUnits.
//
// The package keeps no state: every function is a function of its
// arguments.
package capacity
