package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/fxstate"
)

// Lags set before the tables exist (emulator.FaultOptions.Lags,
// cmd/dynamoemu's -lag): each setting names a table (in every
// namespace) and a view of it, and every table of that name gets a gate
// in that mode when it is published (CreateTable, a restore, a replay,
// a replica), its GSIs when added, its stream when enabled. The gates
// are the ones IndexLag, TableReadLag and StreamLag return.

// LagSetting lags one view of the tables called Table (fxstate's).
type LagSetting = fxstate.LagSetting

// SetLagSettings replaces the settings; tables already published keep
// the gates they have.
func (s *Service) SetLagSettings(ls []LagSetting) {
	cp := append([]LagSetting(nil), ls...)
	s.lagSet.Store(&cp)
}

// applyLagSettingsLocked gives t's views the gates the settings ask for
// and they do not have yet. t.mu is held, or t is not published yet.
func (s *Service) applyLagSettingsLocked(t *table) {
	ls := s.lagSet.Load()
	if ls == nil || t.data == nil {
		return
	}
	for _, l := range *ls {
		if l.Table != t.name {
			continue
		}
		switch {
		case l.Reads:
			if t.readGate == nil {
				t.readGate = l.Gate(s.clock)
				t.watchReadGate(t.readGate) // fx_lag_switch.go
				t.syncReadLagLocked()       // fx_lag_gates.go
			}
		case l.Stream:
			if st := t.liveStream; st != nil && st.lag.Load() == nil {
				_, next := st.log.Bounds(s.clock())
				st.lag.CompareAndSwap(nil, &streamGate{gate: l.Gate(s.clock), base: next - 1})
			}
		case l.Index != "":
			for _, x := range t.meta.Load().GSIs {
				s.applyIndexLagSetting(t, x.Name)
			}
		}
	}
}

// applyIndexLagSetting gives t's GSI index the gate a setting asks for,
// if it has none: when the table is published, and when UpdateTable adds
// the GSI (before its definition is published).
func (s *Service) applyIndexLagSetting(t *table, index string) {
	ls := s.lagSet.Load()
	if ls == nil {
		return
	}
	for _, l := range *ls {
		if l.Table == t.name && !l.Reads && !l.Stream && (l.Index == "*" || l.Index == index) && t.data.IndexLag(index) == nil {
			g := l.Gate(s.clock)
			if t.data.SetIndexLag(index, g) == nil { // else ErrNoIndex: not in storage (yet)
				t.watchIndexGate(g) // fx_lag_switch.go
			}
			return
		}
	}
}
