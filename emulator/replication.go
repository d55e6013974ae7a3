package emulator

import "time"

// Global tables: a replica is the table of the same name in another
// region's database of the same access key, and every replica's writes
// reach the others asynchronously (internal/service/global_tables*.go).
// By default a write is visible in the other regions from the next
// request on; SetReplicationDelay makes replication lag like AWS's (about
// a second) so a test can prove that its code copes, and
// DrainReplication ends the lag at once.

// SetReplicationDelay sets how long a write to a global table takes to
// reach its other replicas (0, the default: by the next request).
func (e *Emulator) SetReplicationDelay(d time.Duration) { e.svc.SetReplicationDelay(d) }

// DrainReplication applies every replicated write still on its way,
// whatever the delay, and returns how many it applied.
func (e *Emulator) DrainReplication() int { return e.svc.DrainReplication() }
