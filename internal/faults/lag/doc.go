// Package lag makes eventual consistency happen on demand and
// deterministically: a GSI read that sees writes late, an eventually
// consistent read of a table that does not see the last writes yet, a
// stream record delivered late. A test chooses the lag (a delay on the
// emulator's clock, or "until released") and moves it by advancing the
// clock or calling Release, never by sleeping.
//
// # Basics
//
// A Gate numbers the commits of one view (Stamp, at the commit point)
// and says up to which number the view's readers see them (Visible):
// all of them (no lag, the default), those at least SetDelay's delay old
// on the clock, or, after Hold, those committed before the last Release.
// Visible never goes back.
//
// A Queue holds values numbered by the commit that made them and drains
// them, oldest first, up to a number: a lagged view's pending changes,
// applied when the gate shows them.
//
// Versions keeps, for the keys written after a view's watermark, what
// each held before the first such write, so that a stale read answers
// the value as of the watermark.
//
// None of them is tied to storage or the emulator; storage, which
// imports nothing of ours, keeps the same shapes behind a small interface
// (below).
//
// # The design for the emulator (wired, faults/WIRING.md §5)
//
// One write path stays: every index entry is still computed inside the
// table's write from the item's old and new images, and nothing makes a
// second pass over a table.
//
// GSI propagation lag, inside storage. GSIs have no strongly consistent
// reads, so a lagged GSI can be served from one tree that is itself
// behind: storage's index.replace, which today computes the old and new
// index keys and changes the tree, computes the same (keys, whether the
// item is in the index before and after, the partition, the old and new
// entries and sizes) and, when the index has a lag, pushes it onto the
// index's pending queue (a Queue of index changes) numbered by the
// table's gate instead of applying it. QueryIndex, ScanIndex and
// IndexStats first drain the queue up to Visible() and apply each change
// to the tree, in commit order, under the table's write lock (a reader
// that finds due changes takes the write lock to drain, then reads under
// the read lock; one that finds none pays one comparison). A GSI read
// therefore sees whole commits in order, late, never half of a
// transaction. Storage needs only an interface it defines itself:
//
//	type Lag interface{ Stamp() uint64; Visible() uint64 }
//
// which *Gate satisfies, set per index (Table.SetIndexLag(name, Lag));
// nil is today's behaviour, one nil check per write. AddIndex drains
// nothing (a backfill is applied at once); DropIndex drops the queue; a
// gate switched to no lag shows everything at the next read. Items the
// queue holds keep their stored records alive until applied. The hook,
// Apply and replay are unchanged: lag is a view, never recorded.
//
// Stale eventually consistent reads of a table, inside storage too (as
// built: storage/read_lag.go). Setting a table's read lag makes an O(1)
// copy-on-write shadow of it (a snapshot made writable); each commit's
// item writes are queued at the commit point under one number from the
// gate, and Table.Eventual applies the commits Visible() shows to the
// shadow, in one hold of its lock, and returns it. Every eventually
// consistent read (GetItem, BatchGetItem, Query, Scan, LSI reads,
// PartiQL) reads the shadow with its unchanged code; ConsistentRead
// true, transactions and every write read the table, as on AWS. (The
// first sketch, an Observer-fed Versions answering AsOf per key and a
// merge of changed keys into each Query and Scan walk, was set aside:
// an observer sees a transaction's writes one by one, and the merge
// needed every read path changed. Versions stays as a building block.)
//
// Late stream records, in the emulator. A stream's records are pushed at
// commit (stream.Observe); each takes a number from the stream's gate
// (Stamp), kept beside the record. GetRecords (stream.read) returns only
// records numbered up to Visible() and stops at the first one after it,
// as if it had not been written yet; the shard iterator's position does
// not move past it, so the record is delivered, in order, once the gate
// shows it. Retention trimming counts from the record's write time, as
// today.
//
// Control: Options and the admin endpoint set, per table and per GSI and
// per stream, a delay or a hold, and Release; the embedding API returns
// the Gate itself. A test then writes, reads the GSI (the write is not
// there), advances the emulator's clock past the delay or calls Release,
// and reads again.
//
// # Caveats
//
// A held gate keeps the number and time of every commit until Release,
// and a lagged view keeps its pending changes: a test that holds a gate
// and writes without end grows without end.
package lag
