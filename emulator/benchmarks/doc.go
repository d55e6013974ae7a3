// Package benchmarks measures the emulator's hot operations end to end. It
// holds only benchmarks (bench_test.go); this file exists so the package
// builds.
//
// Each of PutItem, GetItem, UpdateItem with a condition, Query of one
// partition and a filtered Scan page runs through three transports:
//
//   - handler: a prebuilt *http.Request served by Emulator.Handler() into a
//     reusable ResponseWriter. Nothing but the server's own work is timed, so
//     its ns/op, B/op and allocs/op are the server cost per request without
//     net/http's connection handling.
//   - sdk: an aws-sdk-go-v2 client whose RoundTripper calls the handler in
//     process (emulatortest.Client). Client and server cost together.
//   - http: the same client over real HTTP on loopback to a server in a child
//     process (this test binary re-executed). Besides the usual figures it
//     reports server-cpu-ns/op: the child's user+system CPU time
//     (getrusage(RUSAGE_SELF), read over HTTP before and after the loop)
//     divided by the operations, which is the server's whole CPU per request
//     including net/http, and client-cpu-ns/op, the same for this process.
//
// BenchmarkMemoryPerItem PutItems 100,000 items of 240 bytes (DynamoDB size)
// through the handler and reports the live heap per stored item.
//
// Run them with
//
//	go test ./emulator/benchmarks -run '^$' -bench . -benchmem
package benchmarks
