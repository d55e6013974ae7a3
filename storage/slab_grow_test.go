package storage

import (
	"strings"
	"testing"
)

// TestSlabRecordLargerThanChunk stores records larger than the next
// chunk but small enough for the slab: each must start a chunk that holds
// it (appending it to a smaller one would move the chunk's memory, so its
// record would be counted nowhere and never released).
func TestSlabRecordLargerThanChunk(t *testing.T) {
	for _, size := range []int{slabFirstChunk - 10, slabFirstChunk + 30, 3 * slabFirstChunk, slabMaxRecord - 100} {
		tbl := NewTable(schemaS)
		for i := range 3 {
			put(t, tbl, Item{"pk": S("p"), "a": S(strings.Repeat("x", size+i))})
			put(t, tbl, Item{"pk": S("q"), "a": S("small")})
		}
		checkTable(t, tbl)
	}
}
