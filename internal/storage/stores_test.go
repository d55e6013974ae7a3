package storage

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The stores of storage's tests, each checked when its test ends, as
// bbolt's btesting.MustCreateDB registers a cleanup that runs the
// database's consistency check: every test makes its tables and DBs
// with newTable and newDB (internal/lint's TestStoresCheckedAtEnd keeps
// it so), whose Check (the table's invariants, its indexes', its vector
// indexes' and its read lag shadow's) runs on t.Cleanup. A test that
// checks in the middle too (a randomized one, every few steps) calls
// check.

// newTable returns NewTable(ks), its vector indexes built by
// testIndexer, checked when tb ends.
func newTable(tb testing.TB, ks KeySchema) *Table {
	tb.Helper()
	t := NewTable(ks)
	t.SetVectorIndexer(testIndexer{})
	checkAtEnd(tb, t.Check)
	return t
}

// newDB returns NewDB(hook), its tables' vector indexes built by
// testIndexer, every table it holds checked when tb ends.
func newDB(tb testing.TB, hook Hook) *DB {
	tb.Helper()
	db := NewDB(hook)
	db.SetVectorIndexer(testIndexer{})
	checkAtEnd(tb, db.Check)
	return db
}

// checkAtEnd runs check when tb ends and fails it on an error. A
// benchmark's stores are not checked: its tests check the same code.
func checkAtEnd(tb testing.TB, check func() error) {
	if _, bench := tb.(*testing.B); bench {
		return
	}
	tb.Cleanup(func() {
		if err := check(); err != nil {
			tb.Errorf("a store of the test is inconsistent at its end: %v", err)
		}
	})
}

// check fails tb at once if tbl's invariants do not hold.
func check(tb testing.TB, tbl *Table) {
	tb.Helper()
	if err := tbl.Check(); err != nil {
		tb.Fatal(err)
	}
}

// testIndexer stands in for internal/vector (which imports storage, so
// storage's tests cannot) as the VectorIndexer of the tests' stores. Its
// entries keep, by table key, each item whose vector attribute is a list
// of Dimensions numbers and whose HASH attribute, if the index has one,
// is of its kind, with where it is stored: what storage owes any index
// (every write, undo, move and rebuild reaches it) without the vectors.
type testIndexer struct{}

func (testIndexer) NewVectorIndex(ks KeySchema, def VectorIndexDef) VectorIndex {
	return &testVectors{def: def, rows: map[[2]string]testRow{}}
}

type testVectors struct {
	def   VectorIndexDef
	rows  map[[2]string]testRow // partition key Str, encoded sort key
	lists int64
}

type testRow struct {
	at   ItemRef
	list int64 // ValueSize of the vector attribute
}

func (x *testVectors) Reads() []string {
	reads := []string{x.def.Attribute}
	if x.def.HasHash() {
		reads = append(reads, x.def.Hash.Name)
	}
	return reads
}

func (x *testVectors) Put(at ItemRef, it Item) {
	key := [2]string{at.PartitionKey(), at.SortKey()}
	if old, ok := x.rows[key]; ok {
		x.lists -= old.list
		delete(x.rows, key)
	}
	v, ok := it[x.def.Attribute]
	if !ok || v.Kind() != KindL || len(v.List()) != x.def.Dimensions ||
		slices.ContainsFunc(v.List(), func(e Value) bool { return e.Kind() != KindN }) {
		return
	}
	if x.def.HasHash() && it[x.def.Hash.Name].Kind() != x.def.Hash.Kind {
		return
	}
	row := testRow{at: at, list: int64(ValueSize(v))}
	x.rows[[2]string{strings.Clone(key[0]), strings.Clone(key[1])}] = row
	x.lists += row.list
}

func (x *testVectors) Moved(at ItemRef) {
	key := [2]string{at.PartitionKey(), at.SortKey()}
	if row, ok := x.rows[key]; ok {
		row.at = at
		x.rows[key] = row
	}
}

func (x *testVectors) Stats() VectorStats {
	n := len(x.rows)
	return VectorStats{Count: n, Size: int64(n) * int64(4*x.def.Dimensions), Lists: x.lists}
}

func (x *testVectors) Check(refill func(VectorIndex)) error {
	fresh := &testVectors{def: x.def, rows: map[[2]string]testRow{}}
	refill(fresh)
	if len(fresh.rows) != len(x.rows) || fresh.lists != x.lists {
		return fmt.Errorf("%d rows of %d list bytes, items give %d of %d", len(x.rows), x.lists, len(fresh.rows), fresh.lists)
	}
	for key, want := range fresh.rows {
		if got, ok := x.rows[key]; !ok || !got.at.Same(want.at) || got.list != want.list {
			return fmt.Errorf("key %q: row %v, the item gives %v", key, got, want)
		}
	}
	return nil
}
