package storage

import "unsafe"

// prefetchLines asks for the cache lines of [p, p+n), at least the first,
// to be loaded (prefetch.go), and returns at once.
//
//go:noescape
func prefetchLines(p unsafe.Pointer, n uintptr)
