package storage

import (
	"fmt"
	"sync"
	"testing"
)

// encodingHook is a Hook that does what a write-ahead log does before its
// I/O: it writes each record's binary form into a buffer it reuses.
type encodingHook struct {
	mu  sync.Mutex
	buf []byte
}

func (h *encodingHook) Commit(r *Record) (uint64, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var err error
	h.buf, err = AppendRecord(h.buf[:0], r)
	return 0, err
}

func (h *encodingHook) Wait(uint64) error { return nil }

// BenchmarkPutHook: Put replacing items of a 10k-item table with another
// version (every write is recorded), for a table of no DB, of a DB
// without a hook, with a hook that keeps nothing, and with one that
// encodes every record.
func BenchmarkPutHook(b *testing.B) {
	for _, bc := range []struct {
		name string
		db   bool
		hook Hook
	}{
		{"no-db", false, nil},
		{"db-nil-hook", true, nil},
		{"nop-hook", true, nopHook{}},
		{"encoding-hook", true, &encodingHook{}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			const n = 10000
			tbl := newTable(b, schemaSN)
			if bc.db {
				var err error
				if tbl, err = newDB(b, bc.hook).CreateTable(TableDef{Name: "t", ID: "t", Schema: schemaSN}); err != nil {
					b.Fatal(err)
				}
			}
			for i := range n {
				put(b, tbl, benchItem(b, schemaSN, i/100, i%100))
			}
			var versions [2][]Item
			for v := range versions {
				versions[v] = make([]Item, 1024)
				for i := range versions[v] {
					it := benchItem(b, schemaSN, (i*7919)%n/100, i%100)
					it["status"] = S([]string{"active", "paused"}[v])
					versions[v][i] = it
				}
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				it := versions[(i/1024)%2][i%1024]
				if _, err := tbl.Put(schemaSN.KeyOf(it), it); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkWriteTxHook: a transaction of 10 puts over two tables of a DB,
// without a hook and with one that encodes every record.
func BenchmarkWriteTxHook(b *testing.B) {
	for _, bc := range []struct {
		name string
		hook Hook
	}{
		{"nil-hook", nil},
		{"encoding-hook", &encodingHook{}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			const size, n = 10_000, 10
			db := newDB(b, bc.hook)
			var tables []*Table
			for i := range 2 {
				tb, err := db.CreateTable(TableDef{Name: fmt.Sprint(i), ID: fmt.Sprint(i), Schema: schemaSN})
				if err != nil {
					b.Fatal(err)
				}
				for j := range size {
					put(b, tb, benchItem(b, schemaSN, j/100, j%100))
				}
				tables = append(tables, tb)
			}
			var versions [2][]Item
			for v := range versions {
				versions[v] = make([]Item, 1024)
				for i := range versions[v] {
					it := benchItem(b, schemaSN, (i*7919)%size/100, i%100)
					it["status"] = S([]string{"active", "paused"}[v])
					versions[v][i] = it
				}
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				tx := Begin(tables...)
				for j := range n {
					it := versions[((i+j)/1024)%2][(i+j)%1024]
					if _, err := tx.Put(tables[j%2], schemaSN.KeyOf(it), it); err != nil {
						b.Fatal(err)
					}
				}
				mustCommit(b, tx)
				i += n
			}
		})
	}
}
