package storage

import (
	"fmt"
	"slices"
	"testing"
)

// recorder is an Observer that writes each observed change as one line:
// "<origin> <pk> <old v or -> -> <new v or ->".
type recorder struct {
	t    testing.TB
	seen []string
}

func (r *recorder) Observe(k Key, ch Change, origin Origin) {
	v := func(it Item, size int) string {
		switch {
		case it != nil:
			return fmt.Sprint(itemV(r.t, it))
		case size > 0:
			return "?" // replaced, not decoded
		}
		return "-"
	}
	r.seen = append(r.seen, fmt.Sprintf("%d %s %s>%s", origin, k.Partition.Str(), v(ch.Old, ch.OldSize), v(ch.New, ch.NewSize)))
}

func TestObserver(t *testing.T) {
	tests := []struct {
		name    string
		needOld bool
		run     func(tb *Table)
		want    []string
	}{
		{"put insert, modify, same, delete, delete missing", false, func(tb *Table) {
			tb.Put(sKey("a"), numItem("a", 1))
			tb.Put(sKey("a"), numItem("a", 2))
			tb.Put(sKey("a"), numItem("a", 2)) // the same item: nothing
			tb.Put(sKey("a"), nil)
			tb.Put(sKey("a"), nil) // nothing to delete
		}, []string{"0 a ->1", "0 a ?>2", "0 a ?>-"}},
		{"needOld decodes the old image of a put", true, func(tb *Table) {
			tb.Put(sKey("a"), numItem("a", 1))
			tb.Put(sKey("a"), numItem("a", 2))
			tb.Put(sKey("a"), nil)
		}, []string{"0 a ->1", "0 a 1>2", "0 a 2>-"}},
		{"write: ErrNoWrite and errors are not observed", false, func(tb *Table) {
			tb.Write(sKey("a"), func(Item) (Item, error) { return numItem("a", 1), nil })
			tb.Write(sKey("a"), func(Item) (Item, error) { return nil, ErrNoWrite })
			tb.Write(sKey("a"), func(Item) (Item, error) { return nil, ErrKeyMismatch })
			tb.WriteFrom(OriginService, sKey("a"), func(Item) (Item, error) { return nil, nil })
		}, []string{"0 a ->1", "1 a 1>-"}},
		{"transaction: at commit, in order; abort: nothing", false, func(tb *Table) {
			tx := Begin(tb)
			tx.Put(tb, sKey("b"), numItem("b", 1))
			tx.Put(tb, sKey("a"), numItem("a", 1))
			tx.Commit()
			tx = Begin(tb)
			tx.Put(tb, sKey("c"), numItem("c", 1))
			tx.Abort()
		}, []string{"0 b ->1", "0 a ->1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tb := NewTable(schemaS)
			r := &recorder{t: t}
			tb.SetObserver(r, tc.needOld)
			tc.run(tb)
			if !slices.Equal(r.seen, tc.want) {
				t.Errorf("got %q, want %q", r.seen, tc.want)
			}
		})
	}
}

func TestObserverSeesTransactionOnlyAtCommit(t *testing.T) {
	tb := NewTable(schemaS)
	r := &recorder{t: t}
	tb.SetObserver(r, false)
	tx := Begin(tb)
	tx.Put(tb, sKey("a"), numItem("a", 1))
	if len(r.seen) != 0 {
		t.Fatalf("got %q before commit, want nothing", r.seen)
	}
	tx.Commit()
	if got, want := len(r.seen), 1; got != want {
		t.Fatalf("got %d records after commit, want %d", got, want)
	}
	tb.SetObserver(nil, true)
	tb.Put(sKey("a"), numItem("a", 2))
	if got, want := len(r.seen), 1; got != want {
		t.Errorf("got %d records after removing the observer, want %d", got, want)
	}
}
