package storage

import (
	"strconv"
	"testing"
)

// BenchmarkKeySame checks 25 keys pairwise for a duplicate, as a
// BatchWriteItem of 25 puts does: with Same and with ==.
func BenchmarkKeySame(b *testing.B) {
	keys := make([]Key, 25)
	for i := range keys {
		keys[i] = Key{Partition: S("user#" + strconv.Itoa(1000+i)), Sort: S("item")}
	}
	b.Run("Same", func(b *testing.B) {
		for b.Loop() {
			for i := range keys {
				for j := range i {
					if keys[j].Same(&keys[i]) {
						b.Fatal("duplicate")
					}
				}
			}
		}
	})
	b.Run("==", func(b *testing.B) {
		for b.Loop() {
			for i := range keys {
				for j := range i {
					if keys[j] == keys[i] {
						b.Fatal("duplicate")
					}
				}
			}
		}
	})
}
