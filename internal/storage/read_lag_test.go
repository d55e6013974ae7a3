package storage

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

// eventualV returns attribute v of the item with key pk as an eventually
// consistent read of tbl sees it ("-": no item).
func eventualV(tbl *Table, pk string) string {
	it, ok := tbl.Eventual().Get(Key{Partition: S(pk)})
	if !ok {
		return "-"
	}
	return it["v"].Str()
}

func TestReadLag(t *testing.T) {
	tbl := newTable(t, KeySchema{Partition: KeyAttr{"pk", KindS}})
	put := func(pk, v string) {
		t.Helper()
		var it Item
		if v != "-" {
			it = Item{"pk": S(pk), "v": S(v)}
		}
		if _, err := tbl.Put(Key{Partition: S(pk)}, it); err != nil {
			t.Fatal(err)
		}
	}
	if got := tbl.Eventual(); got != tbl {
		t.Fatal("Eventual without a lag: got another table, want the table")
	}
	put("a", "1")
	l := &testLag{}
	tbl.SetReadLag(l)
	steps := []struct {
		write   [2]string // key, value ("-": delete; "": no write)
		release bool
		want    string // what eventual reads of a, b see
	}{
		{want: "1 -"},
		{write: [2]string{"a", "2"}, want: "1 -"},
		{write: [2]string{"b", "1"}, want: "1 -"},
		{release: true, want: "2 1"},
		{write: [2]string{"a", "-"}, want: "2 1"},
		{write: [2]string{"a", "3"}, want: "2 1"},
		{release: true, want: "3 1"},
		{write: [2]string{"b", "-"}, want: "3 1"},
		{release: true, want: "3 -"},
	}
	for i, s := range steps {
		if s.write[0] != "" {
			put(s.write[0], s.write[1])
		}
		if s.release {
			l.release()
		}
		if got := eventualV(tbl, "a") + " " + eventualV(tbl, "b"); got != s.want {
			t.Fatalf("step %d: got %q, want %q", i, got, s.want)
		}
	}
	put("a", "4")
	if got := tbl.ReadLagPending(); got != 1 {
		t.Fatalf("ReadLagPending: got %d, want 1", got)
	}
	l.release()
	if got := eventualV(tbl, "a") + " " + fmt.Sprint(tbl.ReadLagPending()); got != "4 0" {
		t.Fatalf("released: got %q, want \"4 0\"", got)
	}
	// A consistent read reads the table.
	if it, _ := tbl.Get(Key{Partition: S("a")}); it["v"].Str() != "4" {
		t.Fatalf("consistent read: got %v, want v 4", it)
	}
	tbl.SetReadLag(nil)
	if got := tbl.Eventual(); got != tbl {
		t.Fatal("Eventual after SetReadLag(nil): got another table")
	}
}

func TestReadLagQueryAndTransactions(t *testing.T) {
	tbl := newTable(t, KeySchema{Partition: KeyAttr{"pk", KindS}, Sort: KeyAttr{"sk", KindS}})
	l := &testLag{}
	tbl.SetReadLag(l)
	item := func(sk, v string) Item { return Item{"pk": S("p"), "sk": S(sk), "v": S(v)} }
	tx := Begin(tbl)
	for _, sk := range []string{"1", "2", "3"} {
		if _, err := tx.Put(tbl, Key{Partition: S("p"), Sort: S(sk)}, item(sk, "x")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	tx = Begin(tbl)
	if _, err := tx.Put(tbl, Key{Partition: S("p"), Sort: S("4")}, item("4", "x")); err != nil {
		t.Fatal(err)
	}
	tx.Abort()
	query := func() string {
		var got []string
		tbl.Eventual().Query(QueryRange{Partition: S("p"), Forward: true}, func(_ Key, it Item) bool {
			got = append(got, it["sk"].Str())
			return true
		})
		return fmt.Sprint(got)
	}
	if got, want := query(), "[]"; got != want {
		t.Fatalf("before release: got %s, want %s", got, want)
	}
	if got, want := l.last.Load(), uint64(1); got != want {
		t.Fatalf("commits stamped: got %d, want %d", got, want)
	}
	l.release()
	if got, want := query(), "[1 2 3]"; got != want {
		t.Fatalf("after release: got %s, want %s", got, want)
	}
}

// Transactions writing pairs, releases and eventually consistent readers
// at once (run with -race): a reader sees both items of a pair with the
// same value, and once released the shadow holds what the table holds.
func TestReadLagConcurrent(t *testing.T) {
	tbl := newTable(t, KeySchema{Partition: KeyAttr{"pk", KindS}})
	l := &testLag{}
	tbl.SetReadLag(l)
	var wg, bg sync.WaitGroup
	stop := make(chan struct{})
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 9))
			for i := range 300 {
				tx := Begin(tbl)
				for _, pk := range []string{fmt.Sprint("a", w), fmt.Sprint("b", w)} {
					it := Item{"pk": S(pk), "v": S(fmt.Sprint(i))}
					if r.IntN(5) == 0 {
						it = nil
					}
					if _, err := tx.Put(tbl, Key{Partition: S(pk)}, it); err != nil {
						t.Error(err)
					}
				}
				if r.IntN(4) == 0 {
					tx.Abort()
				} else if _, err := tx.Commit(); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	bg.Add(2)
	go func() {
		defer bg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				l.release()
			}
		}
	}()
	go func() {
		defer bg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			for w := range 3 {
				var a, b string
				sh := tbl.Eventual() // once: not under the shadow's lock
				rt := BeginRead(sh)
				if it, ok := rt.Get(sh, Key{Partition: S(fmt.Sprint("a", w))}); ok {
					a = it["v"].Str()
				}
				if it, ok := rt.Get(sh, Key{Partition: S(fmt.Sprint("b", w))}); ok {
					b = it["v"].Str()
				}
				rt.Close()
				if a != b && a != "" && b != "" {
					t.Errorf("pair %d: got %q and %q, half of a transaction", w, a, b)
				}
			}
		}
	}()
	wg.Wait()
	close(stop)
	bg.Wait()
	l.release()
	sh := tbl.Eventual()
	for w := range 3 {
		for _, pk := range []string{fmt.Sprint("a", w), fmt.Sprint("b", w)} {
			want, _ := tbl.Get(Key{Partition: S(pk)})
			got, _ := sh.Get(Key{Partition: S(pk)})
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s after release: got %v, want %v", pk, got, want)
			}
		}
	}
	// The table and its shadow are checked at the end.
}
