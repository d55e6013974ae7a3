package storage

import (
	"testing"
)

// keeper is an Observer that keeps every write, as a stream does, in
// chunks (no copying as it grows).
type keeper struct{ chunks [][]Committed }

func (k *keeper) Observe(w Committed) {
	last := len(k.chunks) - 1
	if last < 0 || len(k.chunks[last]) == cap(k.chunks[last]) {
		k.chunks = append(k.chunks, make([]Committed, 0, 4096))
		last++
	}
	k.chunks[last] = append(k.chunks[last], w)
}

// BenchmarkPutObserved: Put replacing items of a 10k-item table with
// another version (every write changes its item), without an observer and
// with one that keeps every write's records.
func BenchmarkPutObserved(b *testing.B) {
	for _, observed := range []bool{false, true} {
		name := "none"
		if observed {
			name = "keeping"
		}
		b.Run(name, func(b *testing.B) {
			const n = 10000
			tbl := fillTable(b, schemaSN, n, 100)
			if observed {
				tbl.SetObserver(&keeper{})
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
