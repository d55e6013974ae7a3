package emulator

import (
	"context"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/ttl"
)

// TTL sweeping under the embedding program's control: SweepTTL at once,
// RunTTLSweeper every interval (cmd/dynamoemu's -ttlSweepInterval), and
// POST /dynamoemu/ttl/sweep (admin.go). The TTL feature's sweeper (emulator/internal/ttl) deletes.

// SweepTTL deletes, now, every expired item of every table with TTL
// enabled, in every database, and returns how many it deleted.
func (e *Emulator) SweepTTL() int { return ttl.Sweep(e.svc) }

// RunTTLSweeper calls SweepTTL every interval until ctx is done.
func (e *Emulator) RunTTLSweeper(ctx context.Context, interval time.Duration) {
	if interval <= 0 {
		return
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if n := e.SweepTTL(); n > 0 {
				e.log.Debug("ttl sweep", "deleted", n)
			}
		}
	}
}
