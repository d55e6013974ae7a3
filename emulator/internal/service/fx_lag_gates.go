package service

import (
	"errors"
	"fmt"

	"github.com/dynamoemu/dynamoemu/faults/lag"
	"github.com/dynamoemu/dynamoemu/storage"
)

// The gates of GSI propagation lag and of stale eventually consistent
// table reads (faults/lag, faults/WIRING.md §5): each is a lag.Gate on
// the emulator's clock, held by storage (storage.Lag), made the first
// time a test asks for it and lagging nothing until SetDelay or Hold.
// A table or GSI created again (DeleteTable, a restore, a GSI deleted
// and added) starts without one, as a stream enabled again does.

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
	gsi := false
	for _, x := range t.meta.Load().gsis {
		gsi = gsi || x.name == index
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
	t.mu.Lock()
	defer t.mu.Unlock()
	if g, ok := t.data.ReadLag().(*lag.Gate); ok {
		return g, nil
	}
	g := lag.NewGate(s.clock)
	t.data.SetReadLag(g)
	return g, nil
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
