package lag

import (
	"sync/atomic"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// Lags set before the tables exist (emulator.FaultOptions.Lags,
// cmd/dynamoemu's -lag): each setting names a table (in every namespace)
// and a view of it, and every table of that name gets a gate in that
// mode for the view when the view's gate is made: when the stage first
// sees a definition of the table (Watches: before the first use of a
// table made, restored, replayed or replicated, of a GSI added, of a
// stream enabled), or when IndexLag, TableReadLag or StreamLag asks for
// it first.

// Settings are the lag settings of a service: a value among its
// Config.Settings. Safe for concurrent use.
type Settings struct {
	p atomic.Pointer[[]LagSetting]
}

// NewSettings returns settings holding ls.
func NewSettings(ls []LagSetting) *Settings {
	s := &Settings{}
	s.Set(ls)
	return s
}

// Set replaces the settings; tables already seen keep the gates they
// have.
func (s *Settings) Set(ls []LagSetting) {
	cp := append([]LagSetting(nil), ls...)
	s.p.Store(&cp)
}

// LagsSetting is the key of the lags given at start, a service's
// *Settings (NewSettings), in service.Config.Settings.
var LagsSetting service.SettingOf[*Settings]

// FuzzerSetting is the key of a service's consistency fuzzing, a
// *Fuzzer, in service.Config.Settings (none: no fuzzing).
var FuzzerSetting service.SettingOf[*Fuzzer]

// settingsOf returns the lag settings of sp's service (nil: none).
func settingsOf(sp service.Space) []LagSetting {
	s, ok := LagsSetting.Of(sp)
	if !ok || s == nil {
		return nil
	}
	if p := s.p.Load(); p != nil {
		return *p
	}
	return nil
}

// applySettings gives t's views the gates the settings ask for and they
// do not have yet (newGate reads the settings): its reads, each GSI,
// its enabled stream.
func applySettings(t service.Table) {
	ls := settingsOf(t.Space())
	for _, l := range ls {
		if l.Table != t.Info().Name {
			continue
		}
		switch {
		case l.Reads:
			readGate(t)
		case l.Stream:
			streamGate(t)
		case l.Index != "":
			for _, x := range t.Definition().Indexes().GSIList() {
				if l.Index == "*" || l.Index == x.Name() {
					_, _ = indexGate(t, x.Name()) // else not in storage (yet)
				}
			}
		}
	}
}
