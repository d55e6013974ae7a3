package service

import (
	"github.com/dynamoemu/dynamoemu/internal/faults/lag"
)

// A lag gate's changes of mode are made between two commits of its
// table (lag.Gate.OnSwitch, storage's SwitchLag and SwitchReadLag): under
// the storage table's write lock. A read gate switched on starts its
// shadow at the very point its mode changed, so a write committed once
// the gate says it lags (Settings) is numbered on it and hidden from
// eventually consistent reads; switched off, the shadow goes at that
// point too. A GSI gate that lags nothing passes each commit straight to
// the index (storage's lag_switch.go), and a change of its mode lands
// between commits, so no transaction is half passed, half queued. Lock
// order: table.mu (read gates), then the storage table's mu, then the
// gate's.

// watchReadGate has g's changes of mode made through t's storage table,
// which holds g while it lags (syncReadLagLocked's rule, at the switch).
func (t *table) watchReadGate(g *lag.Gate) {
	g.OnSwitch(func(change func()) { t.switchReadLag(g, change) })
}

// switchReadLag makes change, a change of g's mode, under t.mu and the
// storage table's write lock, and gives storage g, or takes it back, as
// g's new mode says.
func (t *table) switchReadLag(g *lag.Gate, change func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.readGate != g || t.data == nil {
		change() // a gate t no longer has
		return
	}
	t.data.SwitchReadLag(g, change, g.Lagging)
}

// watchIndexGate has g's changes of mode, the gate of one of t's GSIs,
// made between two commits of t's storage table.
func (t *table) watchIndexGate(g *lag.Gate) {
	data := t.data
	g.OnSwitch(func(change func()) { data.SwitchLag(change) })
}
