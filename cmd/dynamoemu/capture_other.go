//go:build !linux

package main

import "os/exec"

// endWithParent does nothing where there is no parent-death signal: a
// signal the parent gets is passed on (runCapture), SIGKILL is not.
func endWithParent(*exec.Cmd) func() { return func() {} }
