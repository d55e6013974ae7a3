package storage

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

func sKey(pk string) Key { return Key{Partition: S(pk)} }

func numItem(pk string, v int) Item {
	return Item{"pk": S(pk), "v": N(MustNumber(fmt.Sprint(v)))}
}

func itemV(t testing.TB, it Item) int {
	t.Helper()
	var v int
	if _, err := fmt.Sscan(it["v"].Str(), &v); err != nil {
		t.Fatalf("v of %v: %v", it, err)
	}
	return v
}

// contents returns pk -> v of every item in tbl.
func contents(t testing.TB, tbl *Table) map[string]int {
	t.Helper()
	out := map[string]int{}
	tbl.Scan(ScanRange{}, func(_ Key, it Item) bool {
		out[it["pk"].Str()] = itemV(t, it)
		return true
	})
	return out
}

func TestWriteTxCommitAndAbort(t *testing.T) {
	tests := []struct {
		name   string
		commit bool
		ops    func(t *testing.T, tx *WriteTx, a, b *Table)
		wantA  map[string]int
		wantB  map[string]int
		nCh    int
	}{
		{"commit across tables", true, func(t *testing.T, tx *WriteTx, a, b *Table) {
			mustTx(t)(tx.Put(a, sKey("x"), numItem("x", 10)))
			mustTx(t)(tx.Put(b, sKey("y"), nil))
			mustTx(t)(tx.Put(b, sKey("new"), numItem("new", 7)))
		}, map[string]int{"x": 10, "z": 3}, map[string]int{"new": 7}, 3},
		{"abort restores put, delete and create", false, func(t *testing.T, tx *WriteTx, a, b *Table) {
			mustTx(t)(tx.Put(a, sKey("x"), numItem("x", 10)))
			mustTx(t)(tx.Put(b, sKey("y"), nil))
			mustTx(t)(tx.Put(b, sKey("new"), numItem("new", 7)))
		}, map[string]int{"x": 1, "z": 3}, map[string]int{"y": 2}, 0},
		{"abort restores the same item written twice", false, func(t *testing.T, tx *WriteTx, a, b *Table) {
			mustTx(t)(tx.Put(a, sKey("x"), numItem("x", 10)))
			mustTx(t)(tx.Put(a, sKey("x"), nil))
			mustTx(t)(tx.Put(a, sKey("x"), numItem("x", 11)))
		}, map[string]int{"x": 1, "z": 3}, map[string]int{"y": 2}, 0},
		{"get sees own writes", true, func(t *testing.T, tx *WriteTx, a, b *Table) {
			mustTx(t)(tx.Put(a, sKey("x"), numItem("x", 10)))
			it, ok := tx.Get(a, sKey("x"))
			if !ok || itemV(t, it) != 10 {
				t.Fatalf("Get after Put = %v, %v; want v 10", it, ok)
			}
			mustTx(t)(tx.Write(a, sKey("x"), func(old Item) (Item, error) {
				return numItem("x", itemV(t, old)+1), nil
			}))
		}, map[string]int{"x": 11, "z": 3}, map[string]int{"y": 2}, 2},
		{"no-op writes record nothing", true, func(t *testing.T, tx *WriteTx, a, b *Table) {
			mustTx(t)(tx.Write(a, sKey("x"), func(Item) (Item, error) { return nil, ErrNoWrite }))
			mustTx(t)(tx.Put(a, sKey("absent"), nil))
			mustTx(t)(tx.Write(a, sKey("absent2"), func(Item) (Item, error) { return nil, nil }))
		}, map[string]int{"x": 1, "z": 3}, map[string]int{"y": 2}, 0},
		{"failed write leaves the transaction usable", true, func(t *testing.T, tx *WriteTx, a, b *Table) {
			boom := errors.New("boom")
			if _, err := tx.Write(a, sKey("x"), func(Item) (Item, error) { return nil, boom }); !errors.Is(err, boom) {
				t.Fatalf("Write error = %v, want boom", err)
			}
			if _, err := tx.Put(a, sKey("x"), numItem("other", 1)); !errors.Is(err, ErrKeyMismatch) {
				t.Fatalf("Put error = %v, want ErrKeyMismatch", err)
			}
			mustTx(t)(tx.Put(a, sKey("z"), nil))
		}, map[string]int{"x": 1}, map[string]int{"y": 2}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, b := newTable(t, schemaS), newTable(t, schemaS)
			put(t, a, numItem("x", 1))
			put(t, a, numItem("z", 3))
			put(t, b, numItem("y", 2))
			tx := Begin(b, a, b) // duplicates and any order
			tc.ops(t, tx, a, b)
			var changes []Change
			if tc.commit {
				var err error
				if changes, err = tx.Commit(); err != nil {
					t.Fatal(err)
				}
			}
			tx.Abort()
			tx.Abort() // idempotent
			if got := len(changes); got != tc.nCh {
				t.Errorf("got %d changes, want %d", got, tc.nCh)
			}
			for _, c := range []struct {
				tbl  *Table
				want map[string]int
			}{{a, tc.wantA}, {b, tc.wantB}} {
				if got := contents(t, c.tbl); fmt.Sprint(got) != fmt.Sprint(c.want) {
					t.Errorf("got %v, want %v", got, c.want)
				}
			}
			if _, err := tx.Put(a, sKey("late"), numItem("late", 1)); !errors.Is(err, ErrTxDone) {
				t.Errorf("Put after the end = %v, want ErrTxDone", err)
			}
		})
	}
}

func mustTx(t *testing.T) func(Change, error) {
	return func(_ Change, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestWriteTxAbortCollections checks that undo keeps item collection sizes
// right, even when a limit lowered since would refuse the restored state.
func TestWriteTxAbortCollections(t *testing.T) {
	tbl := newTable(t, schemaSN)
	tbl.TrackCollections(func(Item) int64 { return 10 }, 0)
	put(t, tbl, Item{"pk": S("p"), "sk": N(MustNumber("1")), "d": S("0123456789")})
	put(t, tbl, Item{"pk": S("p"), "sk": N(MustNumber("2")), "d": S("0123456789")})
	before := tbl.CollectionSize(S("p"))
	tbl.mu.Lock()
	tbl.coll.limit = before - 1 // the current state is already over the limit
	tbl.mu.Unlock()
	tx := Begin(tbl)
	mustTx(t)(tx.Put(tbl, Key{Partition: S("p"), Sort: N(MustNumber("1"))}, nil))
	mustTx(t)(tx.Put(tbl, Key{Partition: S("p"), Sort: N(MustNumber("2"))}, Item{"pk": S("p"), "sk": N(MustNumber("2"))}))
	tx.Abort()
	if got := tbl.CollectionSize(S("p")); got != before {
		t.Errorf("collection size after abort = %d, want %d", got, before)
	}
	tbl.mu.RLock()
	defer tbl.mu.RUnlock()
	if tbl.coll.limit != before-1 {
		t.Errorf("limit after abort = %d, want %d", tbl.coll.limit, before-1)
	}
}

// TestTxRandomized runs transfers between accounts spread over three
// tables, from several goroutines, some transactions abandoned half way and
// single-table writes mixed in, while readers take snapshots. It checks
// atomicity and isolation against a reference model: the total is the same
// in every snapshot, and at the end every account equals the model's replay
// of the committed transfers in commit order. The seed is printed.
func TestTxRandomized(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	const (
		accounts = 12
		workers  = 4
		rounds   = 250
		initial  = 100
	)
	tables := []*Table{newTable(t, schemaS), newTable(t, schemaS), newTable(t, schemaS)}
	where := func(i int) (*Table, Key) { return tables[i%len(tables)], sKey(fmt.Sprint("acct", i)) }
	for i := range accounts {
		tbl, k := where(i)
		put(t, tbl, numItem(k.Partition.Str(), initial))
	}
	var (
		mu        sync.Mutex // orders commits for the model
		committed [][3]int   // from, to, amount, in commit order
	)
	errs := make(chan error, workers+2)
	var writers sync.WaitGroup
	for w := range workers {
		writers.Add(1)
		go func() {
			defer writers.Done()
			r := rand.New(rand.NewPCG(seed, uint64(w)))
			for range rounds {
				from, to := r.IntN(accounts), r.IntN(accounts)
				if from == to {
					continue
				}
				amount := r.IntN(30) + 1
				ft, fk := where(from)
				tt, tk := where(to)
				tx := Begin(ft, tt)
				ok := true
				for _, step := range []struct {
					tbl *Table
					k   Key
					d   int
				}{{ft, fk, -amount}, {tt, tk, amount}} {
					_, err := tx.Write(step.tbl, step.k, func(old Item) (Item, error) {
						v := itemV(t, old) + step.d
						if v < 0 {
							return nil, errors.New("overdrawn")
						}
						return numItem(step.k.Partition.Str(), v), nil
					})
					if err != nil {
						ok = false
						break
					}
				}
				if !ok || r.IntN(5) == 0 { // refused, or abandoned on purpose
					tx.Abort()
				} else {
					mu.Lock()
					if _, err := tx.Commit(); err != nil {
						t.Error(err)
					}
					committed = append(committed, [3]int{from, to, amount})
					mu.Unlock()
				}
				// A single-table write in between: rewrites an account unchanged.
				st, sk := where(r.IntN(accounts))
				if _, err := st.Write(sk, func(old Item) (Item, error) { return old, nil }); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	stop := make(chan struct{})
	var readers sync.WaitGroup
	for range 2 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				rtx := BeginRead(tables...)
				sum := 0
				for i := range accounts {
					tbl, k := where(i)
					it, ok := rtx.Get(tbl, k)
					if !ok {
						rtx.Close()
						errs <- fmt.Errorf("account %d missing from a snapshot", i)
						return
					}
					sum += itemV(t, it)
				}
				rtx.Close()
				if sum != accounts*initial {
					errs <- fmt.Errorf("snapshot total %d, want %d", sum, accounts*initial)
					return
				}
			}
		}()
	}
	writers.Wait()
	close(stop)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("seed %d: %v", seed, err)
	}
	model := make([]int, accounts)
	for i := range model {
		model[i] = initial
	}
	for _, c := range committed {
		model[c[0]] -= c[2]
		model[c[1]] += c[2]
	}
	for i := range accounts {
		tbl, k := where(i)
		it, _ := tbl.Get(k)
		if got := itemV(t, it); got != model[i] {
			t.Errorf("seed %d: account %d = %d, want %d", seed, i, got, model[i])
		}
	}
	t.Logf("%d transfers committed", len(committed))
}

// mustCommit commits tx and fails the test if the commit fails.
func mustCommit(tb testing.TB, tx *WriteTx) []Change {
	tb.Helper()
	changes, err := tx.Commit()
	if err != nil {
		tb.Fatal(err)
	}
	return changes
}
