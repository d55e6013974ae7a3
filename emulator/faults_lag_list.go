package emulator

import (
	"net/http"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/adminhttp"
	consistency "github.com/dynamoemu/dynamoemu/emulator/internal/stages/lag"
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
	ls := consistency.Lags(e.svc)
	out := make([]LagState, len(ls))
	for i, l := range ls {
		out[i] = LagState{Namespace: l.Namespace, Table: l.Table, Index: l.Index, Reads: l.Reads, Stream: l.Stream,
			Delay: l.Delay, Hold: l.Hold, Pending: l.Pending}
	}
	return out
}

// lagView is one gate in GET /dynamoemu/lag's answer.
type lagView struct {
	Namespace string `json:"namespace"`
	Table     string `json:"table"`
	Index     string `json:"index,omitempty"`
	Reads     bool   `json:"reads,omitempty"`
	Stream    bool   `json:"stream,omitempty"`
	Delay     string `json:"delay"`
	Hold      bool   `json:"hold"`
	Pending   int    `json:"pending"`
}

// serveLagGet answers GET /dynamoemu/lag: {"lags":[...]}, each gate with
// its view, its delay (a Go duration, as POST takes it), whether it is
// held, and what it holds back.
func (e *Emulator) serveLagGet(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	views := []lagView{}
	for _, l := range e.Lags() {
		views = append(views, lagView{Namespace: l.Namespace, Table: l.Table, Index: l.Index, Reads: l.Reads, Stream: l.Stream,
			Delay: l.Delay.String(), Hold: l.Hold, Pending: l.Pending})
	}
	adminhttp.WriteJSON(w, map[string]any{"lags": views})
}
