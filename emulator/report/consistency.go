package report

import "time"

// The stale-read report of consistency fuzzing (the emulator's
// Options.Consistency "fuzz:SEED"; docs/consistency.md): every read
// that returned data older than a committed write, and the writes it
// missed. Its JSON is the admin endpoint's (GET /dynamoemu/consistency).

// StaleRead is one read that returned data older than a committed write
// (consistency fuzzing): the read and the writes it missed.
type StaleRead struct {
	// N is the read's number among the reads of its view (from 1).
	N  uint64 `json:"n"`
	Op string `json:"op"`
	// Namespace is the ID of the namespace read ("AKID/region",
	// "shared"; a branch's: its Branch.Namespace), as
	// Branches.NamespaceID gives it: which client, or which test's
	// branch, made the read.
	Namespace string `json:"namespace"`
	// Table is the table read; Index the GSI or LSI read ("": the table).
	Table string `json:"table"`
	Index string `json:"index,omitempty"`
	// View is what lagged: "table" (eventually consistent reads of the
	// table or an LSI), "index" (a GSI) or "stream".
	View string `json:"view"`
	// Key is the key condition read in DynamoDB JSON: the item's key, a
	// Query's partition (and sort key when equal); nil for a Scan or a
	// stream.
	Key map[string]map[string]string `json:"key,omitempty"`
	At  time.Time                    `json:"at"`
	// Missed are the committed writes the read did not see, oldest first.
	Missed []MissedWrite `json:"missed"`
}

// MissedWrite is a committed write a stale read did not see.
type MissedWrite struct {
	// Commit is the write's number among its view's commits (a
	// stream's: the record's sequence number).
	Commit uint64 `json:"commit"`
	Op     string `json:"op"`
	// Key is the item's key in DynamoDB JSON.
	Key map[string]map[string]string `json:"key"`
	// Event is INSERT, MODIFY or REMOVE ("": not known, a batch item).
	Event string    `json:"event,omitempty"`
	At    time.Time `json:"at"`
}

// ConsistencyReport is the stale-read report of consistency fuzzing.
type ConsistencyReport struct {
	// Mode is "fuzz" or "strong" (no fuzzing: nothing is reported).
	Mode string `json:"mode"`
	Seed uint64 `json:"seed"`
	// StaleReads are the stale reads seen, oldest first; Dropped counts
	// those past the ten thousand kept.
	StaleReads []StaleRead `json:"staleReads"`
	Dropped    int         `json:"dropped"`
}
