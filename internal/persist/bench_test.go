package persist

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// benchKS is the key schema of the benchmarks' tables.
var benchKS = storage.KeySchema{Partition: storage.KeyAttr{Name: "pk", Kind: storage.KindS}}

// benchItem returns item i: 10 attributes, about 240 bytes.
func benchItem(i, version int) storage.Item {
	return storage.Item{
		"pk":     storage.S(fmt.Sprintf("user#%08d", i)),
		"status": storage.S([]string{"active", "paused"}[version%2]),
		"count":  storage.N(storage.MustNumber(fmt.Sprint(i*31 + version))),
		"price":  storage.N("1234.5"),
		"email":  storage.S(fmt.Sprintf("someone.%d@example.com", i)),
		"tags":   storage.SS([]string{"red", "green"}),
		"f0":     storage.S(strings.Repeat("x", 120)),
		"f1":     storage.S("a"),
		"f2":     storage.S("b"),
		"flag":   storage.Bool(i%2 == 0),
	}
}

// benchDB returns a DB of a store in a new directory (mode nil: a DB
// without persistence) with a table "t", and a function that closes it.
func benchDB(b *testing.B, d *Durability) (*storage.DB, func()) {
	if d == nil {
		db := storage.NewDB(nil)
		if _, err := db.CreateTable(storage.TableDef{Name: "t", ID: "t", Schema: benchKS}); err != nil {
			b.Fatal(err)
		}
		return db, func() {}
	}
	s, err := Open(b.TempDir(), Options{Durability: *d})
	if err != nil {
		b.Fatal(err)
	}
	db, err := s.DB(SharedNamespace)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := db.CreateTable(storage.TableDef{Name: "t", ID: "t", Schema: benchKS}); err != nil {
		b.Fatal(err)
	}
	benchStore = s
	return db, func() { s.Close() }
}

// benchStore is the store benchDB opened last.
var benchStore *Store

// benchSyncs is the number of syncs Waits led in benchStore's shared
// namespace.
func benchSyncs() int64 {
	if benchStore == nil {
		return 0
	}
	ns := benchStore.namespace(SharedNamespace)
	if ns == nil {
		return 0
	}
	ns.wal.syncMu.Lock()
	defer ns.wal.syncMu.Unlock()
	return ns.wal.syncs
}

// BenchmarkPut: Put of a 240-byte item replacing another version of it
// (10k items), without persistence and in each durability mode, from one
// writer and from 8 and 16 at once (their commits share fdatasyncs).
// Besides puts/s it reports puts/sync, the puts an fdatasync covered,
// and cpu-us/put, the process's CPU time (every thread's) per put.
func BenchmarkPut(b *testing.B) {
	const n = 10_000
	items := [2][]storage.Item{}
	for v := range items {
		for i := range n {
			items[v] = append(items[v], benchItem(i, v))
		}
	}
	modes := []struct {
		name string
		d    *Durability
	}{{"memory", nil}, {"none", ptr(None)}, {"sync", ptr(Sync)}, {"group", ptr(Group)}}
	for _, writers := range []int{1, 8, 16} {
		for _, m := range modes {
			b.Run(fmt.Sprintf("writers=%d/%s", writers, m.name), func(b *testing.B) {
				db, closeDB := benchDB(b, m.d)
				defer closeDB()
				t := db.Table("t")
				var next atomic.Int64
				put := func() bool {
					i := int(next.Add(1))
					it := items[(i/n)%2][i%n]
					if _, err := t.Put(benchKS.KeyOf(it), it); err != nil {
						b.Error(err)
						return false
					}
					return true
				}
				b.ReportAllocs()
				syncs0 := benchSyncs()
				cpu0 := processCPU()
				start := time.Now()
				if writers == 1 {
					for b.Loop() {
						if !put() {
							return
						}
					}
				} else {
					b.SetParallelism(max(1, writers/runtime.GOMAXPROCS(0)))
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() && put() {
						}
					})
				}
				b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "puts/s")
				b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/1e3/float64(b.N), "cpu-us/put")
				if m.d != nil && *m.d != None {
					b.ReportMetric(float64(b.N)/float64(max(1, benchSyncs()-syncs0)), "puts/sync")
				}
			})
		}
	}
}

func ptr[T any](v T) *T { return &v }

// benchSizes are the item counts of the start-up benchmarks: 1M only with
// PERSIST_BENCH_1M set.
func benchSizes() []int {
	if os.Getenv("PERSIST_BENCH_1M") != "" {
		return []int{100_000, 1_000_000}
	}
	return []int{100_000}
}

// fillStore writes n items over 4 tables (one with an index) into a new
// store in dir, logging them with None and folding them into a snapshot
// unless logOnly, then 1% more writes to the log, and closes it.
func fillStore(b *testing.B, dir string, n int, logOnly bool) {
	s, err := Open(dir, Options{Durability: None, CompactBytes: -1})
	if err != nil {
		b.Fatal(err)
	}
	db, err := s.DB(SharedNamespace)
	if err != nil {
		b.Fatal(err)
	}
	var tables []*storage.Table
	for i := range 4 {
		def := storage.TableDef{Name: fmt.Sprint("t", i), ID: fmt.Sprint("t", i), Schema: benchKS}
		if i == 0 {
			def.Indexes = []storage.IndexDef{{Name: "byEmail", Schema: storage.IndexSchema{Partition: []storage.KeyAttr{{Name: "email", Kind: storage.KindS}}}}}
		}
		t, err := db.CreateTable(def)
		if err != nil {
			b.Fatal(err)
		}
		tables = append(tables, t)
	}
	put := func(i, v int) {
		it := benchItem(i, v)
		if _, err := tables[i%4].Put(benchKS.KeyOf(it), it); err != nil {
			b.Fatal(err)
		}
	}
	for i := range n {
		put(i, 0)
	}
	if !logOnly {
		if err := s.Compact(SharedNamespace); err != nil {
			b.Fatal(err)
		}
	}
	for i := range n / 100 {
		put(i*97%n, 1)
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
}

// dirSize returns the bytes of the files under dir.
func dirSize(dir string) int64 {
	var n int64
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if info, err := e.Info(); err == nil {
			n += info.Size()
		}
	}
	return n
}

// BenchmarkOpen: loading a namespace of n items (4 tables, one with an
// index): from a snapshot plus a 1% log tail, and from the log alone.
func BenchmarkOpen(b *testing.B) {
	for _, n := range benchSizes() {
		for _, logOnly := range []bool{false, true} {
			name := fmt.Sprintf("items=%d/snapshot+log", n)
			if logOnly {
				name = fmt.Sprintf("items=%d/log", n)
			}
			b.Run(name, func(b *testing.B) {
				dir := b.TempDir()
				fillStore(b, dir, n, logOnly)
				var progress int
				for b.Loop() {
					s, err := Open(dir, Options{Progress: func(Progress) { progress++ }})
					if err != nil {
						b.Fatal(err)
					}
					if _, err := s.DB(SharedNamespace); err != nil {
						b.Fatal(err)
					}
					b.StopTimer()
					s.Close()
					b.StartTimer()
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "items/s")
				b.ReportMetric(float64(dirSize(nsDir(dir)))/1e6, "MB-on-disk")
			})
		}
	}
}

// BenchmarkCompactionPause: how long a compaction holds the DB's locks
// (DB.Snapshot with the log's mark: the pause writers see), per op, on a
// namespace of n items across 4 tables with 4 writers running; and how
// long writing the snapshot file takes, in the background.
func BenchmarkCompactionPause(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			fillStore(b, dir, n, false)
			s, err := Open(dir, Options{Durability: None, CompactBytes: -1})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			db, err := s.DB(SharedNamespace)
			if err != nil {
				b.Fatal(err)
			}
			ns := s.namespace(SharedNamespace)
			stop := make(chan struct{})
			var wg sync.WaitGroup
			for w := range 4 {
				wg.Go(func() {
					t := db.Table(fmt.Sprint("t", w))
					for i := 0; ; i++ {
						select {
						case <-stop:
							return
						default:
						}
						it := benchItem((i*4+w)%n, i)
						if _, err := t.Put(benchKS.KeyOf(it), it); err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			for b.Loop() {
				db.Snapshot(func() { ns.wal.mark() })
			}
			close(stop)
			wg.Wait()
			if err := s.Compact(SharedNamespace); err != nil {
				b.Fatal(err)
			}
			st, _ := s.Stats(SharedNamespace)
			b.ReportMetric(float64(st.LastWrite.Milliseconds()), "ms-snapshot-write")
		})
	}
}
