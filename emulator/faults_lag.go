package emulator

import (
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/lag"
)

// IndexLag returns the gate that delays what a global secondary index
// sees of its table's writes (in the namespace an access key and region
// select): with SetDelay(d), a Query or Scan of the GSI (PartiQL
// included) sees each write d after it, on the emulator's clock (Advance
// moves it); with Hold, only after Release. A transaction's writes appear
// together, commits in order, deletes and updates as late as puts. A
// new gate lags nothing. Errors: no such table, or no GSI of that name
// (an LSI is read as its table is: see TableReadLag).
func (e *Emulator) IndexLag(accessKey, region, table, index string) (LagGate, error) {
	return lagGate(lag.IndexLag(e.svc, accessKey, region, table, index))
}

// TableReadLag returns the gate that delays what a table's eventually
// consistent reads see of its writes (GetItem, BatchGetItem, Query, Scan
// and PartiQL SELECTs with ConsistentRead false, its LSIs included):
// until the gate shows a write, they answer the item as it was before
// it. Strongly consistent reads, transactions and conditions see every
// write, as on DynamoDB. A new gate lags nothing.
func (e *Emulator) TableReadLag(accessKey, region, table string) (LagGate, error) {
	return lagGate(lag.TableReadLag(e.svc, accessKey, region, table))
}

// LagSetting lags one view of every table called Table (in every
// namespace) from the moment it is created: its GSI Index ("*": every
// GSI; a GSI added later too), its eventually consistent reads (Reads)
// or its stream (Stream, once enabled); by Delay on the emulator's
// clock, or Hold until a Release (IndexLag, TableReadLag and StreamLag
// return the gates; POST /dynamoemu/lag releases them).
type LagSetting struct {
	// Table names the tables lagged.
	Table string
	// Index is the GSI lagged ("*": every GSI); Reads lags the
	// eventually consistent reads, Stream the stream. One of the three.
	Index  string
	Reads  bool
	Stream bool
	// Delay is the lag on the emulator's clock; Hold holds every write
	// until a Release instead.
	Delay time.Duration
	Hold  bool
}

// lagSettings converts settings for the lag stage.
func lagSettings(ls []LagSetting) []lag.LagSetting {
	out := make([]lag.LagSetting, len(ls))
	for i, l := range ls {
		out[i] = lag.LagSetting(l)
	}
	return out
}
