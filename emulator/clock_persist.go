package emulator

import (
	"encoding/json"
	"fmt"
	"time"
)

// The clock's offset across restarts (Options.DataDir): every Advance and
// SetNow saves the offset from the base clock as the store's state
// "clock" (persist.Store.SaveState: replaced whole, durably), and New
// puts it back before any namespace is loaded, so a restarted emulator's
// clock is where it was (the base clock having moved on meanwhile): TTL,
// stream retention, token windows and transient states go on from there.

// clockStateName is the store's state holding the clock offset.
const clockStateName = "clock"

// clockState is the saved offset, in nanoseconds.
type clockState struct {
	Offset int64 `json:"offsetNanos"`
}

// loadClock sets the clock's offset from the store's saved state, if any.
func (e *Emulator) loadClock() error {
	b, err := e.store.State(clockStateName)
	if err != nil || b == nil {
		return err
	}
	var st clockState
	if err := json.Unmarshal(b, &st); err != nil {
		return fmt.Errorf("the clock's saved offset (clock.state): %w", err)
	}
	e.skew.offset.Store(st.Offset)
	if st.Offset != 0 {
		e.log.Info("clock offset restored", "offset", time.Duration(st.Offset), "now", e.clock().UTC().Format(time.RFC3339Nano))
	}
	return nil
}

// saveClock saves the clock's offset, when there is a store. A failure
// is logged: the clock has moved all the same.
func (e *Emulator) saveClock() {
	if e.store == nil {
		return
	}
	e.skew.saveMu.Lock()
	defer e.skew.saveMu.Unlock()
	b, _ := json.Marshal(clockState{Offset: e.skew.offset.Load()}) // the latest offset, whichever move saves last
	if err := e.store.SaveState(clockStateName, b); err != nil {
		e.log.Error("cannot save the clock's offset: a restart will not keep this move", "err", err)
	}
}
