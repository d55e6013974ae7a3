package emulator

import (
	"context"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/ttl"
)

// TTL sweeping under the embedding program's control: SweepTTL at once,
// RunTTLSweeper every interval (cmd/dynamoemu's -ttlSweepInterval), and
// POST /dynamoemu/ttl/sweep (admin.go). The TTL feature's sweeper (emulator/internal/ttl) deletes.

// SweepTTL deletes, now, every item of every table with TTL enabled, in
// every database, whose expiry time has passed on the emulator's clock,
// and returns how many it deleted.
func (c Clock) SweepTTL() int { return ttl.Sweep(c.e.svc) }

// RunTTLSweeper calls SweepTTL every interval until ctx is done.
func (c Clock) RunTTLSweeper(ctx context.Context, interval time.Duration) {
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
			if n := c.SweepTTL(); n > 0 {
				c.e.log.Debug("ttl sweep", "deleted", n)
			}
		}
	}
}
