//go:build !race

package emulator

// raceEnabled: the tests run with the race detector, which makes large
// requests many times slower.
const raceEnabled = false
