//go:build !amd64

package storage

import "unsafe"

// prefetchLines does nothing where there is no assembly for it
// (prefetch_amd64.s): the reads it would start early run when they come.
func prefetchLines(p unsafe.Pointer, n uintptr) {}
