package emulator

import (
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/lag"
)

// LagState is one lag gate of a namespace: the view it lags (a table's
// GSI Index, its eventually consistent Reads or its Stream), its mode
// (Delay, Hold; neither: it lags nothing now) and Pending, the commits
// it holds back now (a transaction's writes are one commit; for a stream,
// its records).
type LagState struct {
	// Namespace is the access key and region of the gate's namespace.
	Namespace string
	// Table is the table lagged; Index the GSI lagged, or Reads its
	// eventually consistent reads, or Stream its stream.
	Table  string
	Index  string
	Reads  bool
	Stream bool
	// Delay and Hold are the gate's mode.
	Delay time.Duration
	Hold  bool
	// Pending counts the commits the gate holds back now.
	Pending int
}

// List returns the lag gates of every namespace (set by Index, Reads,
// Stream, the admin endpoint or FaultOptions.Lags), by namespace and
// table.
func (l Lags) List() []LagState {
	ls := lag.Lags(l.e.svc)
	out := make([]LagState, len(ls))
	for i, g := range ls {
		out[i] = LagState{Namespace: g.Namespace, Table: g.Table, Index: g.Index, Reads: g.Reads, Stream: g.Stream,
			Delay: g.Delay, Hold: g.Hold, Pending: g.Pending}
	}
	return out
}
