// Package persist keeps storage.DBs on disk: a write-ahead log of every
// record a DB's commit hook hands over, and snapshots the log is folded
// into. It knows storage and nothing else of ours: what a record means to
// the emulator (table settings, tags, TTL, streams, kept as opaque
// metadata) is not its business; it keeps every record, in order, whole.
//
// # Basics
//
// Open(dir, Options) opens a data directory and locks it; Store.DB(name)
// loads a namespace (or starts it empty) and returns its *storage.DB, whose
// hook is the namespace's log: from then on every committed storage
// transaction and every catalog change of that DB is logged before it is
// acknowledged (storage.Hook: Commit appends, Wait waits for the disk). A
// failed append fails the change, which storage undoes. Store.Close makes
// everything durable (folding a long log into a snapshot first) and
// unlocks; Store.Compact, Stats and Recovery are
// for administration and tests.
//
// # Layout
//
//	<dir>/LOCK                         flock'd while open; holds the pid
//	<dir>/FORMAT                       the directory's layout version
//	<dir>/<namespace>/wal-<lsn>.log    log segments, named by their first record
//	<dir>/<namespace>/snap-<lsn>.snap  snapshots, named by the last record they hold
//
// One directory per namespace, named as DynamoDB Local names its files
// (SharedNamespace "shared-local-instance", or NamespaceName(key, region)
// "<key>_<region>", escaped), rather than one log with a namespace id in
// each record: no transaction spans namespaces, so each has its own log,
// order, compaction and recovery, damage to one leaves the others alone,
// and a namespace can be copied or removed as a directory. LSNs number a
// namespace's records from 1 without gaps. The formats are in frame.go
// (framing, CRC-32C per frame, the versioned file header) and snapfile.go.
//
// # Durability
//
// A change is acknowledged (its storage call returns) when:
//
//   - Sync (the default): its record is on stable storage: written, and an
//     fdatasync of the segment covering it has returned. Commits that wait
//     at the same time share one fdatasync, led by the first of them
//     (wal.go: no goroutine is handed the work). An acknowledged change
//     survives the process being killed, an operating system crash and a
//     power cut (on a disk that honours flushes).
//   - Group: the same guarantee; when other writers shared one of the
//     last two fdatasyncs, the next waits up to Options.GroupWindow for
//     them to come back and share it too (a lone writer never waits): more
//     throughput with many writers (each up to that much more latency),
//     the cost of Sync with one.
//   - None: its record has been written to the operating system (one
//     pwrite); nothing waits for the disk. An acknowledged change survives
//     the process being killed (kill -9, a panic, an OOM kill); an
//     operating system crash or a power cut loses what the kernel had not
//     yet written, which is the end of the log: the namespace then opens
//     at an earlier state, still with whole transactions only.
//
// In every mode a change that fails is not in the log: a failed write is
// cut off again before anyone else appends. If that cut fails, or an
// fdatasync fails (after which the kernel may have dropped the pages it
// could not write), the log stops: every later write fails with the cause
// until restart, reads go on. A full disk therefore fails writes (storage
// undoes them: nothing half applied) and leaves reads working; writes
// succeed again once there is room.
//
// # Recovery
//
// Loading a namespace loads the newest snapshot that reads back whole,
// then replays the log records after it, in order, through DB.Replay
// (DB.Apply for a DB nobody uses yet: a commit of plain item writes is
// checked whole, then stored without a transaction; each item image is
// checked once, the record parsed with storage.ParseRecordInto).
// When that log is long (deferIndexes), the secondary indexes' entries
// are left to the end and built at once (storage.DB.DeferIndexes). A
// frame that is torn (the end of a write that did not finish), damaged
// (a checksum mismatch, a zeroed page) or out of sequence ends the log
// there: the namespace holds every record before it, each whole (a
// record is a whole transaction, so no transaction is half there), the
// damaged bytes are kept beside the segment (<segment>.cut-<offset>), the
// segment is truncated, and later segments are set aside (*.cut); this is
// point-in-time recovery, and Recovery.Cut and the log say what was cut.
// A snapshot that does not read back whole is renamed *.corrupt and an
// older one, if any, is loaded instead.
//
// The files must prove they hold the namespace's whole history, or it is
// refused (ErrIncomplete) with an error naming the files and the records
// missing: each segment the log moved on from is sealed, naming the next
// (frame.go), so a missing segment, the newest included, is seen; a
// snapshot must be followed by a segment holding the record after it;
// with no usable snapshot the log must reach back to record 1; every
// file carries the namespace's database id, so one of another database
// is seen. A gap after a segment that is not sealed is a crash's torn
// end (the seal is written, and made durable, before any record after it
// is acknowledged), cut as above. Options.AcceptLoss opens such a
// namespace at the records before the first missing one, setting aside
// what follows (*.cut, *.foreign) and saying what it lost
// (Recovery.Lost, the log at error level); the cut leaves a log that
// opens without it. A file of a later format version (ErrNewerFormat), a
// directory of a later layout (<dir>/FORMAT), and a record whose checksum
// is right but which does not parse or apply (a bug, or a newer writer)
// are refused whatever the options, never guessed at. Files of format 2
// (no seals, no ids) are read as before. Options.Progress reports a long
// load.
//
// # Compaction
//
// When the log written since the last snapshot outgrows a quarter of it
// (compact.go, Options.CompactRatio),
// DB.Snapshot freezes the DB copy-on-write with every lock held for O(1)
// work per table and index (the only pause writers see), marking the log
// there; the snapshot is written to a temporary file in the background,
// made durable and renamed into place, and files no longer needed go:
// the older snapshot, and the segments whose records are all in the new
// one. A load that replayed a long log, and a Close after one, compact
// too (worthSnapshotLocked), so that the next start reads a snapshot.
//
// # Caveats
//
// A namespace is loaded whole into memory: the DB is storage's in-memory
// tables, the files only keep them. Start-up reads the snapshot and the
// log since; compaction bounds the log to about a quarter of the
// snapshot's size (or CompactBytes, when that is larger).
// A record larger than 1 GiB (a restored table of that many bytes of
// items) cannot be logged: that change fails. The lock is flock(2): it
// keeps out another process on the same machine, not one on another
// machine sharing a network file system. Store.Close waits for a
// compaction in progress; a process killed during one leaves a temporary
// file, removed at the next load.
package persist
