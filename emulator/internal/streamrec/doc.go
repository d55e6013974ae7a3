// Package streamrec is a table's DynamoDB stream: the records it makes
// of the table's committed writes, how they are read, the namespace's
// set of streams, and the pieces a snapshot keeps them in.
//
// A Stream is the storage Observer of its table's data
// (internal/storage/observe.go): storage calls Observe under the table's
// write lock at commit with each item write that changed something, so
// records come from the one write path, in commit order, transactions
// and batches included (one record per item), and nothing re-reads a
// table. Observe only appends a record to the stream's streamlog.Log:
// the images are the table's own immutable stored records, kept without
// decoding or copying whatever the view type. A Stream has one shard,
// open while the stream is enabled and closed when it is disabled or its
// table deleted; a disabled stream stays readable for the retention
// (DefaultRetention unless configured) and is then forgotten by its Set.
// A stage may hold its records back from readers (Hold: the lag gates).
// A reader waits for records on Stream.Changed (the log's change
// channel) and for streams to be made on Options.Changes, which every
// Set that adds or forgets one of the stream's kind notifies.
//
// The service (emulator/internal/service) decides when a table's stream
// starts and stops (CreateTable, UpdateTable, DeleteTable, a restore, a
// load) and attaches it to storage; the Streams API and the event source
// mappings read it through the service's seam (service.Stream is this
// package's Stream). Snapshot pieces (EncodePiece, ParsePieces) carry
// the streams across restarts; a Sidecar per namespace rebuilds the rest
// from the log's replay (sidecar.go), reading each table's definition
// record with the function the service gives it (SidecarConfig.Def).
// This package knows no service type: a stream is made from what its
// table's definition says.
//
// # Files
//
//   - stream.go: Stream, its records and reads.
//   - set.go: Set, a namespace's streams.
//   - hold.go: Hold, a stage holding records back.
//   - pieces.go: a snapshot's pieces of a stream.
//   - sidecar.go: Sidecar, a namespace's streams rebuilt across restarts
//     (persist.Sidecar, by shape), and Sidecars, a service's.
package streamrec
