package persist

import (
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A Sidecar is state a namespace's owner keeps beside its DB and wants
// back after a restart without logging it separately: state that is a
// function of the DB's committed changes and of when they were
// committed (the emulator's stream records). Persist keeps no copy of
// it: the log already holds every change with its commit time
// (Options.Clock), so the Sidecar rebuilds its state by watching the
// log's records replayed (Replay); snapshots, after which the log is
// gone, carry the state as it stood at their mark, written by the
// Sidecar (Capture) and handed back at load (Load). Persist does not
// read the pieces: they are opaque bytes in frames of their own, after
// the snapshot's tables (snapfile.go).
//
// The methods are called in this order for a namespace: Load once (with
// the pieces of the snapshot loaded, nil when there was none or it
// carried none), then Replay for each record of the log after it, then,
// once the namespace is open, Capture at each compaction.
type Sidecar interface {
	// Load is called after the snapshot's tables are in db and before the
	// log is replayed, with the pieces the snapshot carried, in order.
	// An error fails the load of the namespace.
	Load(db *storage.DB, pieces [][]byte) error
	// Replay applies one record of the log: it calls apply, which applies
	// r to the DB, and watches what it does. at is the record's commit
	// time (zero for a record of a log written before format version 2,
	// which has none). Its error fails the load. r is good for the call
	// only: the next record is parsed into it.
	Replay(r *storage.Record, at time.Time, apply func() error) error
	// Capture is called inside DB.Snapshot's callback, every lock of the
	// DB held and no change in flight: it must note, quickly, what its
	// state is at that instant and return a function that writes it out
	// later, in the background, one piece at a time (emit), each piece at
	// most 1 GiB.
	Capture() func(emit func(piece []byte) error) error
}
