// Package adminhttp serves the emulator's admin endpoints under
// /dynamoemu/ (no AWS service has them), under the Go API: the emulator
// routes each path to a method of an Admin, which reaches the emulator
// through Host (its public methods), the service core and the fault
// injector it is given. The paths are the emulator's exported constants
// and its route table (emulator/admin.go); docs/server.md lists them.
//
//   - The clock and TTL (clock.go): the emulator's time read and moved,
//     a TTL sweep, the conventions report read and emptied.
//   - The namespaces (namespaces.go): the namespaces that hold tables,
//     and a page of a namespace's tables described as DescribeTable
//     describes them, for the console.
//   - Fault injection (faults.go), the access-pattern report with
//     Contributor Insights' top keys (report.go) and the lag gates, moved
//     and listed (lag.go).
//   - The snapshots (snapshots.go) and branches (branches.go), taken,
//     restored, dropped, listed and compared with now or their base
//     (diff.go); the IAM policy mode's identities (iam.go); the health of
//     the data directory (health.go); the stream handlers' drain and
//     mappings and the consistency report (streams.go).
//   - The answers (answer.go): a JSON body, or a bad request's 400 with a
//     ValidationException body, as the API answers bad input; bodies are
//     read up to a bound.
//
// Answers, IAM and the func fields of Admin give what Host cannot: the
// Go API's answers of the emulator's own types (encoded as JSON, so this
// package names none of them) and the state the Go API does not export
// (the kept snapshots, a branch's base, the store's problems).
//
// The requests reach it past the edge's guard (httpedge.AdminGuard): no
// request a web page could send cross-site. Nothing here is on the API's
// path: the router is built by the first request to an admin path.
package adminhttp
