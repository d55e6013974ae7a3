//go:build !race

package testkit

// RaceEnabled: the tests run with the race detector, which makes large
// requests many times slower.
const RaceEnabled = false
