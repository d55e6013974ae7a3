package storage

import (
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPopulate backs chunks of several sizes (below the minimum, at it,
// larger, and one whose size is not a whole number of pages) and checks
// they read as zero and take every byte written: populating changes no
// content.
func TestPopulate(t *testing.T) {
	for _, size := range []int{1 << 10, populateMin, slabMaxChunk, slabMaxChunk + 123} {
		buf := make([]byte, 0, size)
		populateSlice(buf)
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

// TestKeyChunk adds keys of many sizes, some larger than a chunk, and
// checks each string add returned still holds its key after every other
// was added: a chunk's bytes, once handed out, are never written again.
func TestKeyChunk(t *testing.T) {
	var c keyChunk
	var keys, got []string
	for i := range 20000 {
		n := i % 300
		if i%5000 == 0 {
			n = indexFillKeyChunk + i // larger than any chunk
		}
		key := make([]byte, n)
		for j := range key {
			key[j] = byte(i + j)
		}
		keys = append(keys, string(key))
		got = append(got, c.add(key))
		clear(key) // the caller's bytes are not kept
	}
	for i := range keys {
		require.Equal(t, keys[i], got[i], "key %d", i)
	}
}

// BenchmarkFreshMemory writes 64 MB into memory the process has not
// touched yet, in pieces of a slab's largest chunk, each backed by the
// kernel at once (populated) or a page fault per page as it is first
// written (faulted): what a load pays for the memory it fills. Before
// each round the memory of the last is given back to the kernel.
func BenchmarkFreshMemory(b *testing.B) {
	const total, piece = 64 << 20, slabMaxChunk
	src := make([]byte, piece)
	for i := range src {
		src[i] = byte(i)
	}
	for _, populated := range []bool{false, true} {
		name := map[bool]string{false: "faulted", true: "populated"}[populated]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(total)
			var keep [][]byte
			for b.Loop() {
				b.StopTimer()
				keep = nil
				debug.FreeOSMemory()
				b.StartTimer()
				for range total / piece {
					c := make([]byte, piece)
					if populated {
						populateSlice(c)
					}
					copy(c, src)
					keep = append(keep, c)
				}
			}
			runtime.KeepAlive(keep)
		})
	}
}
