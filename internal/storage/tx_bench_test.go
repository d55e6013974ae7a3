package storage

import (
	"fmt"
	"testing"
)

// BenchmarkWriteTx commits transactions of n blind puts spread over two
// tables of 10,000 items each (replacing items), swept by n; ns/op is per
// transaction. BenchmarkPutBlind/10000 is the same put outside a
// transaction. BenchmarkWriteTxAbort is the same work undone.
func BenchmarkWriteTx(b *testing.B)      { benchWriteTx(b, true) }
func BenchmarkWriteTxAbort(b *testing.B) { benchWriteTx(b, false) }

func benchWriteTx(b *testing.B, commit bool) {
	const size = 10_000
	tables := []*Table{fillTable(b, schemaSN, size, 100), fillTable(b, schemaSN, size, 100)}
	items := make([]Item, 1024)
	for i := range items {
		items[i] = benchItem(b, schemaSN, (i*7919)%size/100, i%100)
	}
	for _, n := range []int{1, 10, 100} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			i := 0
			for b.Loop() {
				tx := Begin(tables...)
				for j := range n {
					it := items[(i+j)%len(items)]
					if _, err := tx.Put(tables[j%2], schemaSN.KeyOf(it), it); err != nil {
						b.Fatal(err)
					}
				}
				if commit {
					mustCommit(b, tx)
				} else {
					tx.Abort()
				}
				i += n
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/item")
		})
	}
}
