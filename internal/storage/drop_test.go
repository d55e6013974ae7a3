package storage

import (
	"runtime"
	"testing"
)

// TestDropTableFreesMemory fills a table of a DB (with an index and
// tracked collections) and drops it: once the caller lets go of the
// table, the live heap is back where it was, so nothing of storage's
// (slab chunks, partitions, the hash table, index entries) holds on to
// a dropped table's memory.
func TestDropTableFreesMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("fills 100k items")
	}
	db := newDB(t, nil)
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tbl, err := db.CreateTable(TableDef{Name: "big", ID: "id-big", Schema: schemaSN, Indexes: []IndexDef{scaleGSI}})
	if err != nil {
		t.Fatal(err)
	}
	tbl.TrackCollections(nil, 0)
	const n = 100_000
	for i := range n {
		it := scaleItem(schemaSN, i/10, i%10)
		if _, err := tbl.Put(schemaSN.KeyOf(it), it); err != nil {
			t.Fatal(err)
		}
	}
	var full runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&full)
	if err := db.DropTable("big"); err != nil {
		t.Fatal(err)
	}
	tbl = nil
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	grew := int64(full.HeapAlloc) - int64(before.HeapAlloc)
	left := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("the table took %d bytes of heap; %d are left after the drop", grew, left)
	if grew < n*200 {
		t.Fatalf("the table took only %d bytes: the test measures nothing", grew)
	}
	if left > grew/100 {
		t.Fatalf("%d of the table's %d bytes of heap are still live after the drop", left, grew)
	}
	runtime.KeepAlive(db)
}
