package lag

import "time"

// Settings returns the gate's mode: its delay and whether it is held
// (held wins: SetDelay ends a Hold). A gate in neither (0, false) lags
// nothing.
func (g *Gate) Settings() (delay time.Duration, held bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.delay, g.held
}

// OnChange has f called after each change of the gate's mode (SetDelay,
// Hold; Release shows commits but keeps the mode), outside the gate's
// lock, so f may read Settings. It replaces an earlier f (nil: none).
// Calls from concurrent changes may come in any order: f reads the mode
// it acts on (Settings) rather than assuming one.
func (g *Gate) OnChange(f func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.onChange = f
}

// changed calls the change callback, if any; g.mu is not held.
func (g *Gate) changed() {
	g.mu.Lock()
	f := g.onChange
	g.mu.Unlock()
	if f != nil {
		f()
	}
}
