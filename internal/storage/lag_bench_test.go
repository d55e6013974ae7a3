package storage

import (
	"fmt"
	"testing"
)

// BenchmarkLagPut: a Put to a table with one GSI, without a lag, with
// the GSI lagged (its changes queued, applied by a read every 64 writes),
// with the GSI's lag lagging nothing (idle: writes pass to the tree) and
// with the table's eventually consistent reads lagged (likewise).
func BenchmarkLagPut(b *testing.B) {
	for _, mode := range []string{"off", "index", "idle", "reads"} {
		b.Run(mode, func(b *testing.B) {
			tbl := newTable(b, KeySchema{Partition: KeyAttr{"pk", KindS}})
			if err := tbl.AddIndex(IndexDef{Name: "byG", Schema: IndexSchema{Partition: []KeyAttr{{"g", KindS}}}, Projection: Projection{All: true}}); err != nil {
				b.Fatal(err)
			}
			l := &testLag{}
			switch mode {
			case "index":
				_ = tbl.SetIndexLag("byG", l)
			case "idle":
				_ = tbl.SetIndexLag("byG", &idleLag{})
			case "reads":
				tbl.SetReadLag(l)
			}
			// Two versions of each item, written in turn: every Put changes it.
			keys := make([]Key, 1024)
			items := make([]Item, 2048)
			for i := range keys {
				pk := fmt.Sprint("k", i)
				keys[i] = Key{Partition: S(pk)}
				items[i] = Item{"pk": S(pk), "g": S(fmt.Sprint("g", i%16)), "v": S("some value")}
				items[1024+i] = Item{"pk": S(pk), "g": S(fmt.Sprint("g", (i+1)%16)), "v": S("another value")}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if _, err := tbl.Put(keys[i%1024], items[i%2048]); err != nil {
					b.Fatal(err)
				}
				if i%64 == 63 {
					l.release()
					switch mode {
					case "index":
						_, _, _ = tbl.IndexStats("byG")
					case "reads":
						tbl.Eventual()
					}
				}
			}
		})
	}
}
