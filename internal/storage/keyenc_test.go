package storage

import "testing"

func TestSegmentRange(t *testing.T) {
	for _, total := range []int{2, 3, 7, 1000, 1000000} {
		next := uint64(0)
		for seg := 0; seg < total; seg++ {
			lo, hi, ok := segmentRange(seg, total)
			if !ok || lo != next || hi <= lo {
				t.Fatalf("segmentRange(%d, %d) = %d, %d, %v; want to start at %d", seg, total, lo, hi, ok, next)
			}
			for _, h := range []uint64{lo, hi - 1} {
				if got := int(h * uint64(total) >> 32); got != seg {
					t.Fatalf("hash %d of segment %d/%d maps to %d", h, seg, total, got)
				}
			}
			next = hi
		}
		if next != 1<<32 {
			t.Fatalf("segments of %d end at %d", total, next)
		}
	}
}
