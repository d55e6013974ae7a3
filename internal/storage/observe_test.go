package storage

import (
	"fmt"
	"slices"
	"testing"
)

// recorder is an Observer that writes each observed write as one line:
// "<origin> <pk> <old v or -> -> <new v or ->", decoding the records.
type recorder struct {
	t    testing.TB
	seen []string
}

func (r *recorder) Observe(w Committed) {
	v := func(e EncodedItem, ok bool) string {
		if !ok {
			return "-"
		}
		return fmt.Sprint(itemV(r.t, e.Item()))
	}
	r.seen = append(r.seen, fmt.Sprintf("%d %s %s>%s", w.Origin, w.Key.Partition.Str(), v(w.Old, w.HadOld), v(w.New, w.HasNew)))
}

func TestObserver(t *testing.T) {
	tests := []struct {
		name string
		run  func(tb *Table)
		want []string
	}{
		{"put insert, modify, same, delete, delete missing", func(tb *Table) {
			tb.Put(sKey("a"), numItem("a", 1))
			tb.Put(sKey("a"), numItem("a", 2))
			tb.Put(sKey("a"), numItem("a", 2)) // the same item: nothing
			tb.Put(sKey("a"), nil)
			tb.Put(sKey("a"), nil) // nothing to delete
		}, []string{"0 a ->1", "0 a 1>2", "0 a 2>-"}},
		{"sets in another order are the same item", func(tb *Table) {
			it := func(members ...string) Item { return Item{"pk": S("a"), "v": N("1"), "s": SS(members)} }
			tb.Put(sKey("a"), it("x", "y"))
			tb.Put(sKey("a"), it("y", "x")) // the same item
			tb.Put(sKey("a"), it("x", "z")) // another
		}, []string{"0 a ->1", "0 a 1>1"}},
		{"write: ErrNoWrite and errors are not observed", func(tb *Table) {
			tb.Write(sKey("a"), func(Item) (Item, error) { return numItem("a", 1), nil })
			tb.Write(sKey("a"), func(Item) (Item, error) { return nil, ErrNoWrite })
			tb.Write(sKey("a"), func(Item) (Item, error) { return nil, ErrKeyMismatch })
			tb.WriteFrom(OriginService, sKey("a"), func(Item) (Item, error) { return nil, nil })
		}, []string{"0 a ->1", "1 a 1>-"}},
		{"transaction: at commit, in order; abort: nothing", func(tb *Table) {
			tx := Begin(tb)
			tx.Put(tb, sKey("b"), numItem("b", 1))
			tx.Put(tb, sKey("a"), numItem("a", 1))
			mustCommit(t, tx)
			tx = Begin(tb)
			tx.Put(tb, sKey("c"), numItem("c", 1))
			tx.Abort()
		}, []string{"0 b ->1", "0 a ->1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTable(t, schemaS)
			r := &recorder{t: t}
			tb.SetObserver(r)
			tc.run(tb)
			if !slices.Equal(r.seen, tc.want) {
				t.Errorf("got %q, want %q", r.seen, tc.want)
			}
		})
	}
}

func TestObserverSeesTransactionOnlyAtCommit(t *testing.T) {
	tb := newTable(t, schemaS)
	r := &recorder{t: t}
	tb.SetObserver(r)
	tx := Begin(tb)
	tx.Put(tb, sKey("a"), numItem("a", 1))
	if len(r.seen) != 0 {
		t.Fatalf("got %q before commit, want nothing", r.seen)
	}
	mustCommit(t, tx)
	if got, want := len(r.seen), 1; got != want {
		t.Fatalf("got %d records after commit, want %d", got, want)
	}
	tb.SetObserver(nil)
	tb.Put(sKey("a"), numItem("a", 2))
	if got, want := len(r.seen), 1; got != want {
		t.Errorf("got %d records after removing the observer, want %d", got, want)
	}
}
