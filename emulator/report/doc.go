// Package report holds the emulator's reports as a Go program reads
// them:
//
//   - the access-pattern report (Emulator.Reports().Access): a
//     NamespaceReport per namespace, each a Report of its tables' and
//     indexes' traffic, hot keys, largest partitions and unused indexes,
//     its costliest requests and, with a design set, the design's
//     patterns, the requests that matched none and the findings
//     (docs/faults.md); WriteText prints one for people;
//   - Contributor Insights' top keys (Reports().Contributors): a
//     ContributorRule per rule;
//   - the stale reads of consistency fuzzing (Reports().Consistency): a
//     ConsistencyReport.
//
// The types are declared here once, in their own package rather than
// in package emulator: the recorder that builds the access-pattern
// report (the module's internal insights package, which package emulator
// imports) builds it in these types, and their JSON is the admin
// endpoints' (GET /dynamoemu/report, /dynamoemu/contributors,
// /dynamoemu/consistency).
//
// A user story: a test suite turns the report on
// (Emulator.Reports().SetReporting, or emulatortest's helpers), runs,
// and fails when a request read by Scan, or a hot partition took more
// than its share, reading the fields below rather than parsing text.
package report
