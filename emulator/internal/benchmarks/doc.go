// Package benchmarks measures the emulator's hot operations end to end,
// through the facade's Handler (package emulator): the edge and the
// service (emulator/internal/service) together. It holds only benchmarks;
// this file exists so the package builds.
//
// Each of PutItem, GetItem, UpdateItem with a condition, Query of one
// partition and a filtered Scan page runs through four transports
// (BenchmarkOps/<op>/<transport>):
//
//   - handler: a prebuilt *http.Request served by Emulator.Handler() into a
//     reusable ResponseWriter. Nothing but the server's own work is timed, so
//     its ns/op, B/op and allocs/op are the server cost per request without
//     net/http's connection handling.
//   - sdk: an aws-sdk-go-v2 client whose RoundTripper calls the handler in
//     process (emulatortest.Client). Client and server cost together.
//   - http: the same client over real HTTP on loopback to a server in this
//     process.
//   - http-child: the same client over loopback HTTP to a server in a child
//     process (this test binary re-executed, served as cmd/dynamoemu
//     serves: emulator.Server with its default options and connection
//     loop; DYNAMOEMU_BENCH_CHILD_ENV=DYNAMOEMU_HTTP_LOOP=std serves it
//     with net/http alone, for comparison). Besides the usual figures it reports
//     server-user-ns/op and server-sys-ns/op, the child's CPU time
//     (getrusage(RUSAGE_SELF), read over HTTP before and after the loop)
//     divided by the operations: the server's whole CPU per request,
//     net/http, the Go scheduler and the kernel's TCP included; and
//     client-cpu-ns/op, the same for this process.
//
// BenchmarkHTTPFloor/<op> is http-child with the same SDK client, request
// and response bytes, but the child answers with a replay of the emulator's
// response instead of running the emulator. It is the floor under
// http-child: the server CPU that the SDK's traffic costs net/http, the
// runtime and the kernel (the floor's path is not the API's POST /, so
// the loop hands its connection to net/http: the floor stays net/http's,
// and with the loop http-child can go below it). http-child minus the floor is the emulator's own
// share over HTTP.
//
// DYNAMOEMU_BENCH_CHILD_CPUPROFILE=file writes a CPU profile of the child;
// DYNAMOEMU_BENCH_CHILD_GOMAXPROCS=n runs the child with GOMAXPROCS n.
//
// BenchmarkMemoryPerItem PutItems 100,000 items of 240 bytes (DynamoDB size)
// through the handler and reports the live heap per stored item.
//
// BenchmarkIndexQuery and BenchmarkIndexPutItem measure a GSI's Query
// and the writes that keep indexes; BenchmarkStreamPutItem and
// BenchmarkStreamGetRecords the writes to a table with a stream and the
// reads of its records.
//
// # Files
//
//   - bench_test.go: BenchmarkOps, BenchmarkHTTPFloor,
//     BenchmarkMemoryPerItem, the transports and the child server.
//   - index_bench_test.go: the index benchmarks.
//   - streams_bench_test.go: the stream benchmarks.
//   - rusage_unix_test.go, rusage_other_test.go: the child's CPU time.
//
// Run them with
//
//	go test ./emulator/internal/benchmarks -run '^$' -bench . -benchmem
package benchmarks
