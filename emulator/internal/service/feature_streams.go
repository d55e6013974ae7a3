package service

import (
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/streamrec"
)

// A namespace's streams as a feature that reads them sees them (the Streams API, the
// event source mappings). The core starts and stops them: a table's stream is the
// storage Observer of its data on the one write path (streams.go), kept across restarts
// (streamrec/sidecar.go) and held back by a stage's StreamHold (stage_read.go); a feature reads them.

// Stream is a table's stream, enabled or disabled within its retention
// (emulator/internal/streamrec: its identity, State, Bounds, Read, SizeBytes).
type Stream = streamrec.Stream

// Enabled is the StreamStatus of an enabled stream (its shard open);
// a disabled one's is "DISABLED".
const Enabled = streamrec.Enabled

// Streams returns the request namespace's streams not yet forgotten at
// the request's time, in creation order.
func (c Call) Streams() []Stream { return c.c.ns.streams.All(c.c.Now()) }

// Streams is Call.Streams outside a request, at now (the event source mappings' pollers).
func (ns *Namespace) Streams(now time.Time) []Stream {
	return Call{c: &call{ns: ns, now: now}}.Streams()
}

// Stream returns the request namespace's stream of ARN arn, or false (none, or forgotten).
func (c Call) Stream(arn string) (Stream, bool) { return c.c.ns.streams.Find(arn, c.c.Now()) }

// Region is the region whose requests select the namespace; "" for the
// shared namespace (Config.SharedDB), which holds every region's tables.
func (s Space) Region() string { return s.ns.region }
