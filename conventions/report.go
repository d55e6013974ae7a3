package conventions

import (
	"slices"
	"sort"
	"sync"
)

// Report keeps the violations the emulator has seen, for it to expose: per
// table and rule, a count of all of them and the most recent few. It is
// safe for concurrent use; its memory is bounded by the number of tables
// and rules times the per-rule limit.
type Report struct {
	limit int

	// mu guards seq and tables. Nothing else is locked while it is held,
	// so callers may hold any lock (the emulator holds storage's).
	mu     sync.Mutex
	seq    uint64
	tables map[string]map[string]*ruleLog
}

// ruleLog is one table's record of one rule: recent is a ring of the last
// limit violations, next is where the next one goes.
type ruleLog struct {
	count  uint64
	recent []entry
	next   int
}

type entry struct {
	seq uint64
	v   Violation
}

// TableReport is a snapshot of one table's violations.
type TableReport struct {
	Table  string            `json:"table"`
	Counts map[string]uint64 `json:"counts"` // every violation seen, by rule
	Recent []Violation       `json:"recent"` // the latest kept, most recent first
}

// NewReport returns a Report that keeps the last limit violations of each
// rule of each table (at least 1).
func NewReport(limit int) *Report {
	return &Report{limit: max(limit, 1), tables: map[string]map[string]*ruleLog{}}
}

// Add records violations, in order.
func (r *Report) Add(vs ...Violation) {
	if len(vs) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, v := range vs {
		rules := r.tables[v.Table]
		if rules == nil {
			rules = map[string]*ruleLog{}
			r.tables[v.Table] = rules
		}
		log := rules[v.Rule]
		if log == nil {
			log = &ruleLog{}
			rules[v.Rule] = log
		}
		r.seq++
		log.count++
		e := entry{seq: r.seq, v: v}
		if len(log.recent) < r.limit {
			log.recent = append(log.recent, e)
		} else {
			log.recent[log.next] = e
		}
		log.next = (log.next + 1) % r.limit
	}
}

// Recent returns a table's kept violations of one rule, or of every rule
// when rule is "", most recent first.
func (r *Report) Recent(table, rule string) []Violation {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.recentLocked(table, rule)
}

func (r *Report) recentLocked(table, rule string) []Violation {
	var es []entry
	for name, log := range r.tables[table] {
		if rule == "" || rule == name {
			es = append(es, log.recent...)
		}
	}
	sort.Slice(es, func(i, j int) bool { return es[i].seq > es[j].seq })
	out := make([]Violation, len(es))
	for i, e := range es {
		out[i] = e.v
	}
	return out
}

// Count returns how many violations of rule ("" for all) a table has had.
func (r *Report) Count(table, rule string) uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	var n uint64
	for name, log := range r.tables[table] {
		if rule == "" || rule == name {
			n += log.count
		}
	}
	return n
}

// Snapshot returns every table's report, tables in name order.
func (r *Report) Snapshot() []TableReport {
	r.mu.Lock()
	defer r.mu.Unlock()
	names := make([]string, 0, len(r.tables))
	for name := range r.tables {
		names = append(names, name)
	}
	slices.Sort(names)
	out := make([]TableReport, len(names))
	for i, name := range names {
		counts := map[string]uint64{}
		for rule, log := range r.tables[name] {
			counts[rule] = log.count
		}
		out[i] = TableReport{Table: name, Counts: counts, Recent: r.recentLocked(name, "")}
	}
	return out
}

// Forget drops a table's record, as when the table is deleted.
func (r *Report) Forget(table string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.tables, table)
}
