package lag

// A change of a gate's mode and the view it gates. A view's owner
// (storage) decides at each commit, under its own lock, whether the
// commit is numbered on the gate and held back or shown at once (Idle):
// a table's eventually consistent reads take a shadow copy of the table
// only while the gate lags, a GSI applies writes straight to its tree
// while it does not. For no commit to fall between the new mode and the
// view's answer to it, the owner makes each change of mode (SetDelay,
// Hold) at a point of its commit order: OnSwitch gives the gate a
// function that runs the change under the owner's lock and adjusts the
// view there.

// OnSwitch has each change of the gate's mode (SetDelay, Hold) made
// through f: f is called, outside the gate's lock, with the change, and
// must call it exactly once (under whatever lock orders it with the
// view's commits; the change takes the gate's lock, so that lock comes
// first). It replaces an earlier f (nil: changes are made directly).
// OnChange's function runs after, as without it.
func (g *Gate) OnSwitch(f func(change func())) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.onSwitch = f
}

// switchMode makes a change of mode (set, run under g.mu) through the
// switch function, if any.
func (g *Gate) switchMode(set func()) {
	g.mu.Lock()
	sw := g.onSwitch
	g.mu.Unlock()
	change := func() {
		g.mu.Lock()
		set()
		g.mu.Unlock()
	}
	if sw == nil {
		change()
		return
	}
	sw(change)
}

// Idle reports whether the gate lags nothing now (no delay, not held):
// a commit stamped now is visible at once, so a view may apply it
// directly without numbering it.
func (g *Gate) Idle() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.delay == 0 && !g.held && g.fuzz == nil
}

// Lagging reports whether the gate may hold a commit back now: it has a
// delay, is held, or is in fuzz mode (not Idle).
func (g *Gate) Lagging() bool { return !g.Idle() }
