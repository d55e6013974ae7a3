package apiserve

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// The soft memory limit kept from the budget. The budget bounds what
// requests hold; the collector's lag is beside it: a heap grows to twice
// its live bytes between collections (GOGC), so 64 compressed bodies
// inflating 10 MB each under 256 MiB, their live bytes within the
// budget, took the heap 711-893 MB over its base. When nobody has set a
// memory limit (GOMEMLIMIT, debug.SetMemoryLimit), the first budget
// keeps one, reset after each collection: the memory the runtime counts
// beside the heap, the live heap, memSlack, and the part of the largest
// budget the requests do not hold now (the bytes charged, all the
// process's budgets together). The heap then peaks at about its live
// data outside requests, the budget and memSlack. A heap whose live
// bytes exceed memSlack and the budget's free part collects more often
// than GOGC alone would have it (a data set over 288 MiB under the
// default budget); a smaller one never meets the limit. Whoever sets a
// limit of their own after it takes over: it is kept no more.
var memKeep struct {
	once   sync.Once
	budget atomic.Int64 // the largest budget
	used   atomic.Int64 // bytes charged now, every budget's
	last   atomic.Int64 // the limit set last
}

// memSlack is the headroom of the heap over its live bytes and the
// budget's free part.
const memSlack = 32 << 20

// keepMemoryLimit starts keeping the memory limit for a budget of n
// bytes, unless a limit was set already.
func keepMemoryLimit(n int64) {
	for b := memKeep.budget.Load(); n > b && !memKeep.budget.CompareAndSwap(b, n); b = memKeep.budget.Load() {
	}
	memKeep.once.Do(func() {
		if debug.SetMemoryLimit(-1) != math.MaxInt64 {
			return // the operator's
		}
		memKeep.last.Store(math.MaxInt64)
		if setMemoryLimit() {
			afterGC()
		}
	})
}

// gcMark is collected by the first collection after it is made: its
// finalizer resets the limit and makes the next.
type gcMark struct{ _ *int }

func afterGC() {
	runtime.SetFinalizer(&gcMark{}, func(*gcMark) {
		if setMemoryLimit() {
			afterGC()
		}
	})
}

// memSamples are setMemoryLimit's, read by one goroutine at a time (the
// first budget's, then the finalizers'): no allocation each collection.
var memSamples = [...]metrics.Sample{
	{Name: "/gc/heap/live:bytes"},
	{Name: "/memory/classes/total:bytes"},
	{Name: "/memory/classes/heap/objects:bytes"},
	{Name: "/memory/classes/heap/free:bytes"},
	{Name: "/memory/classes/heap/released:bytes"},
}

// setMemoryLimit sets the limit from the last collection's live heap,
// and reports false when somebody else set one since.
func setMemoryLimit() bool {
	if debug.SetMemoryLimit(-1) != memKeep.last.Load() {
		return false
	}
	s := memSamples[:]
	metrics.Read(s)
	for _, v := range s {
		if v.Value.Kind() != metrics.KindUint64 {
			return false
		}
	}
	live := int64(s[0].Value.Uint64())
	beside := int64(s[1].Value.Uint64() - s[2].Value.Uint64() - s[3].Value.Uint64() - s[4].Value.Uint64())
	free := max(0, memKeep.budget.Load()-min(memKeep.used.Load(), live))
	limit := beside + live + memSlack + free
	debug.SetMemoryLimit(limit)
	memKeep.last.Store(limit)
	return true
}
