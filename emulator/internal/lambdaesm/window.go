package lambdaesm

import (
	"bytes"
	"encoding/json"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// Tumbling windows ("Implementing stateful DynamoDB stream processing in
// Lambda", Lambda's developer guide): with TumblingWindowInSeconds, each
// record belongs to the window of its ApproximateCreationDateTime
// (windows of that length from the epoch); a batch holds the records of
// one window, and each invocation gets the window, the state the
// function returned last for it ({} at first), the shard and the
// stream. The function's answer must hold a state (a TimeWindowEventResponse),
// else the invocation failed and is retried as any failure. When the
// window ends (a record of a later window arrives, or the clock passes
// its end), the function is invoked once more with no records,
// isFinalInvokeForWindow true and the window's last state, until that
// succeeds; then the state is gone. A state over 1 MB ends the window
// early: the final invocation says isWindowTerminatedEarly, and the
// window goes on with a new state. Windows are delivered one batch at a
// time whatever the ParallelizationFactor. The final invocation's answer
// needs no state (the guide says nothing of it; its state is dropped).
//
// A window's state is kept with the checkpoint: each invocation that
// succeeded moves the checkpoint past its records and the saved window
// to its state in one save (advance, then Manager.checkpoint), and so
// does the end of a window. A restart on the same data directory
// (persist.go) takes back the open window and its state with the
// checkpoint, so the window goes on counting where it was, and a kill
// at any instant leaves a checkpoint and a state that agree: at most
// the batch being handled is delivered again, with the state from
// before it.

// maxWindowState is the state a window may hold (1 MB a shard).
const maxWindowState = 1 << 20

// tumble is a mapping's open tumbling window.
type tumble struct {
	open  bool
	start int64           // seconds since the epoch
	state json.RawMessage // what the function returned last
}

// windowOf is the start of the window of length w holding a record
// written at at.
func windowOf(at, w int64) int64 {
	if at < 0 {
		return (at - w + 1) / w * w
	}
	return at / w * w
}

// processWindows delivers batch window by window, BatchSize at a time,
// closing each window when a record of another one comes.
func (mp *mapping) processWindows(s service.Stream, st settings, batch []item) {
	for len(batch) > 0 {
		start := windowOf(batch[0].at, st.tumbling)
		n := 1
		for n < len(batch) && windowOf(batch[n].at, st.tumbling) == start {
			n++
		}
		if mp.tw.open && mp.tw.start != start {
			mp.closeWindow(s, st, false)
		}
		if !mp.tw.open {
			mp.openWindow(start, st)
		}
		run := batch[:n]
		for i := 0; i < len(run); i += st.batchSize {
			part := run[i:min(i+st.batchSize, len(run))]
			mp.deliver(s, st, part)
			if mp.stopped() {
				return
			}
			tooLarge := len(mp.tw.state) > maxWindowState
			if tooLarge || i+st.batchSize < len(run) || n < len(batch) { // else run's advance saves it
				mp.advance(part[len(part)-1].seq+1, 0) // the state with its records' checkpoint
				mp.mgr.checkpoint()
			}
			if tooLarge {
				mp.closeWindow(s, st, true)
				mp.openWindow(start, st)
			}
		}
		batch = batch[n:]
	}
}

// openWindow opens the window starting at start, with an empty state.
func (mp *mapping) openWindow(start int64, st settings) {
	mp.tw = tumble{open: true, start: start, state: json.RawMessage(`{}`)}
	mp.mu.Lock()
	mp.windowEnd = start + st.tumbling
	mp.mu.Unlock()
}

// closeWindow invokes the function for the open window's end (early: its
// state grew too large) until the invocation succeeds or the mapping
// stops, then drops the window.
func (mp *mapping) closeWindow(s service.Stream, st settings, early bool) {
	payload := mp.event(s, st, nil, true, early)
	done := false
	for retries := int64(1); !done && !mp.stopped(); retries++ {
		res := mp.call(st, payload)
		mp.count(nil, res)
		if done = res.ok; !done {
			mp.backoff(retries)
		}
	}
	if !done {
		return // stopped first: the saved window is still open
	}
	mp.tw = tumble{}
	mp.mu.Lock()
	mp.windowEnd = 0
	mp.win = tumble{}
	mp.notifyLocked()
	mp.mu.Unlock()
	mp.mgr.checkpoint() // the window's end, saved
}

// windowState returns the state of a function's answer to a window's
// invocation: a JSON object, else ok is false.
func windowState(body []byte) (json.RawMessage, bool) {
	var resp struct {
		State json.RawMessage `json:"state"`
	}
	if json.Unmarshal(body, &resp) != nil {
		return nil, false
	}
	st := bytes.TrimSpace(resp.State)
	if len(st) == 0 || st[0] != '{' {
		return nil, false
	}
	return st, true
}
