//go:build unix

package main

import (
	"errors"
	"os"
	"syscall"
)

// parentGone returns a check of whether process pid is gone. The parent
// itself is watched through getppid (a child whose parent died is handed
// to init or a subreaper): no pid reuse can fool it. Another process is
// asked with signal 0, which fails with ESRCH once it has exited and been
// reaped.
func parentGone(pid int) func() bool {
	if pid == os.Getppid() {
		return func() bool { return os.Getppid() != pid }
	}
	return func() bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }
}
