package storage

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkReplayLog: loading a log of 100,000 items written 25 to a
// commit into a table with a GSI (the items and the index of
// cmd/dynamoemu's Restart benchmark), as persist loads a long log after
// kill -9: each record parsed (ParseRecordInto) and replayed (DB.Replay)
// with the index entries deferred, then filled (DB.FillIndexes). Per op;
// replay-cpu-ms and fill-cpu-ms are the process's CPU time in each part,
// steadier than the time on a machine shared with other work.
func BenchmarkReplayLog(b *testing.B) {
	const n, batch = 100_000, 25
	ks := KeySchema{Partition: KeyAttr{Name: "pk", Kind: KindS}}
	def := TableDef{Name: "t", ID: "t", Schema: ks, Indexes: []IndexDef{{Name: "byCity",
		Schema:     IndexSchema{Partition: []KeyAttr{{Name: "city", Kind: KindS}}, Sort: []KeyAttr{{Name: "pk", Kind: KindS}}},
		Projection: Projection{All: true}}}}
	h := &recHook{}
	src := newDB(b, h)
	tb, err := src.CreateTable(def)
	if err != nil {
		b.Fatal(err)
	}
	bio := strings.Repeat("lorem ipsum ", 8)
	for i := 0; i < n; i += batch {
		tx := Begin(tb)
		for j := i; j < i+batch; j++ {
			it := Item{"pk": S(fmt.Sprintf("user#%09d", j)), "name": S(fmt.Sprintf("Name %09d Surname", j)),
				"email": S(fmt.Sprintf("user%09d@example.com", j)), "city": S(fmt.Sprintf("city-%03d", j%500)),
				"age": N(MustNumber(fmt.Sprint(18 + j%60))), "balance": N(MustNumber(fmt.Sprintf("%d.%02d", j%100000, j%100))),
				"active": Bool(j%3 == 0), "bio": S(bio)}
			if _, err := tx.Put(tb, ks.KeyOf(it), it); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	var replay, fill int64
	for b.Loop() {
		db := newDB(b, nil)
		db.DeferIndexes()
		c0 := cpuTime()
		var r Record
		for _, rec := range h.log {
			if err := ParseRecordInto(rec, &r); err != nil {
				b.Fatal(err)
			}
			if err := db.Replay(&r); err != nil {
				b.Fatal(err)
			}
		}
		c1 := cpuTime()
		db.FillIndexes()
		fill += cpuTime() - c1
		replay += c1 - c0
		if c, _, _ := db.Table("t").IndexStats("byCity"); c != n {
			b.Fatalf("%d index entries, want %d", c, n)
		}
	}
	b.ReportMetric(float64(replay)/1e6/float64(b.N), "replay-cpu-ms/op")
	b.ReportMetric(float64(fill)/1e6/float64(b.N), "fill-cpu-ms/op")
}
