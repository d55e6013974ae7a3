package main

import (
	"log/slog"
	"runtime/debug"
	"runtime/metrics"
)

// returnMemory collects and hands the heap's free pages back to the
// operating system, and logs the heap before and after.
func returnMemory(log *slog.Logger, why string) {
	before := heapInUse()
	debug.FreeOSMemory()
	log.Info("memory returned to the operating system", "why", why, "heap_in_use_before", before, "heap_in_use", heapInUse())
}

// heapInUse is the heap's bytes in spans in use (live objects, garbage
// not yet swept and the spans' free slots).
func heapInUse() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64() + s[1].Value.Uint64()
}
