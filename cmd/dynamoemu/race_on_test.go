//go:build race

package main

// raceEnabled: this test binary, and so the child server it runs, is
// built with the race detector, whose shadow memory makes the server's
// RSS say nothing of its own.
const raceEnabled = true
