package storage

import (
	"fmt"
	"testing"
)

// BenchmarkTableBuilder: building a table of n partitions of 10 items
// each from its images in scan order (a snapshot file being loaded), per
// op; and a check that every partition of the table built is found.
func BenchmarkTableBuilder(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("partitions=%d", n), func(b *testing.B) {
			src := newTable(b, schemaSN)
			for p := range n {
				for s := range 10 {
					it := Item{"pk": S(fmt.Sprintf("user#%07d", p)), "sk": N(Number(fmt.Sprint(s))), "v": S("x")}
					if _, err := src.Put(schemaSN.KeyOf(it), it); err != nil {
						b.Fatal(err)
					}
				}
			}
			var items []EncodedItem
			src.ScanEncoded(ScanRange{}, func(e EncodedItem) bool { items = append(items, e); return true })
			def := TableDef{Name: "t", ID: "t", Schema: schemaSN}
			var built *TableSnapshot
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
			for p := range n {
				k := Key{Partition: S(fmt.Sprintf("user#%07d", p)), Sort: N("9")}
				if _, ok := built.GetEncoded(k); !ok {
					b.Fatalf("partition %d not found in the table built", p)
				}
			}
		})
	}
}
