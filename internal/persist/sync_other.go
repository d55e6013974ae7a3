//go:build !linux

package persist

import "os"

// datasync is fsync where fdatasync is not offered.
func datasync(f *os.File) error { return f.Sync() }

// freeBytes cannot tell the free space here: compaction does not check
// it (space.go).
func freeBytes(string) (int64, bool) { return 0, false }
