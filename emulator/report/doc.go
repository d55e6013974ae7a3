// Package report is the emulator's access-pattern report, as a Go
// program reads it: Emulator.Report returns a NamespaceReport per
// namespace, each a Report of its tables' and indexes' traffic, hot keys,
// largest partitions and unused indexes, its costliest requests and,
// with a design set, the design's patterns, the requests that matched
// none and the findings (docs/faults.md). The types are declared here
// once: the recorder that builds the report (the emulator's internal
// insights package) and the emulator's API (emulator.AccessReport and
// its siblings are aliases of these) share them, and their JSON is the
// admin endpoint's (GET /dynamoemu/report). WriteText prints a report for
// people.
//
// A user story: a test suite turns the report on (emulator.SetReporting,
// or emulatortest's helpers), runs, and fails when a request read by
// Scan, or a hot partition took more than its share, reading the fields
// below rather than parsing text.
package report
