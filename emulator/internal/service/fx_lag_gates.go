package service

import (
	"errors"
	"fmt"

	"github.com/dynamoemu/dynamoemu/internal/faults/lag"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The gates of GSI propagation lag and of stale eventually consistent
// table reads (faults/lag, faults/WIRING.md §5): each is a lag.Gate on
// the emulator's clock, held by storage (storage.Lag), made the first
// time a test asks for it and lagging nothing until SetDelay or Hold.
// A table or GSI created again (DeleteTable, a restore, a GSI deleted
// and added) starts without one, as a stream enabled again does.
//
// A read gate is the table's (table.readGate); storage holds it only
// while it lags (a delay, or held): set back to lag nothing, it is taken
// out of storage, which drops the shadow, so writes stop paying for it;
// set to lag again, storage gets it back with a shadow started then, at
// the point of the table's commits where its mode changed (the gate's
// OnSwitch, fx_lag_switch.go). A GSI gate that lags nothing passes writes
// straight to the index. Every gate handed
// out saves the namespace's lags on each change (fx_lag_persist.go).

// ErrNoGSI: the table has no global secondary index of that name (an LSI
// never lags: it is read as the table is).
var ErrNoGSI = errors.New("the table has no global secondary index of that name")

// IndexLag returns the gate that delays a GSI's view of its table's
// writes, in the namespace an access key and region select, setting one
// if it has none.
func (s *Service) IndexLag(accessKey, region, table, index string) (*lag.Gate, error) {
	t, err := s.lagTable(accessKey, region, table)
	if err != nil {
		return nil, err
	}
	g, err := s.indexGate(t, index)
	if err != nil {
		return nil, err
	}
	g.OnChange(t.ns.saveLags)
	return g, nil
}

// indexGate returns the gate of t's GSI index, setting one if it has none.
func (s *Service) indexGate(t *table, index string) (*lag.Gate, error) {
	gsi := false
	for _, x := range t.meta.Load().GSIs {
		gsi = gsi || x.Name == index
	}
	if !gsi {
		return nil, fmt.Errorf("%w: %q", ErrNoGSI, index)
	}
	t.mu.Lock() // one gate per index, whoever asks first
	defer t.mu.Unlock()
	if g, ok := t.data.IndexLag(index).(*lag.Gate); ok {
		return g, nil
	}
	g := lag.NewGate(s.clock)
	if err := t.data.SetIndexLag(index, g); err != nil {
		return nil, fmt.Errorf("%w: %q", ErrNoGSI, index)
	}
	t.watchIndexGate(g) // fx_lag_switch.go
	return g, nil
}

// TableReadLag returns the gate that delays what a table's eventually
// consistent reads see of its writes (strongly consistent reads and
// transactions see every write), setting one if it has none: from then
// on, until the gate shows them, such reads answer an item as it was
// before the writes the gate holds back.
func (s *Service) TableReadLag(accessKey, region, table string) (*lag.Gate, error) {
	t, err := s.lagTable(accessKey, region, table)
	if err != nil {
		return nil, err
	}
	g := s.tableGate(t)
	g.OnChange(t.ns.saveLags) // storage gets g at the switch (fx_lag_switch.go)
	return g, nil
}

// tableGate returns t's read gate, setting one (lagging nothing, so not in
// storage yet) if it has none.
func (s *Service) tableGate(t *table) *lag.Gate {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.readGate == nil {
		t.readGate = lag.NewGate(s.clock)
		t.watchReadGate(t.readGate) // fx_lag_switch.go
	}
	return t.readGate
}

// syncReadLag gives storage t's read gate g while g lags, and takes it
// back (dropping the shadow) while it lags nothing. It reads g's mode
// under t.mu, so of concurrent changes the last to run sets the state.
func (t *table) syncReadLag(g *lag.Gate) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.readGate != g {
		return
	}
	t.syncReadLagLocked()
}

// syncReadLagLocked is syncReadLag with t.mu held.
func (t *table) syncReadLagLocked() {
	g := t.readGate
	on := g.Lagging()
	switch cur := t.data.ReadLag(); {
	case on && cur == nil:
		t.data.SetReadLag(g)
	case !on && cur != nil:
		t.data.SetReadLag(nil)
	}
}

// lagTable finds a table to lag.
func (s *Service) lagTable(accessKey, region, table string) (*table, error) {
	t := s.namespaceOf(accessKey, region).getTable(table)
	if t == nil {
		return nil, errors.New("no table " + table)
	}
	return t, nil
}

var _ storage.Lag = (*lag.Gate)(nil)
