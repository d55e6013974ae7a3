package storage

import "testing"

// TestPopulate backs chunks of several sizes (below the minimum, at it,
// larger, and one whose size is not a whole number of pages) and checks
// they read as zero and take every byte written: populating changes no
// content.
func TestPopulate(t *testing.T) {
	for _, size := range []int{1 << 10, populateMin, slabMaxChunk, slabMaxChunk + 123} {
		buf := make([]byte, 0, size)
		populate(buf)
		full := buf[:cap(buf)]
		for i, b := range full {
			if b != 0 {
				t.Fatalf("size %d: byte %d is %d after populate, want 0", size, i, b)
			}
			full[i] = byte(i)
		}
		for i, b := range full {
			if b != byte(i) {
				t.Fatalf("size %d: byte %d is %d, want %d", size, i, b, byte(i))
			}
		}
	}
}
