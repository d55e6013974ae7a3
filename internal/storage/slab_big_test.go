package storage

import (
	"fmt"
	"strings"
	"testing"
)

// TestSlabRecordLargerThanChunk: a record larger than the next chunk
// size (the first chunks are 1 KiB) gets a chunk of its own size; it used
// to be appended past the chunk's capacity, moving out of the chunk and
// counted live there for good.
func TestSlabRecordLargerThanChunk(t *testing.T) {
	for _, n := range []int{1000, 1500, 5000} {
		tbl := newTable(t, KeySchema{Partition: KeyAttr{"pk", KindS}})
		for i := range 200 {
			pk := fmt.Sprint("k", i%7)
			it := Item{"pk": S(pk), "pad": S(strings.Repeat("x", n)), "i": S(fmt.Sprint(i))}
			if _, err := tbl.Put(Key{Partition: S(pk)}, it); err != nil {
				t.Fatal(err)
			}
		}
	}
}
