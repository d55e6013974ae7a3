package main

import (
	"os/exec"
	"runtime"
	"syscall"
)

// endWithParent makes cmd's process get SIGTERM when this one dies, even
// by SIGKILL, which no handler sees (the parent-death signal): a
// recorder outliving its wrapper would keep serving its port. The kernel
// sends it when the thread that started the child exits, so the caller
// keeps its goroutine on its thread until the child ends (the returned
// func undoes it).
func endWithParent(cmd *exec.Cmd) func() {
	runtime.LockOSThread()
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	return runtime.UnlockOSThread
}
