// Package lag is the lag stage of the request pipeline: the gates that
// make a table's views trail its writes, and consistency fuzzing. It
// plugs into the service core through the stage seam
// (emulator/internal/service/stage.go, stage_read.go and
// stage_state.go), wired in emulator/features.go, and the core names
// nothing of it.
//
// # Gates
//
// Each view of a table that may lag has a gate (internal/faults/lag) once
// something asks for it (gates.go): its eventually consistent reads (kept
// in the table's TableState; storage holds it while it lags and applies
// the shown commits to a shadow), each GSI (held by storage, which queues
// the index's changes), its enabled stream (the stream's
// service.StreamHold: GetRecords stops at the first record it does not
// show). Tests and the admin endpoint (/dynamoemu/lag) take them with
// IndexLag, TableReadLag and StreamLag; the lags given at start
// (Settings, a value among the service's Config.Settings) give a view
// its gate's mode when the gate is made (settings.go). With -dbPath each
// change of a gate handed out saves the namespace's lagging gates as one
// DB metadata key, put back when the namespace is loaded (a
// its Loaded hook); Lags lists them (persist.go).
//
// # Consistency fuzzing
//
// In consistency fuzzing (a Fuzzer among the service's Config.Settings;
// emulator.Options.Consistency "fuzz:SEED") every table the stage watches gets its views' lag gates (faults/lag) put in
// fuzz mode when the stage first sees the table's definition (Watches):
// the gate of its eventually consistent reads, one per GSI and one for
// its enabled stream. Each commit is then hidden from the next 1 to
// MaxReads reads of the view and shown within a second at the latest
// (Bounds): a read right after a write never sees it, a reader that
// retries does. Every eventually consistent read (GetItem, BatchGetItem,
// Query, Scan, PartiQL SELECT; a GSI's always) is put to ViewRead, which
// counts it on the gate; GetRecords is counted in CheckCall, on the gate
// of the stream its iterator names only while that stream is its
// table's (a deleted table's stream, or one disabled, is not the stream
// of the table made again under its name, nor of the one enabled since:
// its reads count on no gate and report nothing). Strongly
// consistent reads and transactions read the table itself and are never
// stale.
//
// The Fuzzer keeps the writes each view has not shown yet (End of a
// write use: its key, its GSI keys, the commit number on each gate) and,
// at each read, the ones the read's key condition covers: the stale-read
// report (Report), one StaleRead per read that missed a committed write,
// naming the table, the index or stream, the key read and each write it
// missed.
//
// # Reproducibility
//
// A gate's draws are seeded by the seed and the view's name (kind,
// table, index), never by the namespace, so a branch of a namespace and
// the namespace itself draw alike: the same seed and the same requests
// on a view give the same stale reads, whatever the machine's speed, as
// long as no commit waits out its time bound (at least MinDelay).
//
// # Caveats
//
// The report attributes a commit to the write whose End runs next on
// its table (the gates number commits, the uses do not): exact for one
// client at a time, approximate for concurrent writers on one table.
// Writes the pipeline does not see as uses (TTL deletions, a restore)
// lag but are not named. A Query's sort condition other than equality is
// not checked against a missed write's key (the partition is). The
// lambdaesm pollers read streams without GetRecords: records reach them
// by the time bound. Lag settings from the admin endpoint (SetDelay,
// Hold) end a gate's fuzz mode.
//
// # Locks
//
// Below the core's storage.Table.mu (the service's lock order, doc.go):
// a lagging read's shadow's mu (storage/read_lag.go) and a gate's mutex
// (internal/faults/lag, a leaf), taken at a commit (Stamp), by a read of
// the trailing view (Visible) and by a gate's change of mode (Hold,
// SetDelay). A change of the read gate's mode takes tableGates.mu and
// then storage.Table.mu (gates.go). A namespace's saves take
// spaceGates.saveMu with no lock held, or under the core's table.mu when
// a table or GSI is deleted, and storage's and the gates' locks one at a
// time inside it (persist.go); spaceGates.mu is a leaf, and the
// Fuzzer's mu one but for the gates' locks.
//
// Finding or making a view's gate (readGate, indexGate, streamGate)
// takes tableGates.mu, storage's locks and, for a stream, the core's
// table.mu (Table.HoldStream): it is done with no lock held, by Watches
// (asked before a use begins), ViewRead (before storage is read),
// CheckCall (before the call runs), Loaded and the admin calls. End may
// run under storage.Table.mu (a batch's items end inside the batch's
// transaction), so in fuzzing it finds nothing: it records the write on
// the gates Watches put in fuzz mode (tableGates.fuzzed, an atomic
// pointer) and takes only the Fuzzer's mu and the gates' mutexes.
package lag
