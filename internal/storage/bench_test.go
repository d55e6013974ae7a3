package storage

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// benchItemSize is the DynamoDB size of the items the benchmarks store.
const benchItemSize = 240

// benchItem returns a 10-attribute item of exactly benchItemSize bytes with
// partition key "user#<p>" and, when ks has one, numeric sort key s.
func benchItem(tb testing.TB, ks KeySchema, p, s int) Item {
	it := Item{"pk": S(fmt.Sprintf("user#%07d", p))}
	if ks.HasSort() {
		it["sk"] = N(Number(fmt.Sprint(s)))
	}
	it["status"] = S("active")
	it["count"] = N(Number(fmt.Sprint(p*31 + s)))
	it["price"] = N("1234.5")
	it["flag"] = Bool(s%2 == 0)
	it["tags"] = SS([]string{"red", "green"})
	it["email"] = S(fmt.Sprintf("someone.%d@example.com", p))
	for i := 0; len(it) < 10; i++ {
		it[fmt.Sprint("f", i)] = S("")
	}
	pad := benchItemSize - ItemSize(it)
	if pad < 0 {
		tb.Fatalf("bench item already %d bytes", ItemSize(it))
	}
	it["f0"] = S(strings.Repeat("x", pad))
	if got := ItemSize(it); got != benchItemSize || len(it) != 10 {
		tb.Fatalf("bench item is %d bytes, %d attributes", got, len(it))
	}
	return it
}

// fillTable stores n bench items, perPartition to a partition.
func fillTable(tb testing.TB, ks KeySchema, n, perPartition int) *Table {
	tbl := newTable(tb, ks)
	for i := range n {
		put(tb, tbl, benchItem(tb, ks, i/perPartition, i%perPartition))
	}
	return tbl
}

// BenchmarkMemory stores 100k items of 240 bytes and reports the live heap
// per stored item.
func BenchmarkMemory(b *testing.B) {
	const n = 100_000
	for _, bc := range []struct {
		name         string
		ks           KeySchema
		perPartition int
	}{
		{"hash-only", schemaS, 1},
		{"composite/100-per-partition", schemaSN, 100},
		{"composite/1-per-partition", schemaSN, 1},
	} {
		b.Run(bc.name, func(b *testing.B) {
			items := make([]Item, n)
			for i := range items {
				items[i] = benchItem(b, bc.ks, i/bc.perPartition, i%bc.perPartition)
			}
			var perItem float64
			for b.Loop() {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				tbl := newTable(b, bc.ks)
				for _, it := range items {
					put(b, tbl, it)
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				perItem = float64(after.HeapAlloc-before.HeapAlloc) / n
				runtime.KeepAlive(tbl)
			}
			runtime.KeepAlive(items)
			b.ReportMetric(perItem, "bytes/item")
		})
	}
	// The baseline the encoding is measured against: each item kept as a
	// map of Values, with no index at all.
	b.Run("baseline-map-of-values", func(b *testing.B) {
		var perItem float64
		for b.Loop() {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			items := make([]Item, n)
			for i := range items {
				items[i] = benchItem(b, schemaS, i, 0)
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			perItem = float64(after.HeapAlloc-before.HeapAlloc) / n
			runtime.KeepAlive(items)
		}
		b.ReportMetric(perItem, "bytes/item")
	})
}

var benchSizes = []int{1_000, 10_000, 100_000}

func BenchmarkPut(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			tbl := fillTable(b, schemaSN, n, 100)
			items := make([]Item, 1024)
			for i := range items {
				items[i] = benchItem(b, schemaSN, (i*7919)%n/100, i%100) // replaces
			}
			i := 0
			for b.Loop() {
				put(b, tbl, items[i%len(items)])
				i++
			}
		})
	}
}

func BenchmarkGet(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			tbl := fillTable(b, schemaSN, n, 100)
			keys := make([]Key, 1024)
			for i := range keys {
				keys[i] = schemaSN.KeyOf(benchItem(b, schemaSN, (i*7919)%n/100, i%100))
			}
			i := 0
			for b.Loop() {
				if _, ok := tbl.Get(keys[i%len(keys)]); !ok {
					b.Fatal("missing")
				}
				i++
			}
		})
	}
}

// BenchmarkQuery reads a whole partition of the given size, forwards.
func BenchmarkQuery(b *testing.B) {
	for _, per := range []int{10, 100, 1000} {
		b.Run(fmt.Sprint(per), func(b *testing.B) {
			tbl := fillTable(b, schemaSN, 100*per, per)
			pk := S(fmt.Sprintf("user#%07d", 42))
			for b.Loop() {
				n := 0
				tbl.Query(QueryRange{Partition: pk, Forward: true}, func(Key, Item) bool { n++; return true })
				if n != per {
					b.Fatalf("got %d items", n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*per), "ns/item")
		})
	}
}

// BenchmarkScanPage reads one 100-item page of a scan that resumes after a
// key in the middle of the table.
func BenchmarkScanPage(b *testing.B) {
	const pageSize = 100
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			tbl := fillTable(b, schemaSN, n, 10)
			start := schemaSN.KeyOf(benchItem(b, schemaSN, n/20, 5))
			for b.Loop() {
				got := 0
				tbl.Scan(ScanRange{ExclusiveStart: &start}, func(Key, Item) bool { got++; return got < pageSize })
				if got != pageSize {
					b.Fatalf("got %d items", got)
				}
			}
		})
	}
}

// BenchmarkPutBlind is BenchmarkPut through Put, which does not decode the
// item it replaces.
func BenchmarkPutBlind(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			tbl := fillTable(b, schemaSN, n, 100)
			items := make([]Item, 1024)
			for i := range items {
				items[i] = benchItem(b, schemaSN, (i*7919)%n/100, i%100) // replaces
			}
			i := 0
			for b.Loop() {
				it := items[i%len(items)]
				if _, err := tbl.Put(schemaSN.KeyOf(it), it); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkGetEncoded is BenchmarkGet through GetEncoded, reading every
// attribute with an ItemReader instead of decoding.
func BenchmarkGetEncoded(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			tbl := fillTable(b, schemaSN, n, 100)
			keys := make([]Key, 1024)
			for i := range keys {
				keys[i] = schemaSN.KeyOf(benchItem(b, schemaSN, (i*7919)%n/100, i%100))
			}
			i := 0
			for b.Loop() {
				e, ok := tbl.GetEncoded(keys[i%len(keys)])
				if !ok {
					b.Fatal("missing")
				}
				r := e.Reader()
				for {
					if _, ok := r.Next(); !ok {
						break
					}
					r.Skip()
				}
				i++
			}
		})
	}
}
