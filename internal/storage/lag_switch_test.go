package storage

import (
	"fmt"
	"sync/atomic"
	"testing"
)

// idleLag is a testLag that can lag nothing (Idler): while idle, every
// commit it numbers is visible at once.
type idleLag struct {
	testLag
	busy atomic.Bool
}

func (l *idleLag) Idle() bool { return !l.busy.Load() }
func (l *idleLag) Visible() uint64 {
	if !l.busy.Load() {
		return l.last.Load()
	}
	return l.shown.Load()
}

// TestIndexLagIdlePasses: a GSI whose lag lags nothing takes writes
// straight into its tree: nothing queued, nothing numbered, and a Put
// allocates what it does on a GSI without a lag. Switched to lag
// (SwitchLag), the next write is queued and hidden until shown; switched
// back, the next write applies what was queued, then passes.
func TestIndexLagIdlePasses(t *testing.T) {
	newTbl := func(l Lag) *Table {
		tbl := newTable(t, KeySchema{Partition: KeyAttr{"pk", KindS}})
		if err := tbl.AddIndex(IndexDef{Name: "byG", Schema: IndexSchema{Partition: []KeyAttr{{"g", KindS}}}, Projection: Projection{All: true}}); err != nil {
			t.Fatal(err)
		}
		if l != nil {
			if err := tbl.SetIndexLag("byG", l); err != nil {
				t.Fatal(err)
			}
		}
		return tbl
	}
	items := make([]Item, 64)
	for i := range items {
		items[i] = Item{"pk": S(fmt.Sprint("k", i%32)), "g": S(fmt.Sprint("g", i%5)), "v": S("value")}
	}
	allocs := func(tbl *Table) float64 {
		i := 0
		return testing.AllocsPerRun(500, func() {
			it := items[i%len(items)]
			if _, err := tbl.Put(Key{Partition: it["pk"]}, it); err != nil {
				t.Fatal(err)
			}
			i++
		})
	}
	l := &idleLag{}
	plain, lagged := newTbl(nil), newTbl(l)
	if got, want := allocs(lagged), allocs(plain); got != want {
		t.Errorf("got %v allocations per Put with an idle lag, want %v as without a lag", got, want)
	}
	if n := lagged.IndexLagPending("byG"); n != 0 || l.last.Load() != 0 {
		t.Errorf("idle: got %d queued, %d numbered; want none", n, l.last.Load())
	}
	check(t, lagged)

	lagged.SwitchLag(func() { l.busy.Store(true) })
	put := func(pk, g, v string) {
		t.Helper()
		if _, err := lagged.Put(Key{Partition: S(pk)}, Item{"pk": S(pk), "g": S(g), "v": S(v)}); err != nil {
			t.Fatal(err)
		}
	}
	put("new", "x", "1")
	if got := gsiKeys(t, lagged, "x"); len(got) != 0 || lagged.IndexLagPending("byG") != 1 {
		t.Fatalf("lagging: got %v, %d queued; want nothing seen, 1 queued", got, lagged.IndexLagPending("byG"))
	}
	lagged.SwitchLag(func() { l.busy.Store(false) })
	put("new2", "x", "2")
	if got, want := fmt.Sprint(gsiKeys(t, lagged, "x")), "[new=1 new2=2]"; got != want || lagged.IndexLagPending("byG") != 0 {
		t.Fatalf("idle again: got %v, %d queued; want %v, none", got, lagged.IndexLagPending("byG"), want)
	}
}

// TestIndexLagOneChoicePerCommit: a lag that starts lagging in the middle
// of a transaction (changed without SwitchLag) does not split it: its
// writes all pass, and an abort undoes them all in the tree.
func TestIndexLagOneChoicePerCommit(t *testing.T) {
	for _, commit := range []bool{true, false} {
		tbl := newTable(t, KeySchema{Partition: KeyAttr{"pk", KindS}})
		if err := tbl.AddIndex(IndexDef{Name: "byG", Schema: IndexSchema{Partition: []KeyAttr{{"g", KindS}}}, Projection: Projection{All: true}}); err != nil {
			t.Fatal(err)
		}
		l := &idleLag{}
		if err := tbl.SetIndexLag("byG", l); err != nil {
			t.Fatal(err)
		}
		tx := Begin(tbl)
		if _, err := tx.Put(tbl, Key{Partition: S("a")}, lagItem("a", "x", "1")); err != nil {
			t.Fatal(err)
		}
		l.busy.Store(true)
		if _, err := tx.Put(tbl, Key{Partition: S("b")}, lagItem("b", "x", "1")); err != nil {
			t.Fatal(err)
		}
		want := "[]"
		if commit {
			if _, err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			want = "[a=1 b=1]"
		} else {
			tx.Abort()
		}
		if got := fmt.Sprint(gsiKeys(t, tbl, "x")); got != want || tbl.IndexLagPending("byG") != 0 {
			t.Errorf("commit %v: got %v, %d queued; want %v, none", commit, got, tbl.IndexLagPending("byG"), want)
		}
		check(t, tbl)
		// The next commit chooses afresh: queued.
		if _, err := tbl.Put(Key{Partition: S("c")}, lagItem("c", "x", "1")); err != nil {
			t.Fatal(err)
		}
		if n := tbl.IndexLagPending("byG"); n != 1 {
			t.Errorf("commit %v: the next write: got %d queued, want 1", commit, n)
		}
	}
}

// TestSwitchReadLag: a read lag switched on starts its shadow at the
// switch, and switched off drops it; a write after the switch on is
// hidden from Eventual until shown.
func TestSwitchReadLag(t *testing.T) {
	tbl := newTable(t, KeySchema{Partition: KeyAttr{"pk", KindS}})
	l := &idleLag{}
	on := func() bool { return l.busy.Load() }
	if _, err := tbl.Put(Key{Partition: S("a")}, Item{"pk": S("a")}); err != nil {
		t.Fatal(err)
	}
	tbl.SwitchReadLag(l, func() { l.busy.Store(true) }, on)
	if tbl.ReadLag() != l {
		t.Fatal("switched on: no read lag")
	}
	if _, err := tbl.Put(Key{Partition: S("b")}, Item{"pk": S("b")}); err != nil {
		t.Fatal(err)
	}
	if _, ok := tbl.Eventual().Get(Key{Partition: S("a")}); !ok {
		t.Error("a write before the switch is not seen")
	}
	if _, ok := tbl.Eventual().Get(Key{Partition: S("b")}); ok {
		t.Error("a write after the switch is seen")
	}
	tbl.SwitchReadLag(l, func() { l.busy.Store(false) }, on)
	if tbl.ReadLag() != nil || tbl.Eventual() != tbl {
		t.Error("switched off: the read lag is still set")
	}
}
