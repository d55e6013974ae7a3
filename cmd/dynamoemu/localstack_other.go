//go:build !unix

package main

import "os/exec"

// ownGroup: without Unix process groups, a script's context ends the
// script alone (exec's default), and what it started runs on.
func ownGroup(*exec.Cmd) {}

// signalGroup has no group to signal.
func signalGroup(int, bool) bool { return false }

// groupAlive: no group is known.
func groupAlive(int) bool { return false }
