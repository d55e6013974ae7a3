package faults

import (
	"encoding/base64"
	"sync"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Event is one injected fault, as the log keeps it.
type Event struct {
	Time  time.Time     `json:"time"`
	Rule  string        `json:"rule"`
	Fault string        `json:"fault"` // the kind's name
	Delay time.Duration `json:"delay,omitempty"`
	Op    string        `json:"operation"`
	Table string        `json:"table,omitempty"`
	Index string        `json:"index,omitempty"`
	// PartitionKey and SortKey are the call's key as text (B values in
	// base64); "" when it had none.
	PartitionKey string `json:"partitionKey,omitempty"`
	SortKey      string `json:"sortKey,omitempty"`
}

// RuleStats counts what one rule of the current list has seen.
type RuleStats struct {
	Name    string `json:"name"`
	Fault   string `json:"fault"`
	Matched int64  `json:"matched"` // calls it matched (up to the rule that fired)
	Fired   int64  `json:"fired"`
}

// Stats is the injector's account of what it injected.
type Stats struct {
	// Rules: the current rules' counts, in rule order.
	Rules []RuleStats `json:"rules"`
	// Injected counts faults per kind name since New or ResetStats,
	// across rule lists.
	Injected map[string]int64 `json:"injected"`
	// Events are the newest injected faults, oldest first; Dropped counts
	// those the bounded log no longer holds.
	Events  []Event `json:"events"`
	Dropped int64   `json:"dropped"`
}

// eventLog is a bounded log of the newest events.
type eventLog struct {
	mu      sync.Mutex // guards the fields below
	max     int
	ring    []Event // up to max, oldest at next once full
	next    int
	dropped int64
}

// add appends e, dropping the oldest event when full.
func (l *eventLog) add(e Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.ring) < l.max {
		l.ring = append(l.ring, e)
		return
	}
	l.ring[l.next] = e
	l.next = (l.next + 1) % l.max
	l.dropped++
}

// snapshot returns the events oldest first and the dropped count.
func (l *eventLog) snapshot() ([]Event, int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Event, 0, len(l.ring))
	out = append(out, l.ring[l.next:]...)
	out = append(out, l.ring[:l.next]...)
	return out, l.dropped
}

// reset empties the log.
func (l *eventLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ring, l.next, l.dropped = nil, 0, 0
}

// record counts, logs and keeps one injected fault.
func (in *Injector) record(c *Call, f Fault) {
	in.byKind[f.Kind].Add(1)
	e := Event{
		Time: in.clock(), Rule: f.Rule, Fault: f.Kind.String(), Delay: f.Delay,
		Op: c.Op, Table: c.Table, Index: c.Index,
		PartitionKey: keyText(c.Key.Partition), SortKey: keyText(c.Key.Sort),
	}
	in.events.add(e)
	if in.logger != nil {
		in.logger.Info("fault injected", "rule", e.Rule, "fault", e.Fault, "delay", e.Delay,
			"operation", e.Op, "table", e.Table, "index", e.Index,
			"partitionKey", e.PartitionKey, "sortKey", e.SortKey)
	}
}

// keyText is a key value as text: S and N as they are, B in base64.
func keyText(v storage.Value) string {
	switch v.Kind() {
	case storage.KindS, storage.KindN:
		return v.Str()
	case storage.KindB:
		return base64.StdEncoding.EncodeToString(v.Bytes())
	}
	return ""
}

// Stats returns the counts of the current rules, the totals per kind and
// the event log.
func (in *Injector) Stats() Stats {
	st := Stats{Injected: map[string]int64{}}
	if s := in.set.Load(); s != nil {
		for i := range s.rules {
			r := &s.rules[i]
			st.Rules = append(st.Rules, RuleStats{Name: r.Name, Fault: r.Fault.String(), Matched: r.matched.Load(), Fired: r.fired.Load()})
		}
	}
	for k := Kind(1); k < numKinds; k++ {
		if n := in.byKind[k].Load(); n > 0 {
			st.Injected[k.String()] = n
		}
	}
	st.Events, st.Dropped = in.events.snapshot()
	return st
}

// ResetStats empties the event log and the totals per kind (the current
// rules' own counts go on: they drive Every and Count).
func (in *Injector) ResetStats() {
	for k := range in.byKind {
		in.byKind[k].Store(0)
	}
	in.events.reset()
}
