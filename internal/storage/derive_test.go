package storage

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// logHook keeps every item write its DB commits, as point-in-time
// recovery keeps them.
type logHook struct {
	mu     sync.Mutex
	writes []Committed
}

func (h *logHook) Commit(r *Record) (uint64, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, w := range r.Writes {
		h.writes = append(h.writes, w.Committed)
	}
	return 0, nil
}

func (h *logHook) Wait(uint64) error { return nil }

// TestDeriveWrites: a snapshot rolled forward through the writes its
// table's hook recorded since is the table's later snapshot, indexes
// included, and the snapshot it came from does not change.
func TestDeriveWrites(t *testing.T) {
	h := &logHook{}
	db := newDB(t, h)
	src := restoreFixture(t, db)
	s0 := src.Snapshot()
	var before strings.Builder
	dumpSnapshot(&before, s0)
	h.mu.Lock()
	h.writes = nil
	h.mu.Unlock()
	for j := range 200 {
		it := benchItem(t, schemaSN, j/7, j%13)
		it["status"] = S("rolled")
		if j%5 == 0 {
			if _, err := src.Put(schemaSN.KeyOf(it), nil); err != nil {
				t.Fatal(err)
			}
			continue
		}
		put(t, src, it)
	}
	s1 := src.Snapshot()
	cases := []struct {
		name   string
		writes []Committed
	}{
		{"the writes since", h.writes},
		// The log overlaps the snapshot: the writes it holds already
		// change nothing.
		{"the writes since, twice over", append(append([]Committed(nil), h.writes...), h.writes...)},
	}
	for _, c := range cases {
		got, err := s0.Derive(Derivation{Writes: c.writes})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var g, w strings.Builder
		dumpSnapshot(&g, got)
		dumpSnapshot(&w, s1)
		if g.String() != w.String() {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, g.String(), w.String())
		}
	}
	var after strings.Builder
	dumpSnapshot(&after, s0)
	if before.String() != after.String() {
		t.Errorf("the source snapshot changed:\n%s\nwant\n%s", after.String(), before.String())
	}
}

// TestDeriveIndexesAndMeta: Derive keeps, drops and builds indexes and
// replaces metadata as a table would have them.
func TestDeriveIndexesAndMeta(t *testing.T) {
	db := newDB(t, nil)
	src := restoreFixture(t, db)
	s0 := src.Snapshot()
	byStatus := IndexDef{Name: "byStatus", Schema: IndexSchema{Partition: []KeyAttr{{"status", KindS}}}, Projection: Projection{All: true}}
	cases := []struct {
		name    string
		indexes []IndexDef
		build   func(*Table) // the same change on the live table
	}{
		{"keep", nil, func(*Table) {}},
		{"drop", []IndexDef{}, func(tb *Table) { mustNo(t, tb.DropIndex(emailIndex.Name)) }},
		{"add", []IndexDef{emailIndex, byStatus}, func(tb *Table) { mustNo(t, tb.AddIndex(byStatus)) }},
		{"replace", []IndexDef{byStatus}, func(tb *Table) { mustNo(t, tb.DropIndex(emailIndex.Name)); mustNo(t, tb.AddIndex(byStatus)) }},
	}
	for i, c := range cases {
		got, err := s0.Derive(Derivation{Indexes: c.indexes, Meta: map[string][]byte{"m": []byte("new")}})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		live, err := db.RestoreTable("live"+c.name, "live"+c.name, s0)
		if err != nil {
			t.Fatal(err)
		}
		c.build(live)
		mustNo(t, live.SetMeta("m", []byte("new")))
		want := live.Snapshot()
		var g, w strings.Builder
		dumpSnapshot(&g, got)
		dumpSnapshot(&w, want)
		gs := strings.Replace(g.String(), `"src"`, `"x"`, 2)
		ws := strings.Replace(w.String(), `"live`+c.name+`"`, `"x"`, 2)
		if gs != ws {
			t.Errorf("case %d %s: got\n%s\nwant\n%s", i, c.name, gs, ws)
		}
	}
	if got := string(s0.Meta("m")); got != "v" {
		t.Errorf("source meta: got %q, want %q", got, "v")
	}
}

func mustNo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestUnchanged: a table is Unchanged against a snapshot taken of it or
// restored from it until anything changes it (an item write, even one
// storing the same item, an index, metadata); a derived snapshot is
// nobody's.
func TestUnchanged(t *testing.T) {
	db := newDB(t, nil)
	src := restoreFixture(t, db)
	it := benchItem(t, schemaSN, 0, 0)
	byStatus := IndexDef{Name: "byStatus", Schema: IndexSchema{Partition: []KeyAttr{{"status", KindS}}}, Projection: Projection{All: true}}
	changes := []struct {
		name   string
		change func(*Table) error
	}{
		{"put", func(tb *Table) error { _, err := tb.Put(schemaSN.KeyOf(it), it); return err }},
		{"delete", func(tb *Table) error { _, err := tb.Put(schemaSN.KeyOf(it), nil); return err }},
		{"add index", func(tb *Table) error { return tb.AddIndex(byStatus) }},
		{"drop index", func(tb *Table) error { return tb.DropIndex(emailIndex.Name) }},
		{"meta", func(tb *Table) error { return tb.SetMeta("m", []byte("w")) }},
		{"transaction", func(tb *Table) error {
			tx := Begin(tb)
			if _, err := tx.Put(tb, schemaSN.KeyOf(it), it); err != nil {
				return err
			}
			_, err := tx.Commit()
			return err
		}},
	}
	for i, c := range changes {
		s := src.Snapshot()
		r, err := db.RestoreTable("r"+c.name, "r"+c.name, s)
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range []*Table{src, r} {
			if !tb.Unchanged(s) {
				t.Errorf("%s: %s unchanged: got false, want true", c.name, tb.Name())
			}
			if err := c.change(tb); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if tb.Unchanged(s) {
				t.Errorf("%s: %s changed: got Unchanged, want not", c.name, tb.Name())
			}
		}
		d, err := s.Derive(Derivation{Meta: map[string][]byte{"m": []byte(fmt.Sprint(i))}})
		if err != nil {
			t.Fatal(err)
		}
		if r2, err := db.RestoreTable("d"+c.name, "d"+c.name, d); err != nil || r2.Unchanged(s) {
			t.Errorf("%s: a table restored from a derived snapshot: Unchanged %v (err %v), want false", c.name, r2.Unchanged(s), err)
		}
	}
}
