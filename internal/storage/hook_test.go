package storage

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
)

// recHook is a Hook that keeps every record it accepts, as a copy and in
// its binary form, and refuses (or fails to wait for) those its fail
// functions pick.
type recHook struct {
	mu       sync.Mutex
	recs     []*Record // copies of the accepted records, in order
	log      [][]byte  // their binary forms
	failNext func(*Record) bool
	failWait func(*Record) bool
	waitTok  map[uint64]bool // token -> Wait must fail
	waited   int
	onCommit func(*Record) // called first, under mu
	onWait   func()
}

var errHookTest = errors.New("test hook refuses")

func (h *recHook) Commit(r *Record) (uint64, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.onCommit != nil {
		h.onCommit(r)
	}
	if h.failNext != nil && h.failNext(r) {
		return 0, errHookTest
	}
	b, err := AppendRecord(nil, r)
	if err != nil {
		return 0, err
	}
	h.recs = append(h.recs, cloneRecord(r))
	h.log = append(h.log, b)
	tok := uint64(len(h.log))
	if h.failWait != nil && h.failWait(r) {
		if h.waitTok == nil {
			h.waitTok = map[uint64]bool{}
		}
		h.waitTok[tok] = true
	}
	return tok, nil
}

func (h *recHook) Wait(tok uint64) error {
	if h.onWait != nil {
		h.onWait()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.waited++
	if h.waitTok[tok] {
		return errHookTest
	}
	return nil
}

// kinds returns the kinds of the accepted records.
func (h *recHook) kinds() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, r := range h.recs {
		s := r.Kind.String()
		if r.Kind == RecordCommit {
			s = fmt.Sprintf("commit/%d", len(r.Writes))
		}
		out = append(out, s)
	}
	return out
}

// cloneRecord copies what a hook may not keep of r: the record and its
// slices and definitions (the images are immutable).
func cloneRecord(r *Record) *Record {
	c := *r
	c.Writes = slices.Clone(r.Writes)
	for i := range c.Writes {
		k := &c.Writes[i].Key
		k.Partition.str, k.Sort.str = strings.Clone(k.Partition.str), strings.Clone(k.Sort.str)
	}
	if r.Def != nil {
		d := *r.Def
		d.Indexes = slices.Clone(d.Indexes)
		d.Meta = cloneMeta(d.Meta)
		c.Def = &d
	}
	if r.Index != nil {
		x := *r.Index
		c.Index = &x
	}
	c.Value = cloneValue(r.Value)
	return &c
}

var testDef = TableDef{Name: "t", ID: "id-t", Schema: schemaS}

func newHookedTable(t *testing.T, h Hook) (*DB, *Table) {
	t.Helper()
	db := newDB(t, h)
	tb, err := db.CreateTable(testDef)
	if err != nil {
		t.Fatal(err)
	}
	return db, tb
}

// TestHookCalls: which calls reach the hook, as which records.
func TestHookCalls(t *testing.T) {
	tests := []struct {
		name string
		run  func(t *testing.T, db *DB, tb *Table)
		want []string
	}{
		{"create", func(*testing.T, *DB, *Table) {}, []string{"create-table"}},
		{"single writes", func(t *testing.T, db *DB, tb *Table) {
			tb.Put(sKey("a"), numItem("a", 1))
			tb.Write(sKey("a"), func(Item) (Item, error) { return numItem("a", 2), nil })
			tb.WriteFrom(OriginService, sKey("a"), func(Item) (Item, error) { return nil, nil })
		}, []string{"create-table", "commit/1", "commit/1", "commit/1"}},
		{"writes that change nothing are not recorded", func(t *testing.T, db *DB, tb *Table) {
			tb.Put(sKey("a"), numItem("a", 1))
			tb.Put(sKey("a"), numItem("a", 1))                                               // same record
			tb.Write(sKey("a"), func(Item) (Item, error) { return nil, ErrNoWrite })         // no write
			tb.Write(sKey("a"), func(Item) (Item, error) { return nil, errHookTest })        // fails
			tb.Write(sKey("a"), func(Item) (Item, error) { return Item{"pk": S("x")}, nil }) // key mismatch
			tb.Put(sKey("b"), nil)                                                           // delete of nothing
			tx := Begin(tb)
			tx.Put(tb, sKey("a"), numItem("a", 1))
			tx.Write(tb, sKey("c"), func(Item) (Item, error) { return nil, nil })
			mustCommit(t, tx)
		}, []string{"create-table", "commit/1"}},
		// A set's members are kept in AWS's order (SetOf), so the same
		// members given in another order store the same record.
		{"set members in another order are the same item", func(t *testing.T, db *DB, tb *Table) {
			tb.Put(sKey("a"), Item{"pk": S("a"), "s": SS([]string{"p", "q"})})
			tb.Put(sKey("a"), Item{"pk": S("a"), "s": SS([]string{"q", "p"})})
		}, []string{"create-table", "commit/1"}},
		{"a transaction is one record; an abort none", func(t *testing.T, db *DB, tb *Table) {
			u, err := db.CreateTable(TableDef{Name: "u", ID: "id-u", Schema: schemaS})
			if err != nil {
				t.Fatal(err)
			}
			tx := Begin(tb, u)
			tx.Put(tb, sKey("a"), numItem("a", 1))
			tx.Put(u, sKey("b"), numItem("b", 1))
			tx.Put(tb, sKey("a"), numItem("a", 2))
			mustCommit(t, tx)
			tx = Begin(tb)
			tx.Put(tb, sKey("z"), numItem("z", 1))
			tx.Abort()
		}, []string{"create-table", "create-table", "commit/3"}},
		{"catalog", func(t *testing.T, db *DB, tb *Table) {
			if err := tb.AddIndex(testIndexes[0]); err != nil {
				t.Fatal(err)
			}
			if err := tb.AddIndex(testIndexes[0]); !errors.Is(err, ErrIndexExists) {
				t.Errorf("second AddIndex: got %v, want ErrIndexExists", err)
			}
			tb.DropIndex(testIndexes[0].Name)
			tb.SetMeta("k", []byte("v"))
			db.SetMeta("k", []byte("v"))
			db.DropTable("t")
			tb.Put(sKey("a"), numItem("a", 1)) // after the drop: not recorded
			tb.SetMeta("k", nil)
		}, []string{"create-table", "add-index", "drop-index", "meta", "meta", "drop-table"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := &recHook{}
			db, tb := newHookedTable(t, h)
			tc.run(t, db, tb)
			if got := h.kinds(); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestHookWriteRecord: the record of a write holds the table's ID, the
// key, the stored records before and after, and the origin.
func TestHookWriteRecord(t *testing.T) {
	h := &recHook{}
	_, tb := newHookedTable(t, h)
	tb.Put(sKey("a"), numItem("a", 1))
	tb.WriteFrom(OriginService, sKey("a"), func(Item) (Item, error) { return numItem("a", 2), nil })
	r := h.recs[2]
	if got, want := len(r.Writes), 1; got != want {
		t.Fatalf("got %d writes, want %d", got, want)
	}
	w := r.Writes[0]
	if w.Table != "id-t" || !Equal(w.Key.Partition, S("a")) || !w.HadOld || !w.HasNew || w.Origin != OriginService {
		t.Errorf("got write %+v", w)
	}
	if got, want := w.Old.Item(), numItem("a", 1); !ItemsEqual(got, want) {
		t.Errorf("old: got %v, want %v", got, want)
	}
	if got, want := w.New.Item(), numItem("a", 2); !ItemsEqual(got, want) {
		t.Errorf("new: got %v, want %v", got, want)
	}
}

// TestHookFailureUndoes: when the hook refuses a change, the change is
// undone, the observer hears nothing, and the caller gets ErrHookFailed.
func TestHookFailureUndoes(t *testing.T) {
	tests := []struct {
		name string
		run  func(db *DB, tb *Table) error
	}{
		{"Put", func(db *DB, tb *Table) error { _, err := tb.Put(sKey("a"), numItem("a", 9)); return err }},
		{"Put new", func(db *DB, tb *Table) error { _, err := tb.Put(sKey("n"), numItem("n", 9)); return err }},
		{"Write delete", func(db *DB, tb *Table) error {
			_, err := tb.Write(sKey("a"), func(Item) (Item, error) { return nil, nil })
			return err
		}},
		{"transaction", func(db *DB, tb *Table) error {
			tx := Begin(tb)
			tx.Put(tb, sKey("a"), numItem("a", 9))
			tx.Put(tb, sKey("n"), numItem("n", 9))
			tx.Put(tb, sKey("b"), nil)
			_, err := tx.Commit()
			tx.Abort() // a no-op now
			return err
		}},
		{"AddIndex", func(db *DB, tb *Table) error { return tb.AddIndex(testIndexes[1]) }},
		{"DropIndex", func(db *DB, tb *Table) error { return tb.DropIndex(testIndexes[0].Name) }},
		{"SetMeta", func(db *DB, tb *Table) error { return tb.SetMeta("k", []byte("new")) }},
		{"DB SetMeta", func(db *DB, tb *Table) error { return db.SetMeta("k", nil) }},
		{"DropTable", func(db *DB, tb *Table) error { return db.DropTable("t") }},
		{"CreateTable", func(db *DB, tb *Table) error {
			_, err := db.CreateTable(TableDef{Name: "u", ID: "id-u", Schema: schemaS})
			return err
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := &recHook{}
			db, tb := newHookedTable(t, h)
			if err := tb.AddIndex(testIndexes[0]); err != nil {
				t.Fatal(err)
			}
			tb.TrackCollections(nil, 0)
			for _, s := range []string{"a", "b"} {
				it := numItem(s, 1)
				it["g"], it["h"] = S("x"), N("1")
				put(t, tb, it)
			}
			tb.SetMeta("k", []byte("old"))
			db.SetMeta("k", []byte("old"))
			obs := &recorder{t: t}
			tb.SetObserver(obs)
			want := dumpDB(db)

			h.failNext = func(*Record) bool { return true }
			if err := tc.run(db, tb); !errors.Is(err, ErrHookFailed) || !errors.Is(err, errHookTest) {
				t.Fatalf("got %v, want ErrHookFailed wrapping the hook's error", err)
			}
			if got := dumpDB(db); got != want {
				t.Errorf("state after a refused change:\n%s\nwant\n%s", got, want)
			}
			if len(obs.seen) != 0 {
				t.Errorf("observer saw %q, want nothing", obs.seen)
			}
		})
	}
}

// TestHookWait: Wait runs after the locks are released; its error comes
// back wrapped in ErrNotDurable with the change applied.
func TestHookWait(t *testing.T) {
	h := &recHook{}
	db, tb := newHookedTable(t, h)
	h.onWait = func() {
		if !tb.mu.TryLock() {
			t.Error("Wait called with the table locked")
			return
		}
		tb.mu.Unlock()
		if !db.mu.TryLock() {
			t.Error("Wait called with the DB locked")
			return
		}
		db.mu.Unlock()
	}
	h.failWait = func(r *Record) bool { return r.Kind == RecordCommit && len(r.Writes) == 2 }
	if _, err := tb.Put(sKey("a"), numItem("a", 1)); err != nil {
		t.Fatal(err)
	}
	tx := Begin(tb)
	tx.Put(tb, sKey("b"), numItem("b", 1))
	tx.Put(tb, sKey("c"), numItem("c", 1))
	changes, err := tx.Commit()
	if !errors.Is(err, ErrNotDurable) || !errors.Is(err, errHookTest) {
		t.Errorf("commit: got %v, want ErrNotDurable wrapping the hook's error", err)
	}
	if got, want := len(changes), 2; got != want {
		t.Errorf("got %d changes, want %d", got, want)
	}
	if got, want := tb.ItemCount(), 3; got != want {
		t.Errorf("got %d items, want %d: a failed wait undoes nothing", got, want)
	}
	if err := tb.AddIndex(testIndexes[0]); err != nil {
		t.Fatal(err)
	}
	if err := db.DropTable("t"); err != nil {
		t.Fatal(err)
	}
	if got, want := h.waited, 5; got != want { // create, put, commit, add index, drop
		t.Errorf("Wait called %d times, want %d", got, want)
	}
}

// TestHookNoAllocs: a table without a hook, in a DB or not, allocates
// nothing more per write than before DBs existed, and a hook that keeps
// nothing adds no allocation to a single write either.
func TestHookNoAllocs(t *testing.T) {
	it := numItem("a", 1)
	k := sKey("a")
	measure := func(tb *Table) float64 {
		return testing.AllocsPerRun(100, func() {
			if _, err := tb.Put(k, it); err != nil {
				t.Fatal(err)
			}
		})
	}
	plain := newTable(t, schemaS)
	_, inDB := newHookedTable(t, nil)
	_, hooked := newHookedTable(t, nopHook{})
	base := measure(plain)
	if got := measure(inDB); got != base {
		t.Errorf("a table in a DB without a hook: %v allocations per Put, want %v", got, base)
	}
	if got := measure(hooked); got != base {
		t.Errorf("a table with a hook that keeps nothing: %v allocations per Put, want %v", got, base)
	}
}

// nopHook accepts every record and keeps nothing.
type nopHook struct{}

func (nopHook) Commit(*Record) (uint64, error) { return 0, nil }
func (nopHook) Wait(uint64) error              { return nil }

// TestHookTwoDBsInOneTransaction: a transaction across two DBs with hooks
// is a bug, caught at Commit.
func TestHookTwoDBsInOneTransaction(t *testing.T) {
	_, a := newHookedTable(t, &recHook{})
	_, b := newHookedTable(t, &recHook{})
	tx := Begin(a, b)
	defer func() {
		if recover() == nil {
			t.Error("Commit across two DBs did not panic")
		}
		// The panic leaves the write made and the locks held: undo it and
		// let them go, so that the stores are checked as they were.
		tx.rollbackLocked()
		tx.unlock()
	}()
	tx.Put(a, sKey("a"), numItem("a", 1))
	tx.Commit()
}

// dumpDB renders everything a DB holds (catalog, metadata, items as
// stored, indexes, counts, collection sizes), for tests that compare two.
func dumpDB(db *DB) string {
	var b strings.Builder
	for _, k := range db.MetaKeys() {
		fmt.Fprintf(&b, "db meta %q=%q\n", k, db.Meta(k))
	}
	for _, t := range db.Tables() {
		dumpTable(&b, t)
	}
	return b.String()
}

func dumpTable(b *strings.Builder, t *Table) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	dumpTableLocked(b, t)
}

// dumpTableLocked is dumpTable with t.mu held.
func dumpTableLocked(b *strings.Builder, t *Table) {
	t.metaMu.Lock()
	meta := maps.Clone(t.meta)
	t.metaMu.Unlock()
	dumpState(b, t.name, t.uid, t.ks, t.count, t.size, meta, &t.parts, t.indexes)
	dumpVectors(b, t.vectorDefsLocked())
	if t.coll != nil {
		for _, pk := range slices.Sorted(maps.Keys(t.coll.sizes)) {
			fmt.Fprintf(b, "  collection %q %d\n", pk, t.coll.size(pk))
		}
	}
}

// dumpSnapshot renders a table snapshot as dumpTable renders the table
// (but for collection sizes, which a snapshot does not keep).
func dumpSnapshot(b *strings.Builder, s *TableSnapshot) {
	dumpState(b, s.name, s.id, s.ks, s.count, s.size, s.meta, &s.parts, s.indexes)
	dumpVectors(b, s.vectors)
}

func dumpState(b *strings.Builder, name, id string, ks KeySchema, count int, size int64, meta map[string][]byte, parts *ptable, indexes []*index) {
	fmt.Fprintf(b, "table %q id %q schema %v: %d items, %d bytes\n", name, id, ks, count, size)
	for _, k := range slices.Sorted(maps.Keys(meta)) {
		fmt.Fprintf(b, "  meta %q=%q\n", k, meta[k])
	}
	parts.ascend(0, "", func(p *partition) bool {
		p.walk(bound{}, bound{}, true, func(e entry) bool {
			fmt.Fprintf(b, "  item %q %q size %d\n", p.pk(), e.rec, e.size)
			return true
		})
		return true
	})
	for _, x := range indexes {
		fmt.Fprintf(b, "  index %+v: %d entries, %d bytes\n", x.def, x.count, x.size)
		x.tree.Scan(func(ie ientry) bool {
			fmt.Fprintf(b, "    %q %q %q\n", ie.key, ie.e.pk(), ie.e.rec)
			return true
		})
	}
}

// wrapHook counts what it passes on to the hook it wraps.
type wrapHook struct {
	inner   Hook
	commits int
}

func (w *wrapHook) Commit(r *Record) (uint64, error) { w.commits++; return w.inner.Commit(r) }
func (w *wrapHook) Wait(tok uint64) error            { return w.inner.Wait(tok) }

// TestWrapHook: after DB.WrapHook, writes to a table that existed before
// and catalog changes of the DB both go through the wrapper, then to the
// hook it wraps.
func TestWrapHook(t *testing.T) {
	h := &recHook{}
	db, tb := newHookedTable(t, h)
	w := &wrapHook{}
	db.WrapHook(func(inner Hook) Hook { w.inner = inner; return w })
	if w.inner != h {
		t.Fatalf("wrap got %v, want the DB's hook", w.inner)
	}
	before := len(h.recs)
	if _, err := tb.Put(sKey("a"), numItem("a", 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateTable(TableDef{Name: "t2", ID: "id-t2", Schema: schemaS}); err != nil {
		t.Fatal(err)
	}
	if got, want := w.commits, 2; got != want {
		t.Errorf("wrapper saw %d commits, want %d", got, want)
	}
	if got, want := len(h.recs)-before, 2; got != want {
		t.Errorf("wrapped hook got %d records, want %d", got, want)
	}
}
