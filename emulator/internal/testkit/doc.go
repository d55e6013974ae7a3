// Package testkit is what the emulator's tests share, so that no package
// of tests defines its own: the one way to send a request (Do, given an
// http.Handler: the Emulator's, or the service's test handler), the
// Authorization headers (DefaultAuth, Auth, Credential), reading answers
// (ErrorType, ErrorOf, JSONEqual, MustUnmarshal), sizing heavy tests
// (FullSize, RaceEnabled), catching hangs (WaitOrDump), a clock only the
// test moves (Clock), the live heap (LiveHeap) and fixtures (Item240).
//
// # Files
//
//   - http.go: Do and the Authorization headers.
//   - json.go: reading answers.
//   - size.go, race_on.go, race_off.go: FullSize and RaceEnabled.
//   - hang.go: WaitOrDump.
//   - clock.go: Clock.
//   - heap.go: LiveHeap.
//   - fixtures.go: items.
//
// Each test package keeps its harness in harness_test.go: the Emulator
// with test-only operations for the edge's tests (package emulator), the
// Service behind a test handler and the per-subject fixtures (items,
// tables) for the service's (package service). Both send requests with
// Do.
//
// It is imported only by tests (the lint test's layer table keeps it
// below everything it serves).
package testkit
