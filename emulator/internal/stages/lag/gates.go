package lag

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stagestate"
	"github.com/dynamoemu/dynamoemu/internal/faults/lag"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The gates of a table's views (faults/lag, faults/WIRING.md §5): its
// eventually consistent reads, each GSI, its enabled stream. Each is a
// lag.Gate on the emulator's clock, made the first time a test, the
// admin endpoint, a setting or fuzzing asks for it, lagging nothing
// until SetDelay or Hold. A table or GSI made again (DeleteTable, a
// restore, a GSI deleted and added) starts without one, as a stream
// enabled again does.
//
// The engine's part is storage's: a GSI's gate is held by storage
// (storage.Lag: index_lag.go queues the index's changes), a read gate by
// storage while it lags (read_lag.go: the shadow the shown commits are
// applied to), and a stream's by the core (service.StreamHold: the
// records GetRecords returns). The read gate is the stage's, on the
// table (tableGates): storage holds it only while it lags (a delay, or
// held); set back to lag nothing, it is taken out of storage, which drops
// the shadow, so writes stop paying for it; set to lag again, storage
// gets it back with a shadow started then, at the point of the table's
// commits where its mode changed (the gate's OnSwitch, switchRead). A
// GSI gate that lags nothing passes writes straight to the index. Every
// gate handed out saves the namespace's lags on each change (persist.go).
//
// Lock order: tableGates.mu, then the storage table's mu, then the
// gate's (a leaf).

// ErrNoGSI: the table has no global secondary index of that name (an LSI
// never lags: it is read as the table is).
var ErrNoGSI = errors.New("the table has no global secondary index of that name")

// ErrNoStream: the table has no enabled stream to lag.
var ErrNoStream = errors.New("the table has no enabled stream")

// LagSetting lags one view of the tables called Table (stagestate's).
type LagSetting = stagestate.LagSetting

// LagState is one gate of a namespace: the view it lags, its mode and
// the commits it holds back now (stagestate's).
type LagState = stagestate.LagState

// tableGates is the stage's state on a table: the gate of its
// eventually consistent reads (nil until asked for), guarded by mu,
// which also orders the changes of its mode with storage's; and the
// gates fuzzing lags (fuzzed, set by Watches).
type tableGates struct {
	mu   sync.Mutex
	read *lag.Gate

	fuzzed atomic.Pointer[fuzzedGates]
}

// fuzzedGates are the gates of a table's views that consistency fuzzing
// put in fuzz mode, as Watches found them for the table's last
// definition: End reads them, and only them, because it may run under
// storage's lock (a batch's items end inside its transaction), where
// finding a gate (readGate, indexGate, streamGate) would take
// tableGates.mu, storage's lock again or the core's table.mu.
type fuzzedGates struct {
	read   *lag.Gate
	index  map[string]*lag.Gate // by GSI name
	stream *lag.Gate            // nil: no enabled stream
}

// tableSlot holds each table's tableGates.
var tableSlot = service.NewTableState[tableGates]()

// gatesOf returns t's tableGates, making them if it has none.
func gatesOf(t service.Table) *tableGates {
	if tg := tableSlot.Load(t); tg != nil {
		return tg
	}
	return tableSlot.LoadOrStore(t, new(tableGates))
}

// readGate returns the gate of t's eventually consistent reads, setting
// one if it has none: in the mode a setting asks for (settings.go), else
// lagging nothing (so not in storage yet).
func readGate(t service.Table) *lag.Gate {
	tg := gatesOf(t)
	tg.mu.Lock()
	defer tg.mu.Unlock()
	if tg.read == nil {
		g := newGate(t, func(l LagSetting) bool { return l.Reads })
		tg.read = g
		g.OnSwitch(func(change func()) { switchRead(t, tg, g, change) })
		syncReadLocked(t, tg)
		registered(t.Space()).add(entry{t: t, state: LagState{Table: t.Info().Name, Reads: true}, gate: g})
	}
	return tg.read
}

// newGate returns a gate on t's clock for a view of t: in the mode of
// the first lag setting of t's name that names the view (of), else one
// that lags nothing.
func newGate(t service.Table, of func(LagSetting) bool) *lag.Gate {
	clock := t.Space().Clock()
	for _, l := range settingsOf(t.Space()) {
		if l.Table == t.Info().Name && of(l) {
			return l.Gate(clock)
		}
	}
	return lag.NewGate(clock)
}

// switchRead makes change, a change of the mode of g (t's read gate),
// under tg.mu and the storage table's write lock, and gives storage g, or
// takes it back, as g's new mode says: a write committed once the gate
// says it lags (Settings) is numbered on it and hidden from eventually
// consistent reads; switched off, the shadow goes at that point too.
func switchRead(t service.Table, tg *tableGates, g *lag.Gate, change func()) {
	tg.mu.Lock()
	defer tg.mu.Unlock()
	st := t.Storage()
	if tg.read != g || st == nil {
		change() // a gate t no longer has
		return
	}
	st.SwitchReadLag(g, change, g.Lagging)
}

// syncRead gives storage t's read gate g while g lags, and takes it back
// (dropping the shadow) while it lags nothing.
func syncRead(t service.Table, g *lag.Gate) {
	tg := gatesOf(t)
	tg.mu.Lock()
	defer tg.mu.Unlock()
	if tg.read == g {
		syncReadLocked(t, tg)
	}
}

// syncReadLocked is syncRead with tg.mu held.
func syncReadLocked(t service.Table, tg *tableGates) {
	st := t.Storage()
	if st == nil {
		return
	}
	on := tg.read.Lagging()
	switch cur := st.ReadLag(); {
	case on && cur == nil:
		st.SetReadLag(tg.read)
	case !on && cur != nil:
		st.SetReadLag(nil)
	}
}

// indexGate returns the gate of t's GSI index, setting one (newGate) if
// it has none.
func indexGate(t service.Table, index string) (*lag.Gate, error) {
	if _, ok := t.Definition().Indexes().GSI(index); !ok {
		return nil, fmt.Errorf("%w: %q", ErrNoGSI, index)
	}
	st := t.Storage()
	if st == nil {
		return nil, fmt.Errorf("%w: %q", ErrNoGSI, index)
	}
	tg := gatesOf(t)
	tg.mu.Lock() // one gate per index, whoever asks first
	defer tg.mu.Unlock()
	if g, ok := st.IndexLag(index).(*lag.Gate); ok {
		return g, nil
	}
	g := newGate(t, func(l LagSetting) bool { return !l.Reads && !l.Stream && (l.Index == "*" || l.Index == index) })
	if err := st.SetIndexLag(index, g); err != nil {
		return nil, fmt.Errorf("%w: %q", ErrNoGSI, index)
	}
	// A change of the gate's mode lands between two commits of the
	// table, so no transaction is half passed, half queued.
	g.OnSwitch(func(change func()) { st.SwitchLag(change) })
	registered(t.Space()).add(entry{t: t, state: LagState{Table: t.Info().Name, Index: index}, gate: g, data: st})
	return g, nil
}

// streamGate returns the gate of t's enabled stream, setting one
// (newGate) if it has none, and base: the gate's commit k is the record
// numbered base + k. False when t has no enabled stream.
func streamGate(t service.Table) (g *lag.Gate, base uint64, ok bool) {
	var made *lag.Gate
	h, base, ok := t.HoldStream(func() service.StreamHold {
		made = newGate(t, func(l LagSetting) bool { return l.Stream })
		return made
	})
	if !ok {
		return nil, 0, false
	}
	g, ok = h.(*lag.Gate)
	if ok && g == made {
		registered(t.Space()).add(entry{t: t, state: LagState{Table: t.Info().Name, Stream: true}, gate: g, label: t.StreamLabel()})
	}
	return g, base, ok
}

var _ storage.Lag = (*lag.Gate)(nil)
