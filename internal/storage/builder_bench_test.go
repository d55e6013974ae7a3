package storage

import (
	"fmt"
	"testing"
)

// BenchmarkTableBuilder: building a table of n partitions of 10 items
// each from its images in scan order (a snapshot file being loaded), per
// op, without and with a GSI (on an attribute of 500 values: the
// entries are sorted); and a check that every partition of the table
// built is found. cpu-ms/op is the process's CPU time per build (the
// GSI's filler runs on a goroutine of its own).
func BenchmarkTableBuilder(b *testing.B) {
	gsi := IndexDef{Name: "byCity", Schema: IndexSchema{Partition: []KeyAttr{{Name: "v", Kind: KindS}}, Sort: []KeyAttr{{Name: "pk", Kind: KindS}}}, Projection: Projection{All: true}}
	for _, c := range []struct {
		n       int
		indexes []IndexDef
	}{{10_000, nil}, {100_000, nil}, {100_000, []IndexDef{gsi}}} {
		n := c.n
		b.Run(fmt.Sprintf("partitions=%d/gsis=%d", n, len(c.indexes)), func(b *testing.B) {
			src := NewTable(schemaSN)
			for p := range n {
				for s := range 10 {
					it := Item{"pk": S(fmt.Sprintf("user#%07d", p)), "sk": N(Number(fmt.Sprint(s))), "v": S(fmt.Sprintf("city-%03d", (p*10+s)%500))}
					if _, err := src.Put(schemaSN.KeyOf(it), it); err != nil {
						b.Fatal(err)
					}
				}
			}
			var items []EncodedItem
			src.ScanEncoded(ScanRange{}, func(e EncodedItem) bool { items = append(items, e); return true })
			def := TableDef{Name: "t", ID: "t", Schema: schemaSN, Indexes: c.indexes}
			var built *TableSnapshot
			cpu := cpuTime()
			for b.Loop() {
				tb, err := NewTableBuilder(def)
				if err != nil {
					b.Fatal(err)
				}
				for _, e := range items {
					if err := tb.Add(e); err != nil {
						b.Fatal(err)
					}
				}
				if built, err = tb.Finish(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu)/1e6/float64(b.N), "cpu-ms/op")
			for p := range n {
				k := Key{Partition: S(fmt.Sprintf("user#%07d", p)), Sort: N("9")}
				if _, ok := built.GetEncoded(k); !ok {
					b.Fatalf("partition %d not found in the table built", p)
				}
			}
		})
	}
}
