package storage

import (
	"syscall"
	"unsafe"
)

// madvPopulateWrite is Linux's MADV_POPULATE_WRITE (5.14+).
const madvPopulateWrite = 23

// populate asks the kernel to back buf's memory at once, in one call,
// instead of one page fault per page as records are first written to it.
// Errors (an older kernel) are ignored: the pages then fault in as before.
func populate(buf []byte) {
	if cap(buf) < populateMin {
		return
	}
	p := unsafe.Pointer(unsafe.SliceData(buf[:cap(buf)]))
	syscall.Syscall(syscall.SYS_MADVISE, uintptr(p), uintptr(cap(buf)), madvPopulateWrite)
}

// populateMin is the smallest chunk populated at once.
const populateMin = 64 << 10
