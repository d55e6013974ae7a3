package storage

import (
	"fmt"
	"os"
	"runtime"
	"testing"
)

// benchMillion reports whether the benchmarks of a million items run.
func benchMillion() bool { return os.Getenv("STORAGE_BENCH_1M") != "" }

// snapBenchSizes are the table sizes of the snapshot benchmarks: 1M items
// only when STORAGE_BENCH_1M is set (loading them takes a while).
func snapBenchSizes() []int {
	if benchMillion() {
		return []int{10_000, 100_000, 1_000_000}
	}
	return []int{10_000, 100_000}
}

// BenchmarkSnapshot: Table.Snapshot of a table of n items with one index,
// one item per partition; what a snapshot costs whatever n.
func BenchmarkSnapshot(b *testing.B) {
	for _, n := range snapBenchSizes() {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			tbl := fillTable(b, schemaS, n, 1)
			if err := tbl.AddIndex(emailIndex); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				tbl.Snapshot()
			}
		})
	}
}

// BenchmarkRestoreTable: DB.RestoreTable of a snapshot of n items with one
// index, one item per partition (the partition map is the O(n) part).
func BenchmarkRestoreTable(b *testing.B) {
	for _, n := range snapBenchSizes() {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			tbl := fillTable(b, schemaS, n, 1)
			if err := tbl.AddIndex(emailIndex); err != nil {
				b.Fatal(err)
			}
			snap := tbl.Snapshot()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				db := newDB(b, nil)
				if _, err := db.RestoreTable("r", fmt.Sprint(i), snap); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkPutAfterSnapshot: Put replacing items of a 100k-item table
// with an index (one item per partition, or 100), a snapshot taken every
// `every` writes: each write after a snapshot that reaches a partition
// not yet written since copies it (its header and the B-tree paths), the
// cost a table pays while compactions or backups run. every=0: never.
func BenchmarkPutAfterSnapshot(b *testing.B) {
	const n = 100_000
	for _, per := range []int{1, 100} {
		for _, every := range []int{0, 1_000_000, 10_000, 100} {
			b.Run(fmt.Sprintf("per-partition=%d/every=%d", per, every), func(b *testing.B) {
				ks := schemaS
				if per > 1 {
					ks = schemaSN
				}
				tbl := fillTable(b, ks, n, per)
				if err := tbl.AddIndex(emailIndex); err != nil {
					b.Fatal(err)
				}
				items := make([]Item, 4096)
				for i := range items {
					it := benchItem(b, ks, (i*7919)%n/per, i%per)
					it["status"] = S("paused")
					items[i] = it
				}
				b.ReportAllocs()
				i := 0
				var snap *TableSnapshot
				for b.Loop() {
					if every > 0 && i%every == 0 {
						snap = tbl.Snapshot()
					}
					put(b, tbl, items[i%len(items)])
					i++
				}
				runtime.KeepAlive(snap)
			})
		}
	}
}

// BenchmarkSnapshotMemory: the heap a snapshot of a 100k-item table (one
// index) holds beyond the table after 1% and after 100% of the items are
// rewritten, per item of the table.
func BenchmarkSnapshotMemory(b *testing.B) {
	const n = 100_000
	for _, pct := range []int{1, 100} {
		b.Run(fmt.Sprintf("rewritten=%d%%", pct), func(b *testing.B) {
			var perItem float64
			for b.Loop() {
				tbl := fillTable(b, schemaS, n, 1)
				if err := tbl.AddIndex(emailIndex); err != nil {
					b.Fatal(err)
				}
				heap := func() uint64 {
					var m runtime.MemStats
					runtime.GC()
					runtime.ReadMemStats(&m)
					return m.HeapAlloc
				}
				snap := tbl.Snapshot()
				for i := range n * pct / 100 {
					it := benchItem(b, schemaS, (i*7919)%n, 0)
					it["status"] = S("paused")
					put(b, tbl, it)
				}
				withSnap := heap()
				runtime.KeepAlive(snap)
				snap = nil
				without := heap()
				perItem = (float64(withSnap) - float64(without)) / n
				runtime.KeepAlive(tbl)
			}
			b.ReportMetric(perItem, "snapshot-bytes/item")
		})
	}
}
