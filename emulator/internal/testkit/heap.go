package testkit

import "runtime"

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
