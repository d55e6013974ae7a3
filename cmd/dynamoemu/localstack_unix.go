//go:build unix

package main

import (
	"errors"
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, whose id is its pid,
// and makes its context's end kill the whole group: the script and what
// it started.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// signalGroup sends SIGTERM (or SIGKILL) to process group g; it reports
// whether the group had a process to send it to.
func signalGroup(g int, kill bool) bool {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	return !errors.Is(syscall.Kill(-g, sig), syscall.ESRCH)
}

// groupAlive reports whether process group g has a process left.
func groupAlive(g int) bool {
	return !errors.Is(syscall.Kill(-g, 0), syscall.ESRCH)
}
