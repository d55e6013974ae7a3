package emulator

import (
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/lag"
)

// Lags make what reads see of the writes lag behind them, as on
// DynamoDB, on demand: a table's GSIs (Index), its eventually
// consistent reads (Reads) and its stream (Stream) each have a LagGate
// that delays or holds what they see; List lists the gates; and the
// replicas of global tables (SetReplicationDelay, DrainReplication) see
// each other's writes late. Nothing lags until asked to (or
// FaultOptions.Lags, or Options.Consistency's fuzzing). The zero Lags
// is not usable: Emulator.Lags returns one.
type Lags struct{ e *Emulator }

// Lags returns the emulator's lags.
func (e *Emulator) Lags() Lags { return Lags{e} }

// Index returns the gate that delays what a global secondary index
// sees of its table's writes (in the namespace an access key and region
// select): with SetDelay(d), a Query or Scan of the GSI (PartiQL
// included) sees each write d after it, on the emulator's clock (Advance
// moves it); with Hold, only after Release. A transaction's writes appear
// together, commits in order, deletes and updates as late as puts. A
// new gate lags nothing. Errors: no such table, or no GSI of that name
// (an LSI is read as its table is: see Reads).
func (l Lags) Index(accessKey, region, table, index string) (LagGate, error) {
	return lagGate(lag.IndexLag(l.e.svc, accessKey, region, table, index))
}

// Reads returns the gate that delays what a table's eventually
// consistent reads see of its writes (GetItem, BatchGetItem, Query, Scan
// and PartiQL SELECTs with ConsistentRead false, its LSIs included):
// until the gate shows a write, they answer the item as it was before
// it. Strongly consistent reads, transactions and conditions see every
// write, as on DynamoDB. A new gate lags nothing.
func (l Lags) Reads(accessKey, region, table string) (LagGate, error) {
	return lagGate(lag.TableReadLag(l.e.svc, accessKey, region, table))
}

// Stream returns the gate that delays the records of a table's enabled
// stream (in the namespace an access key and region select): SetDelay(d)
// delivers each record d after its write on the emulator's clock
// (Advance moves it), Hold keeps them until Release. GetRecords stops at
// the first record not shown yet; its iterator does not move past it.
func (l Lags) Stream(accessKey, region, table string) (LagGate, error) {
	return lagGate(lag.StreamLag(l.e.svc, accessKey, region, table))
}

// LagSetting lags one view of every table called Table (in every
// namespace) from the moment it is created: its GSI Index ("*": every
// GSI; a GSI added later too), its eventually consistent reads (Reads)
// or its stream (Stream, once enabled); by Delay on the emulator's
// clock, or Hold until a Release (Lags.Index, Reads and Stream return
// the gates; POST /dynamoemu/lag releases them).
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
