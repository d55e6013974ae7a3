// Package testkit is what the emulator's tests share, so that no package
// of tests defines its own: the one way to send a request (Do, given an
// http.Handler: the Emulator's, or the service's test handler), the
// Authorization headers (DefaultAuth, Auth, Credential), reading answers
// (ErrorType, ErrorOf, JSONEqual, MustUnmarshal), sizing heavy tests
// (FullSize, RaceEnabled), catching hangs (WaitOrDump; Deadlines, a
// deadline per request) and bounding the wait for one (Scaled, by
// DYNAMOEMU_TEST_TIMEOUT_SCALE), a clock only the
// test moves (Clock), the live heap (LiveHeap), fixtures (Item240), and
// the random workload and replay checks of the tests that prove the
// commit hook complete (RandomWrite, RandomCreateTable,
// RandomCatalogChange; Recorder, ReplaySeed, CompareNamespaces).
//
// # Files
//
//   - http.go: Do and the Authorization headers.
//   - json.go: reading answers.
//   - size.go, race_on.go, race_off.go: FullSize and RaceEnabled.
//   - hang.go: WaitOrDump.
//   - scale.go: Scaled.
//   - deadline.go: Deadlines, Stacks.
//   - clock.go: Clock.
//   - heap.go: LiveHeap.
//   - fixtures.go: items.
//   - largelists.go: requests of about 4 MB whose size is one list or
//     map member (LargeLists), for the memory tests and budgets.
//   - workload.go: random requests (writes through every write path,
//     tables, changes of every part of a definition).
//   - replay.go: recording a commit hook's records and comparing two
//     handlers' answers.
//
// Each test package keeps its harness in harness_test.go: the Emulator
// with test-only operations for the edge's tests (package emulator), the
// Service behind a test handler and the per-subject fixtures (items,
// tables) for the service's (package service). Both send requests with
// Do.
//
// It is imported only by tests (the lint test's layer table keeps it
// below everything it serves: it imports storage only).
package testkit
