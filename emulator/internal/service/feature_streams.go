package service

import (
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/streamrec"
)

// A namespace's streams as a feature that reads them sees them (the
// Streams API, the event source mappings, a stage that holds them back):
// Space.Streams. The core starts and stops them: a table's stream is the
// storage Observer of its data on the one write path (streams.go), kept
// across restarts (streamrec/sidecar.go) and held back by a stage's
// StreamHold (stage_read.go); a feature reads them.

// Stream is a table's stream, enabled or disabled within its retention
// (emulator/internal/streamrec: its identity, State, Bounds, Read, SizeBytes).
type Stream = streamrec.Stream

// Enabled is the StreamStatus of an enabled stream (its shard open);
// a disabled one's is "DISABLED".
const Enabled = streamrec.Enabled

// Streams returns the namespace's streams not yet forgotten at now (a
// request's Now; a poller's clock), in creation order. A stream of an
// ARN is the one of the list with that ARN (none: forgotten, or never).
func (s Space) Streams(now time.Time) []Stream { return s.ns.kept().streams.All(now) }

// Space is the namespace outside a request (the event source mappings'
// pollers), as a feature's operation sees its own (Call.Space).
func (ns *Namespace) Space() Space { return Space{ns: ns} }

// Region is the region whose requests select the namespace; "" for the
// shared namespace (Config.SharedDB), which holds every region's tables.
func (s Space) Region() string { return s.ns.Region() }
