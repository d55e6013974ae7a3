package storage

import (
	"sync/atomic"
	"unsafe"
)

// Prefetching. In a table of millions of items nearly every read of a
// partition, an item's record or an index entry's key is a cache miss
// and a TLB miss: about 0.4-0.5 µs each on the VM the scale
// benchmarks were measured on, against 20 ns for a working set of a
// few MB. A lookup is a chain of such reads, each address read from the one before, so they cannot
// overlap; but where the next few addresses are known at once (the lines
// of a partition's sorted slice, the lines of a record, the records of
// the next entries of a Query), asking for all of them first lets their
// misses overlap, and the reads that follow find them in cache. A
// prefetch is a hint: it neither faults nor waits, and a wrong one costs
// only the bandwidth of the lines it loads.
//
// Through the handler at 1M items, prefetching on against off (medians
// of 8 interleaved rounds of CPU time, a machine shared and loaded, the
// rounds spread by a third either way): Query 29.3 -> 26.2 µs (-11%),
// PutItemChanged 21.2 -> 19.0 (-10%), IndexQuery 29.5 -> 27.6 (-6%),
// GetItem 8.6 -> 8.2 (-5%), PutItem 13.3 -> 14.1 (+6%, within the
// spread). DYNAMOEMU_SCALE_SIZES=1000000 DYNAMOEMU_SCALE_ROUNDS=4
// DYNAMOEMU_SCALE_PREFETCH_AB=1 go test ./emulator/internal/benchmarks
// -run '^$' -bench ScaleHandler -benchtime 20000x, twice.

// noPrefetch turns prefetching off, for measuring what it gains
// (SetPrefetching).
var noPrefetch atomic.Bool

// SetPrefetching turns the prefetching of reads on (the default) or off
// in the whole process; it is there for benchmarks that measure what
// prefetching gains (BenchmarkScaleHandler's DYNAMOEMU_SCALE_PREFETCH_AB),
// and changes no answer.
func SetPrefetching(on bool) { noPrefetch.Store(!on) }

// prefetchMax bounds the bytes one prefetch asks for: past a few lines
// more, a read that goes on through an object finds the hardware
// prefetcher ahead of it.
const prefetchMax = 256

// prefetchString asks for the first prefetchMax bytes of s.
func prefetchString(s string) {
	if len(s) == 0 || noPrefetch.Load() {
		return
	}
	prefetchLines(unsafe.Pointer(unsafe.StringData(s)), uintptr(min(len(s), prefetchMax)))
}

// partPrefetch is how much of a partition prefetchPart asks for: the
// partition, its ptree and a sorted slice of up to 13 entries when they
// are one allocation (partWithSentries).
const partPrefetch = 384

// prefetchPart asks for the first partPrefetch bytes at p, the moment
// its address is read from its slot: the partition's fields and the
// lines of its entries' slice arrive together rather than one after the
// other (the slice's address is read from the first). Past a small
// partition's own allocation it only loads lines of other objects.
func prefetchPart(p *partition) {
	if p == nil || noPrefetch.Load() {
		return
	}
	prefetchLines(unsafe.Pointer(p), partPrefetch)
}
