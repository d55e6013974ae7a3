package emulator

import (
	"fmt"
	"sync"

	"github.com/dynamoemu/dynamoemu/internal/faults"
)

// The fault rules across restarts (Options.DataDir): every change of the
// rule list (Faults().SetRules, Clear, the admin endpoint) saves the rules
// and their seed as the store's state "faults" (persist.Store.SaveState:
// replaced whole, durably), in the config file's format
// (faults.MarshalConfig); New puts them back when no rules are given at
// start (FaultOptions.Rules, cmd/dynamoemu's -faults, which replace what
// was saved). What the rules have counted (Count, Every, the stats) starts
// afresh, as after SetRules. Contributor Insights' configuration is kept
// per namespace by the service (service/fx_persist.go).

// faultsStateName is the store's state holding the fault rules.
const faultsStateName = "faults"

// faultsSaver saves an injector's rules to e's store.
type faultsSaver struct {
	e   *Emulator
	mu  sync.Mutex // serializes saves: the last one saved is the latest list
	inj *faults.Injector
}

// newInjector returns the emulator's fault injector, saving its rules on
// each change when there is a store.
func (e *Emulator) newInjector() *faults.Injector {
	s := &faultsSaver{e: e}
	s.inj = faults.New(faults.Options{Clock: e.clock, Logger: e.log, OnChange: s.save})
	return s.inj
}

// save saves the injector's rules, when e has a store. A failure is
// logged: the rules have changed all the same.
func (s *faultsSaver) save() {
	e := s.e
	if e.store == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	seed, rules := s.inj.Rules()
	b, err := faults.MarshalConfig(faults.Config{Seed: seed, Rules: rules})
	if err == nil {
		err = e.store.SaveState(faultsStateName, b)
	}
	if err != nil {
		e.log.Error("cannot save the fault rules: a restart will not keep this change", "err", err)
	}
}

// loadFaults puts back the fault rules saved in e's store, if any.
func (e *Emulator) loadFaults() error {
	if e.store == nil {
		return nil
	}
	b, err := e.store.State(faultsStateName)
	if err != nil || b == nil {
		return err
	}
	c, err := faults.ParseConfig(b)
	if err != nil {
		return fmt.Errorf("the saved fault rules (faults.state): %w", err)
	}
	if len(c.Rules) == 0 {
		return nil
	}
	if err := e.inj.SetRules(c.Seed, c.Rules); err != nil {
		return fmt.Errorf("the saved fault rules (faults.state): %w", err)
	}
	e.log.Info("fault rules restored", "rules", len(c.Rules))
	return nil
}
