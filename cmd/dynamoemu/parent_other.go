//go:build !unix

package main

import (
	"os"
	"sync/atomic"
)

// parentGone returns a check of whether process pid is gone: on Windows
// FindProcess holds a handle of the process, whose Wait returns once it
// has exited; a process not found is gone already.
func parentGone(pid int) func() bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return func() bool { return true }
	}
	var gone atomic.Bool
	go func() {
		p.Wait()
		gone.Store(true)
	}()
	return gone.Load
}
