package storage

import (
	"sync"
	"testing"
)

// selHook is a recHook that wants the item writes of the tables in want
// only (CommitSelector).
type selHook struct {
	recHook
	wmu   sync.Mutex
	want  map[string]bool
	asked int
}

func (h *selHook) WantsCommits(id string) bool {
	h.wmu.Lock()
	defer h.wmu.Unlock()
	h.asked++
	return h.want[id]
}

func (h *selHook) setWant(id string, on bool) {
	h.wmu.Lock()
	h.want[id] = on
	h.wmu.Unlock()
}

// writesOf returns the tables of the item writes h recorded since record i.
func (h *selHook) writesOf(i int) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var ids []string
	for _, r := range h.recs[i:] {
		for _, w := range r.Writes {
			ids = append(ids, w.Table)
		}
	}
	return ids
}

// TestCommitSelector: a hook that selects hears only of the item writes
// of the tables it wants, from single writes and transactions alike,
// and of every catalog change; a wrapper that is no selector hears of
// everything again.
func TestCommitSelector(t *testing.T) {
	h := &selHook{want: map[string]bool{}}
	db := newDB(t, h)
	a, err := db.CreateTable(TableDef{Name: "a", ID: "id-a", Schema: schemaS})
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.CreateTable(TableDef{Name: "b", ID: "id-b", Schema: schemaS})
	if err != nil {
		t.Fatal(err)
	}
	put := func(tb *Table, pk string) {
		t.Helper()
		if _, err := tb.Put(sKey(pk), numItem(pk, 1)); err != nil {
			t.Fatal(err)
		}
	}
	tx := func(pk string) {
		t.Helper()
		x := Begin(a, b)
		if _, err := x.Put(a, sKey(pk), numItem(pk, 2)); err != nil {
			t.Fatal(err)
		}
		if _, err := x.Put(b, sKey(pk), numItem(pk, 2)); err != nil {
			t.Fatal(err)
		}
		if _, err := x.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		name string
		want map[string]bool
		do   func()
		got  []string
	}{
		{"nothing wanted", nil, func() { put(a, "1"); put(b, "1"); tx("2") }, nil},
		{"a wanted", map[string]bool{"id-a": true}, func() { put(a, "3"); put(b, "3"); tx("4") }, []string{"id-a", "id-a"}},
		{"both wanted", map[string]bool{"id-a": true, "id-b": true}, func() { put(a, "5"); put(b, "5"); tx("6") }, []string{"id-a", "id-b", "id-a", "id-b"}},
		{"a again only", map[string]bool{"id-a": true, "id-b": false}, func() { tx("7") }, []string{"id-a"}},
	}
	for _, s := range steps {
		for id, on := range s.want {
			h.setWant(id, on)
		}
		from := len(h.recs)
		s.do()
		if got := h.writesOf(from); !equalStrings(got, s.got) {
			t.Errorf("%s: recorded writes of %v, want %v", s.name, got, s.got)
		}
	}
	from := len(h.recs)
	if err := a.SetMeta("k", []byte("v")); err != nil {
		t.Fatal(err)
	}
	if len(h.recs) != from+1 || h.recs[from].Kind != RecordMeta {
		t.Errorf("SetMeta: %d records, want one RecordMeta", len(h.recs)-from)
	}
	// A wrapper that is no selector wants every write.
	w := &wrapHook{}
	db.WrapHook(func(inner Hook) Hook { w.inner = inner; return w })
	h.setWant("id-a", false)
	from = len(h.recs)
	put(a, "8")
	put(b, "8")
	if got, want := h.writesOf(from), []string{"id-a", "id-b"}; !equalStrings(got, want) {
		t.Errorf("behind a wrapper that is no selector: recorded writes of %v, want %v", got, want)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
