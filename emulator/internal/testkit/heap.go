package testkit

import (
	"runtime"
	"runtime/metrics"
	"time"
)

// LiveHeap returns the bytes of the live heap after two collections (the
// second frees what finalizers of the first released): what a test of
// memory held compares before and after.
func LiveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// GoMapped is the memory the Go runtime holds from the operating system
// (every class of its memory but the heap it has released): the part of
// the process's RSS that Go code controls.
func GoMapped() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64() - s[1].Value.Uint64()
}

// PeakMapped samples GoMapped until stop is closed and returns the highest.
func PeakMapped(stop <-chan struct{}) <-chan uint64 {
	out := make(chan uint64, 1)
	go func() {
		peak := GoMapped()
		for {
			select {
			case <-stop:
				out <- max(peak, GoMapped())
				return
			default:
			}
			peak = max(peak, GoMapped())
			time.Sleep(time.Millisecond)
		}
	}()
	return out
}
