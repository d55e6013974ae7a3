package service

import (
	"time"

	"github.com/dynamoemu/dynamoemu/internal/faults/lag"
)

// Lags set before the tables exist (emulator.FaultOptions.Lags,
// cmd/dynamoemu's -lag): each setting names a table (in every
// namespace) and a view of it, and every table of that name gets a gate
// in that mode when it is published (CreateTable, a restore, a replay,
// a replica), its GSIs when added, its stream when enabled. The gates
// are the ones IndexLag, TableReadLag and StreamLag return.

// LagSetting lags one view of the tables called Table: the GSI Index
// ("*": every GSI), its eventually consistent reads (Reads) or its
// stream (Stream); by Delay on the emulator's clock, or Hold (until a
// Release through the API or the admin endpoint).
type LagSetting struct {
	Table  string
	Index  string
	Reads  bool
	Stream bool
	Delay  time.Duration
	Hold   bool
}

// SetLagSettings replaces the settings; tables already published keep
// the gates they have.
func (s *Service) SetLagSettings(ls []LagSetting) {
	cp := append([]LagSetting(nil), ls...)
	s.lagSet.Store(&cp)
}

// newGate is a gate in the setting's mode.
func (s *Service) newGate(l LagSetting) *lag.Gate {
	g := lag.NewGate(s.clock)
	if l.Hold {
		g.Hold()
	} else {
		g.SetDelay(l.Delay)
	}
	return g
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
				t.readGate = s.newGate(l)
				t.watchReadGate(t.readGate) // fx_lag_switch.go
				t.syncReadLagLocked()       // fx_lag_gates.go
			}
		case l.Stream:
			if st := t.liveStream; st != nil && st.lag.Load() == nil {
				_, next := st.log.Bounds(s.clock())
				st.lag.CompareAndSwap(nil, &streamGate{gate: s.newGate(l), base: next - 1})
			}
		case l.Index != "":
			for _, x := range t.meta.Load().gsis {
				s.applyIndexLagSetting(t, x.name)
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
			g := s.newGate(l)
			if t.data.SetIndexLag(index, g) == nil { // else ErrNoIndex: not in storage (yet)
				t.watchIndexGate(g) // fx_lag_switch.go
			}
			return
		}
	}
}
