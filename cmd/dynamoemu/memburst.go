package main

import (
	"context"
	"log/slog"
	"math"
	"runtime/metrics"
	"time"
)

// Returning memory after a burst. A bulk load (a seed script's
// BatchWriteItems) leaves the process holding more than its live heap:
// the garbage of the load's requests, and the pages the heap grew to
// (its growth target is twice the live heap) that the Go runtime's
// scavenger hands back only over minutes. returnAfterBurst watches the
// runtime's counters once a second and, when the process has allocated a
// burst since the last return and then gone quiet, collects and hands the
// free pages back at once (debug.FreeOSMemory), as a DeleteTable's freed
// items are (apiserve.Releaser). A steady workload is never interrupted:
// the return waits for quiet; an idle server is never collected twice
// without a burst between; with the collector off (GOGC=off) nothing is
// collected.
const (
	// returnEvery is how often the counters are read.
	returnEvery = time.Second
	// quietBytes: a second in which the process allocates less than
	// this is quiet. An idle server allocates almost nothing; a client
	// sending requests one after the other, megabytes a second.
	quietBytes = 1 << 20
	// quietTicks: this many quiet seconds in a row end a burst.
	quietTicks = 2
	// burstBytes is the least allocated since the last return that is a
	// burst; a quarter of the live heap when that is more, so that a
	// large heap is collected at most once per quarter of itself
	// allocated (the runtime collects once per heap allocated).
	burstBytes = 64 << 20
	// returnableBytes is the least worth a collection: free heap pages
	// and garbage (what the last collection did not find live); a
	// thirty-second of the live heap when that is more. A sixteenth
	// was too much for a large heap loaded under the memory limit: a
	// 10M-item load (3 GB live) left 130 MB (13 B an item, 4%), under
	// its 190 MB, so the process kept 323 resident B/item instead of 310.
	returnableBytes = 16 << 20
)

// memoryCounters are the runtime's counters returnAfterBurst reads.
var memoryCounters = []string{
	"/gc/heap/allocs:bytes",              // allocated since the start
	"/gc/heap/live:bytes",                // live at the last collection
	"/memory/classes/heap/objects:bytes", // live and dead objects
	"/memory/classes/heap/free:bytes",    // free pages not yet returned
	"/gc/gogc:percent",                   // all ones: the collector is off (GOGC=off)
}

// burstWatch decides when a burst is over (tick), given the counters.
// Its zero value counts from the process's start, so that the loading of
// a -dbPath before the first tick is a burst too.
type burstWatch struct {
	last     uint64 // allocated at the last tick
	returned uint64 // allocated at the last return
	quiet    int    // quiet ticks in a row
}

// tick reads one second's counters and reports whether to return memory
// now.
func (w *burstWatch) tick(allocs, live, objects, free uint64) bool {
	recent := allocs - w.last
	w.last = allocs
	if recent >= quietBytes {
		w.quiet = 0
		return false
	}
	w.quiet++
	if w.quiet < quietTicks || allocs-w.returned < max(burstBytes, live/4) {
		return false
	}
	garbage := uint64(0)
	if objects > live {
		garbage = objects - live
	}
	if garbage+free < max(returnableBytes, live/32) {
		return false
	}
	w.returned = allocs
	return true
}

// returnAfterBurst runs the watch until ctx ends.
func returnAfterBurst(ctx context.Context, log *slog.Logger) {
	samples := make([]metrics.Sample, len(memoryCounters))
	for i, name := range memoryCounters {
		samples[i].Name = name
	}
	read := func() (v [5]uint64, ok bool) {
		metrics.Read(samples)
		for i, s := range samples {
			if s.Value.Kind() != metrics.KindUint64 {
				return v, false
			}
			v[i] = s.Value.Uint64()
		}
		return v, true
	}
	var w burstWatch
	t := time.NewTicker(returnEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		v, ok := read()
		if !ok {
			return
		}
		if v[4] == math.MaxUint64 {
			continue // a return is a collection, which GOGC=off says not to make
		}
		if w.tick(v[0], v[1], v[2], v[3]) {
			returnMemory(log, "a burst of work ended")
		}
	}
}
