package emulator

import (
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/globaltables"
)

// Global tables: a replica is the table of the same name in another
// region's database of the same access key, and every replica's writes
// reach the others asynchronously (emulator/internal/globaltables).
// By default a write is visible in the other regions from the next
// request on; Lags.SetReplicationDelay makes replication lag like AWS's (about
// a second) so a test can prove that its code copes, and
// DrainReplication ends the lag at once.

// SetReplicationDelay sets how long a write to a global table takes to
// reach its other replicas (0, the default: by the next request).
func (l Lags) SetReplicationDelay(d time.Duration) { globaltables.SetDelay(l.e.svc, d) }

// DrainReplication applies every replicated write still on its way,
// whatever the delay, and returns how many it applied.
func (l Lags) DrainReplication() int { return globaltables.Drain(l.e.svc) }
