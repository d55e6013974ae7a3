package conventions

import (
	"container/list"
	"sort"
	"sync"
	"time"
)

// Report keeps the violations the emulator has seen, for a test or a
// person to read: one Entry per distinct violation (table, key, rule and
// message), counting its repeats, and exact totals per table and rule.
// Repeats never crowd out other entries; when more than the limit of
// distinct entries are kept, the one seen least recently is dropped (its
// count stays in the totals). Reset empties it, so a test can assert that
// one flow made no violation. It is safe for concurrent use.
type Report struct {
	limit int

	// mu guards everything below. Nothing else is locked while it is
	// held, so callers may hold any lock (the emulator holds storage's).
	mu      sync.Mutex
	entries map[entryKey]*list.Element
	recent  *list.List // of *Entry, most recently seen first
	counts  map[string]map[string]uint64
	totals  Totals
}

// entryKey identifies a distinct violation.
type entryKey struct {
	table, rule, message string
	key                  Key
}

// Entry is one distinct violation and how often it was seen.
type Entry struct {
	Operation string    `json:"operation"` // of the last occurrence: "PutItem", "CreateTable"
	Table     string    `json:"table"`
	Key       Key       `json:"key"` // zero for table-level rules (A1, A11)
	Rule      string    `json:"rule"`
	Severity  Severity  `json:"severity"`
	Message   string    `json:"message"`
	Reason    string    `json:"reason"`  // why the rule is what it is (RuleInfo.Why)
	Count     uint64    `json:"count"`   // occurrences
	Refused   uint64    `json:"refused"` // occurrences that refused their request
	First     time.Time `json:"first"`
	Last      time.Time `json:"last"`
	// Position and RequestID are the last occurrence's: where the item was
	// in its batch or transaction ("" alone) and the request's id.
	Position  string `json:"position,omitempty"`
	RequestID string `json:"requestId,omitempty"`
}

// Totals counts every violation added since the report was made or reset.
type Totals struct {
	Violations uint64 `json:"violations"`
	Errors     uint64 `json:"errors"`   // of error severity
	Warnings   uint64 `json:"warnings"` // of warn severity
	Refused    uint64 `json:"refused"`  // that refused their request
	Dropped    uint64 `json:"dropped"`  // distinct entries no longer kept
}

// Snapshot is the report at one moment: the totals and, per table (in
// name order), the counts by rule and the entries, most recently seen
// first. It is the JSON body of GET /dynamoemu/conventions, where the
// emulator adds the tables it checks (Checked) and its configuration's
// entries (Config).
type Snapshot struct {
	Totals
	Tables []TableReport `json:"tables"`
	// Checked are the tables that follow the conventions, with their role
	// and mode, in name order.
	Checked []CheckedTable `json:"checked"`
	// Config are the configuration's entries and how many tables each
	// gave its policy (0: a name or glob that matches no table).
	Config []ConfigEntry `json:"config"`
}

// CheckedTable is one table that follows the conventions: its roles
// ("command", "master+data"; "" for a table checked only for its latest
// item or design), mode, and where its policy comes from: the
// configuration entry (its match) or "tags".
type CheckedTable struct {
	Table     string `json:"table"`
	Namespace string `json:"namespace,omitempty"`
	Roles     string `json:"roles"`
	Mode      string `json:"mode"`
	Source    string `json:"source"`
}

// ConfigEntry is one entry of a configuration: its match, roles and
// mode, and the tables it gave its policy.
type ConfigEntry struct {
	Match  string `json:"match"`
	Roles  string `json:"roles"`
	Mode   string `json:"mode"`
	Tables int    `json:"tables"`
}

// TableReport is one table's part of a Snapshot.
type TableReport struct {
	Table   string            `json:"table"`
	Counts  map[string]uint64 `json:"counts"` // every violation seen, by rule
	Entries []Entry           `json:"entries"`
}

// DefaultReportLimit is how many distinct violations NewReport(0) keeps.
const DefaultReportLimit = 1000

// NewReport returns an empty Report that keeps at most limit distinct
// violations (DefaultReportLimit when limit <= 0).
func NewReport(limit int) *Report {
	if limit <= 0 {
		limit = DefaultReportLimit
	}
	r := &Report{limit: limit}
	r.resetLocked()
	return r
}

func (r *Report) resetLocked() {
	r.entries = map[entryKey]*list.Element{}
	r.recent = list.New()
	r.counts = map[string]map[string]uint64{}
	r.totals = Totals{}
}

// Add records violations seen at time at by operation op.
func (r *Report) Add(op string, at time.Time, vs ...Violation) {
	if len(vs) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, v := range vs {
		r.countLocked(v)
		k := entryKey{table: v.Table, rule: v.Rule, message: v.Message, key: v.Key}
		if el, ok := r.entries[k]; ok {
			e := el.Value.(*Entry)
			e.Operation, e.Severity, e.Last = op, v.Severity, at
			e.Position, e.RequestID = v.Position, v.RequestID
			e.Count++
			if v.Refused {
				e.Refused++
			}
			r.recent.MoveToFront(el)
			continue
		}
		e := &Entry{Operation: op, Table: v.Table, Key: v.Key, Rule: v.Rule, Severity: v.Severity,
			Message: v.Message, Reason: v.Reason(), Count: 1, First: at, Last: at,
			Position: v.Position, RequestID: v.RequestID}
		if v.Refused {
			e.Refused = 1
		}
		r.entries[k] = r.recent.PushFront(e)
		if r.recent.Len() > r.limit {
			old := r.recent.Back()
			oe := r.recent.Remove(old).(*Entry)
			delete(r.entries, entryKey{table: oe.Table, rule: oe.Rule, message: oe.Message, key: oe.Key})
			r.totals.Dropped++
		}
	}
}

func (r *Report) countLocked(v Violation) {
	rules := r.counts[v.Table]
	if rules == nil {
		rules = map[string]uint64{}
		r.counts[v.Table] = rules
	}
	rules[v.Rule]++
	r.totals.Violations++
	if v.Severity == SeverityWarn {
		r.totals.Warnings++
	} else {
		r.totals.Errors++
	}
	if v.Refused {
		r.totals.Refused++
	}
}

// Entries returns the kept entries of a table ("" for every table) and
// rule ("" for every rule), most recently seen first.
func (r *Report) Entries(table, rule string) []Entry {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Entry
	for el := r.recent.Front(); el != nil; el = el.Next() {
		e := el.Value.(*Entry)
		if (table == "" || e.Table == table) && (rule == "" || e.Rule == rule) {
			out = append(out, *e)
		}
	}
	return out
}

// Count returns how many violations of rule ("" for all) a table has had
// since the last reset.
func (r *Report) Count(table, rule string) uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	var n uint64
	for name, c := range r.counts[table] {
		if rule == "" || rule == name {
			n += c
		}
	}
	return n
}

// Totals returns the totals since the last reset.
func (r *Report) Totals() Totals {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.totals
}

// Snapshot returns the whole report.
func (r *Report) Snapshot() Snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	byTable := map[string]*TableReport{}
	for name, rules := range r.counts {
		counts := make(map[string]uint64, len(rules))
		for rule, n := range rules {
			counts[rule] = n
		}
		byTable[name] = &TableReport{Table: name, Counts: counts, Entries: []Entry{}}
	}
	for el := r.recent.Front(); el != nil; el = el.Next() {
		e := el.Value.(*Entry)
		tr := byTable[e.Table]
		tr.Entries = append(tr.Entries, *e)
	}
	s := Snapshot{Totals: r.totals, Tables: make([]TableReport, 0, len(byTable)),
		Checked: []CheckedTable{}, Config: []ConfigEntry{}}
	for _, tr := range byTable {
		s.Tables = append(s.Tables, *tr)
	}
	compare := func(a, b TableReport) int {
		switch {
		case a.Table < b.Table:
			return -1
		case a.Table > b.Table:
			return 1
		}
		return 0
	}
	sort.Slice(s.Tables, func(i, j int) bool { return compare(s.Tables[i], s.Tables[j]) < 0 })
	return s
}

// Reset forgets everything: entries, counts and totals.
func (r *Report) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.resetLocked()
}

// Forget drops a table's entries and counts, as when the table is deleted
// (the totals keep them).
func (r *Report) Forget(table string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.counts, table)
	for k, el := range r.entries {
		if k.table == table {
			r.recent.Remove(el)
			delete(r.entries, k)
		}
	}
}
