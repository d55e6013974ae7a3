package main

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
)

// crashModel is what the crash test knows the server holds: every
// acknowledged change, and the changes sent without an answer (the server
// was killed meanwhile), each of which may or may not be there after the
// restart. Workers own disjoint keys, so at most one unanswered change
// touches a key.
type crashModel struct {
	mu sync.Mutex // guards everything below
	// items maps "table|pk" to the item's fingerprint (v and g); an
	// absent item is not in it.
	items map[string]string
	// tables are the tables that exist; gsi is main's GSI ("": none).
	tables map[string]bool
	gsi    string
	// pending are the changes sent without an answer since the last start.
	pending []pendingChange
	acked   int // acknowledged changes since the last start
}

// pendingChange is a change sent without an answer: item writes (new
// fingerprints, "" for a delete), all or none of which are there if
// atomic, each or not otherwise; or a table created or dropped, or main's
// GSI added or dropped.
type pendingChange struct {
	desc        string
	writes      map[string]string
	atomic      bool
	createTable string
	dropTable   string
	addGSI      string
	dropGSI     string
}

func newCrashModel() *crashModel {
	return &crashModel{items: map[string]string{}, tables: map[string]bool{}}
}

func itemKey(table, pk string) string { return table + "|" + pk }

// get returns the fingerprint of an item ("" absent).
func (m *crashModel) get(k string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.items[k]
}

// ack applies acknowledged item writes.
func (m *crashModel) ack(writes map[string]string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, v := range writes {
		if v == "" {
			delete(m.items, k)
		} else {
			m.items[k] = v
		}
	}
	m.acked++
}

// unanswered records a change sent without an answer.
func (m *crashModel) unanswered(p pendingChange) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pending = append(m.pending, p)
}

// fingerprint is an item's fingerprint as read back.
func fingerprint(item map[string]map[string]any) string {
	s := fmt.Sprintf("v=%v g=%v", item["v"]["N"], item["g"]["S"])
	if _, ok := item["exp"]; ok {
		s += " exp"
	}
	return s
}

// serverState is what a restarted server holds.
type serverState struct {
	tables map[string]bool
	items  map[string]string
	gsi    string // main's GSI, "" none
}

// check compares what the server holds after a restart with the model:
// every acknowledged change is there, each unanswered one is there whole
// or not at all (per item for non-atomic ones), and nothing else is. It
// then makes the model what the server holds. It returns the
// discrepancies.
func (m *crashModel) check(got serverState) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var bad []string
	pendingTable := func(pred func(p pendingChange) bool) bool { return slices.ContainsFunc(m.pending, pred) }

	// Tables.
	for name := range m.tables {
		if !got.tables[name] && !pendingTable(func(p pendingChange) bool { return p.dropTable == name }) {
			bad = append(bad, fmt.Sprintf("table %s: acknowledged, gone after the restart", name))
		}
	}
	for name := range got.tables {
		if !m.tables[name] && !pendingTable(func(p pendingChange) bool { return p.createTable == name }) {
			bad = append(bad, fmt.Sprintf("table %s: there after the restart, never created", name))
		}
	}
	// main's GSI.
	if got.gsi != m.gsi {
		ok := pendingTable(func(p pendingChange) bool {
			return p.addGSI != "" && p.addGSI == got.gsi || p.dropGSI != "" && p.dropGSI == m.gsi && got.gsi == ""
		})
		if !ok {
			bad = append(bad, fmt.Sprintf("main's GSI: got %q after the restart, want %q", got.gsi, m.gsi))
		}
	}

	// Items, in the tables that are there.
	live := func(k string) bool { return got.tables[k[:strings.IndexByte(k, '|')]] }
	covered := map[string]bool{}
	for _, p := range m.pending {
		if len(p.writes) == 0 {
			continue
		}
		keys := slices.Sorted(maps.Keys(p.writes))
		allOld, allNew := true, true
		for _, k := range keys {
			if !live(k) {
				continue
			}
			covered[k] = true
			old, neu := m.items[k] == got.items[k], p.writes[k] == got.items[k]
			allOld, allNew = allOld && old, allNew && neu
			if !p.atomic && !old && !neu {
				bad = append(bad, fmt.Sprintf("%s (unanswered %s): got %q, want %q (before) or %q (after)", k, p.desc, got.items[k], m.items[k], p.writes[k]))
			}
		}
		if p.atomic && !allOld && !allNew {
			var d []string
			for _, k := range keys {
				d = append(d, fmt.Sprintf("%s: got %q, before %q, after %q", k, got.items[k], m.items[k], p.writes[k]))
			}
			bad = append(bad, fmt.Sprintf("unanswered %s is half there: %s", p.desc, strings.Join(d, "; ")))
		}
	}
	keys := map[string]bool{}
	for k := range m.items {
		keys[k] = true
	}
	for k := range got.items {
		keys[k] = true
	}
	sorted := slices.Sorted(maps.Keys(keys))
	for _, k := range sorted {
		if covered[k] || !live(k) {
			continue
		}
		if got.items[k] != m.items[k] {
			bad = append(bad, fmt.Sprintf("%s: got %q after the restart, want %q (acknowledged)", k, got.items[k], m.items[k]))
		}
	}

	m.items, m.tables, m.gsi = got.items, got.tables, got.gsi
	m.pending, m.acked = nil, 0
	sort.Strings(bad)
	return bad
}
