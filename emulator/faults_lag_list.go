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

// Lags lists the lag gates of every namespace (set by IndexLag,
// TableReadLag, StreamLag, the admin endpoint or FaultOptions.Lags), by
// namespace and table.
func (e *Emulator) Lags() []LagState {
	ls := lag.Lags(e.svc)
	out := make([]LagState, len(ls))
	for i, l := range ls {
		out[i] = LagState{Namespace: l.Namespace, Table: l.Table, Index: l.Index, Reads: l.Reads, Stream: l.Stream,
			Delay: l.Delay, Hold: l.Hold, Pending: l.Pending}
	}
	return out
}
