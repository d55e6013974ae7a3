package lambdaesm

import (
	"cmp"
	"encoding/json"
	"fmt"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
)

// The mappings across restarts (cmd/dynamoemu's -dbPath), as Lambda
// keeps a mapping until it is deleted: every create, update and delete,
// every move of a checkpoint (a batch handled, records filtered out or
// trimmed) and Close hand the saver (SetSaver) every mapping's
// settings, UUID and checkpoint. A poller saves before it reads its
// next batch (checkpoint), as Lambda moves a shard's checkpoint after
// each batch, so a process killed at any instant restarts past every
// batch but the one it was handling: that one is delivered again (at
// least once, as Lambda), and no record is skipped. A tumbling window
// open at the checkpoint is saved with it, its start and state, in the
// same save (window.go). Restore makes the
// mappings again with their checkpoints and open windows. A
// mapping made from a file (the mappings file, serverless.yml) is made
// again by that file at each start: it takes back the UUID and
// checkpoint of the saved mapping made from the same entry (its
// origin: the file's kind, the entry's settings and its occurrence),
// and a saved mapping no file claims is dropped at the next save.

// saved is one mapping as saved.
type saved struct {
	Spec         Spec
	Origin       string `json:",omitempty"` // "": made through the API
	Stream       string `json:",omitempty"` // the stream the checkpoint is in
	Position     string `json:",omitempty"` // the checkpoint; "" before the first read
	LastModified int64  // Unix milliseconds
	LastResult   string `json:",omitempty"` // LastProcessingResult
	// Window is the tumbling window open at the checkpoint, saved with
	// it (window.go).
	Window *savedWindow `json:",omitempty"`
}

// savedWindow is an open tumbling window: its start and its state.
type savedWindow struct {
	Start int64           // seconds since the epoch
	State json.RawMessage // what the function answered last
}

type savedSet struct {
	Mappings []saved
}

// SetSaver makes save hear the mappings after each change and at
// Close (nil: none).
func (m *Manager) SetSaver(save func([]byte)) {
	m.mu.Lock()
	m.saver = save
	m.mu.Unlock()
}

// save hands the saver every mapping, in creation order.
func (m *Manager) save() {
	m.saveMu.Lock()
	defer m.saveMu.Unlock()
	m.saveLocked()
}

// checkpoint saves the mappings after a checkpoint moved, unless a save
// begun since holds it (a save of another mapping's move while this one
// waited): the pollers of several mappings share one save.
func (m *Manager) checkpoint() {
	m.mu.Lock()
	if m.saver == nil {
		m.mu.Unlock()
		return
	}
	m.saveWant++
	want := m.saveWant
	m.mu.Unlock()
	m.saveMu.Lock()
	defer m.saveMu.Unlock()
	if m.saveDone >= want {
		return
	}
	m.saveLocked()
}

// saveLocked is save with saveMu held.
func (m *Manager) saveLocked() {
	m.mu.Lock()
	gen := m.saveWant // every move counted here is in the positions read below
	saver := m.saver
	all := make([]*mapping, 0, len(m.order))
	for _, id := range m.order {
		all = append(all, m.maps[id])
	}
	had := m.hadMappings
	m.hadMappings = len(all) > 0
	m.mu.Unlock()
	if saver == nil || len(all) == 0 && !had {
		return // nothing to save, and nothing saved to replace: no file for a server with no mappings
	}
	set := savedSet{Mappings: make([]saved, 0, len(all))}
	for _, mp := range all {
		set.Mappings = append(set.Mappings, mp.saved())
	}
	b, _ := json.Marshal(set)
	saver(b)
	m.saveDone = gen
}

// saved is the mapping as save keeps it.
func (mp *mapping) saved() saved {
	mp.mu.Lock()
	defer mp.mu.Unlock()
	sv := saved{Spec: mp.st.spec(mp.uuid), Origin: mp.origin, Stream: mp.st.sourceARN, LastModified: mp.modified.UnixMilli(), LastResult: mp.lastResult}
	if mp.started {
		sv.Position = streamlog.FormatSequenceNumber(mp.pos)
	}
	if mp.win.open {
		sv.Window = &savedWindow{Start: mp.win.start, State: mp.win.state}
	}
	return sv
}

// Restore makes again the mappings data (a save's) holds: those made
// through the API at once, those made from a file when the file makes
// them again. It returns how many it made, and why each mapping whose
// Endpoint or destination the targets no longer allow (targets.go) was
// left out: such a mapping is checked as a new one is, and dropped at
// the next save.
func (m *Manager) Restore(data []byte) (n int, refused []string, err error) {
	var set savedSet
	if err := json.Unmarshal(data, &set); err != nil {
		return 0, nil, fmt.Errorf("the saved event source mappings: %w", err)
	}
	m.mu.Lock()
	m.hadMappings = len(set.Mappings) > 0
	m.mu.Unlock()
	for i := range set.Mappings {
		sv := set.Mappings[i]
		if sv.Origin != "" {
			m.mu.Lock()
			if m.pending == nil {
				m.pending = map[string]saved{}
			}
			m.pending[sv.Origin] = sv
			m.mu.Unlock()
			continue
		}
		if _, err := m.create(&sv.Spec, "", &sv); err != nil {
			if IsRefusedTarget(err) {
				refused = append(refused, "the saved event source mapping "+str(sv.Spec.UUID)+" was not made again: "+err.Error())
				continue
			}
			return n, refused, fmt.Errorf("the saved event source mapping %s: %w", str(sv.Spec.UUID), err)
		}
		n++
	}
	return n, refused, nil
}

// createFrom makes a mapping of a file's entry: kind names the file's
// kind, and the entry's settings and occurrence make its origin.
func (m *Manager) createFrom(kind string, s *Spec, seen map[string]int) (Configuration, error) {
	return m.createWithOrigin(s, originOf(kind, s, seen))
}

// createWithOrigin makes the mapping of a file's entry of origin origin,
// taking back the UUID and checkpoint of the saved mapping of that
// origin, if any.
func (m *Manager) createWithOrigin(s *Spec, origin string) (Configuration, error) {
	m.mu.Lock()
	sv, ok := m.pending[origin]
	delete(m.pending, origin)
	m.mu.Unlock()
	if !ok {
		return m.create(s, origin, nil)
	}
	spec := *s
	spec.UUID = sv.Spec.UUID
	return m.create(&spec, origin, &sv)
}

// restore puts back a saved mapping's stream, checkpoint, time of
// change and last result on mp, a mapping just made from it.
//
// A checkpoint past the stream's end (a record delivered, then lost
// with the process before its write reached the log) is moved back to
// the end, so the records written next, which may take those sequence
// numbers again, are not skipped.
func (mp *mapping) restore(sv *saved) {
	next := ^uint64(0)
	if s, ok := mp.mgr.findStream(sv.Stream, mp.mgr.svc.Now()); ok {
		_, next = s.Bounds(mp.mgr.svc.Now())
	}
	mp.mu.Lock()
	defer mp.mu.Unlock()
	mp.modified = time.UnixMilli(sv.LastModified)
	if sv.LastResult != "" {
		mp.lastResult = sv.LastResult
	}
	if sv.Stream == "" {
		return
	}
	if mp.st.tableName != "" && mp.st.sourceARN != sv.Stream {
		mp.st.sourceARN = sv.Stream // the table's stream then; resolve moves on if it is gone
		mp.started = false
	}
	if sv.Position == "" || mp.st.sourceARN != sv.Stream {
		return
	}
	if pos, ok := streamlog.ParseSequenceNumber(sv.Position); ok {
		mp.pos, mp.started = min(pos, next), true
		if w := sv.Window; w != nil && mp.st.tumbling > 0 {
			if state, ok := windowState([]byte(`{"state":` + string(w.State) + `}`)); ok {
				mp.tw = tumble{open: true, start: w.Start, state: state}
				mp.win, mp.windowEnd = mp.tw, w.Start+mp.st.tumbling
			}
		}
	}
}

// spec is the CreateEventSourceMapping request that makes settings st
// again, with UUID uuid.
func (st settings) spec(uuid string) Spec {
	s := Spec{
		UUID:                           &uuid,
		FunctionName:                   ptr(cmp.Or(st.fnSpec, st.function)),
		Enabled:                        ptr(st.enabled),
		BatchSize:                      ptr(int64(st.batchSize)),
		MaximumBatchingWindowInSeconds: ptr(int64(st.window / time.Second)),
		StartingPosition:               ptr(st.startPos),
		FilterCriteria:                 st.filterSpec,
		MaximumRetryAttempts:           ptr(st.maxRetries),
		MaximumRecordAgeInSeconds:      ptr(st.maxAge),
		BisectBatchOnFunctionError:     ptr(st.bisect),
		ParallelizationFactor:          ptr(int64(st.parallel)),
		TumblingWindowInSeconds:        ptr(st.tumbling),
	}
	if st.tableName != "" {
		s.TableName = ptr(st.tableName)
	} else {
		s.EventSourceArn = ptr(st.sourceARN)
	}
	if st.reportItems {
		s.FunctionResponseTypes = []string{reportBatchItemFailures}
	}
	if st.onFailure != "" {
		s.DestinationConfig = &DestinationConfig{OnFailure: &OnFailure{Destination: ptr(st.onFailure)}}
	}
	if st.endpoint != "" {
		s.Endpoint = ptr(st.endpoint)
	}
	return s
}

func ptr[T any](v T) *T { return &v }

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
