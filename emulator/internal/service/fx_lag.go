package service

import (
	"errors"

	"github.com/dynamoemu/dynamoemu/internal/faults/lag"
)

// Late stream records (faults/lag, faults/WIRING.md §5): a stream may
// have a gate; each record it takes is stamped on the gate at commit
// (Observe, under storage's lock, so in commit order), and GetRecords
// returns only the records the gate shows, stopping at the first it does
// not: the shard iterator does not move past it, and the record is
// delivered, in order, once the gate shows it (the clock advanced past
// the delay, or Release). GSI propagation lag and stale eventually
// consistent table reads live in storage (index_lag.go, read_lag.go;
// here fx_lag_gates.go and stage_read.go).

// streamGate is a stream's gate and the sequence number of the last
// record taken before it was set: the gate's commit k is the record
// numbered base + k.
type streamGate struct {
	gate *lag.Gate
	base uint64
}

// stampLag stamps one record on the stream's gate, if it has one.
func (s *stream) stampLag() {
	if g := s.lag.Load(); g != nil {
		g.gate.Stamp()
	}
}

// visibleLimit caps a read of limit records from pos to the records the
// gate shows; ok false when it shows none from pos.
func (s *stream) visibleLimit(pos uint64, limit int) (int, bool) {
	g := s.lag.Load()
	if g == nil {
		return limit, true
	}
	vis := g.base + g.gate.Visible()
	if pos > vis {
		return 0, false
	}
	return int(min(uint64(limit), vis-pos+1)), true
}

// ErrNoStream: the table has no enabled stream to lag.
var ErrNoStream = errors.New("the table has no enabled stream")

// StreamLag returns the gate of the enabled stream of a table in the
// namespace an access key and region select, setting one (lagging
// nothing until SetDelay or Hold) if it has none. A stream enabled later
// (after a disable) starts without one.
func (s *Service) StreamLag(accessKey, region, table string) (*lag.Gate, error) {
	ns := s.namespaceOf(accessKey, region)
	t := ns.getTable(table)
	if t == nil {
		return nil, errors.New("no table " + table)
	}
	t.mu.Lock()
	st := t.liveStream
	t.mu.Unlock()
	if st == nil {
		return nil, ErrNoStream
	}
	g := s.streamGateOf(st)
	g.OnChange(ns.registered().saveLags) // fx_lag_persist.go
	return g, nil
}

// streamGateOf returns st's gate, setting one if it has none.
func (s *Service) streamGateOf(st *stream) *lag.Gate {
	for {
		if g := st.lag.Load(); g != nil {
			return g.gate
		}
		_, next := st.log.Bounds(s.clock())
		g := &streamGate{gate: lag.NewGate(s.clock), base: next - 1}
		if st.lag.CompareAndSwap(nil, g) {
			return g.gate
		}
	}
}
