package service

import (
	"cmp"
	"slices"

	"github.com/dynamoemu/dynamoemu/emulator/internal/fxstate"
	"github.com/dynamoemu/dynamoemu/internal/faults/lag"
)

// Lags across restarts (-dbPath) and their listing. Each change of the
// mode of a gate handed out (IndexLag, TableReadLag, StreamLag: SetDelay,
// Hold; the admin endpoint goes through them) saves the mode of every
// gate of the namespace that lags (a delay, or held) as one DB metadata
// key, fxstate.MetaKeyLags: a RecordMeta, logged and kept in snapshots as the
// Contributor Insights configuration is (fx_persist.go). RebuildCatalog
// puts the modes back (restoreLags) on new gates of the tables, GSIs and
// enabled streams that exist, unless lags are given at start
// (SetLagSettings: emulator.FaultOptions.Lags, -lag), which replace what
// was saved, as fault rules given at start do. A restart shows every
// commit made before it: what a gate held back when the emulator stopped
// comes back visible (the data is the table's), and a held gate holds
// what is written after the restart.

// LagState is one gate of a namespace: the view it lags, its mode and
// the commits it holds back now.
type LagState = fxstate.LagState

// lagGate is a gate of a namespace and the view it lags.
type lagGate struct {
	state LagState
	gate  *lag.Gate
}

// lagGates lists the gates of ns's tables, by table and view, with the
// commits each holds back now (the gate's count: storage's queues,
// IndexLagPending and ReadLagPending, shrink only when a read applies
// what the gate shows).
func (ns *Namespace) lagGates() []lagGate {
	var out []lagGate
	for _, t := range ns.allTables() {
		t.mu.Lock()
		rg, st := t.readGate, t.liveStream
		t.mu.Unlock()
		if rg != nil {
			out = append(out, lagGate{LagState{Table: t.name, Reads: true}, rg})
		}
		for _, x := range t.meta.Load().GSIs {
			if g, ok := t.data.IndexLag(x.Name).(*lag.Gate); ok {
				out = append(out, lagGate{LagState{Table: t.name, Index: x.Name}, g})
			}
		}
		if st != nil {
			if sg := st.lag.Load(); sg != nil {
				out = append(out, lagGate{LagState{Table: t.name, Stream: true}, sg.gate})
			}
		}
	}
	for i := range out {
		out[i].state.Delay, out[i].state.Hold = out[i].gate.Settings()
		out[i].state.Pending = out[i].gate.Pending()
	}
	slices.SortStableFunc(out, func(a, b lagGate) int { return cmp.Compare(a.state.Table, b.state.Table) })
	return out
}

// Lags lists every namespace's gates (GET /dynamoemu/lag), by namespace
// and table.
func (s *Service) Lags() []LagState {
	var out []LagState
	for _, ns := range s.dbs.all() {
		for _, g := range ns.lagGates() {
			g.state.Namespace = ns.key
			out = append(out, g.state)
		}
	}
	slices.SortStableFunc(out, func(a, b LagState) int { return cmp.Compare(a.Namespace, b.Namespace) })
	return out
}

// saveLags saves the modes of ns's gates that lag, when its DB is kept
// on disk. Saves are serialized (fxState's saveMu), each writing the
// modes as they are when it runs, so the last one saved is the latest.
// A failed save is logged: the change is made all the same, and a
// restart forgets it.
func (ns *Namespace) saveLags() {
	ns = ns.registered()
	if !ns.persisted() {
		return
	}
	fx := &ns.svc.fx
	fx.saveMu.Lock()
	defer fx.saveMu.Unlock()
	var lags []LagState
	for _, g := range ns.lagGates() {
		if g.state.Delay > 0 || g.state.Hold {
			g.state.Pending = 0
			lags = append(lags, g.state)
		}
	}
	ns.saveStateLocked(fxstate.MetaKeyLags, "the lags", fxstate.Lags(lags), len(lags) == 0)
}

// restoreLags puts back the lags saved in ns's DB on the tables, GSIs
// and enabled streams that exist, unless lags were given at start.
func (ns *Namespace) restoreLags() {
	b := ns.db.Meta(fxstate.MetaKeyLags)
	if b == nil {
		return
	}
	if ls := ns.svc.lagSet.Load(); ls != nil && len(*ls) > 0 {
		return // the lags given at start replace the saved ones
	}
	lags, v, err := fxstate.DecodeLags(b)
	if err != nil || v != fxstate.LagsVersion {
		ns.svc.log.Warn("the saved lags are not readable: left out", "err", err, "version", v)
		return
	}
	s := ns.svc
	for _, l := range lags {
		t := ns.getTable(l.Table)
		if t == nil {
			continue
		}
		var g *lag.Gate
		switch {
		case l.Reads:
			g = s.tableGate(t)
		case l.Stream:
			t.mu.Lock()
			st := t.liveStream
			t.mu.Unlock()
			if st == nil {
				continue
			}
			g = s.streamGateOf(st)
		default:
			var err error
			if g, err = s.indexGate(t, l.Index); err != nil {
				continue
			}
		}
		if l.Hold {
			g.Hold()
		} else {
			g.SetDelay(l.Delay)
		}
		if l.Reads {
			t.syncReadLag(g)
		}
	}
}
