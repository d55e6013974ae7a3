// Command dynamoemu-bench measures DynamoDB-compatible servers: the
// emulator, DynamoDB Local, dynalite or any endpoint.
//
//	go run ./cmd/dynamoemu-bench -endpoint http://127.0.0.1:8000 [-pid N]
//	go run ./cmd/dynamoemu-bench -matrix [-out table.md]
//
// It speaks the DynamoDB JSON protocol over plain HTTP/1.1 (keep-alive,
// no SDK, so that its own cost per request is small and reported beside
// the server's), loads one table of 240-byte items, and runs put, get,
// query, update, scan, scanfilter (a Scan with a filter), batch and
// mixed requests (workload.go) from a fixed number of clients, each
// sending its next request when the last is answered, checking every
// answer. Per operation it reports requests per second, the median and
// 99th percentile latency, and, given the server's process id (-pid, or
// a server -matrix started), the server's CPU time per request from
// /proc/<pid>/stat, which is what a busy machine disturbs least.
//
// -memory N starts the emulator, loads N items and reports its resident
// memory per item once loaded, 10 s later and after a collection it is
// told to make (SIGUSR1), with its live heap (memory.go); with -gsi the
// table has one global secondary index.
//
// -restart N loads N items into a -dbPath server of each build given and
// times its restarts, interleaved, from exec to the first GetItem that
// finds an item (restart.go).
//
// -compressed N starts the emulator and sends it N gzip bodies that each
// inflate to a 10 MB BatchWriteItem, at once, and reports their answers
// and its peak resident memory over idle (compressed.go).
//
// -preload N instead writes N items into a fresh table by BatchWriteItem
// of 25 from -concurrency clients and reports the wall time, items per
// second and the server's CPU time per item (preload.go).
//
// -matrix starts each server here: dynamoemu (built from this module, or
// -emulator-bin), DynamoDB Local (a private instance started with
// conformance/oracle/dynamodb-local.sh, or the shared one), dynalite
// (installed with npm into a temporary folder outside the repository; it
// is only measured) and the floor, a net/http server answering every
// request with a canned body (floor.go), the cost no net/http server goes
// below. It runs every operation against every server in turn and prints
// a Markdown table naming the machine (report.go).
//
// Files: main.go (flags), client.go (the protocol), rawclient.go (the
// preload's lean HTTP/1.1 connection), workload.go (requests and checks),
// run.go (clients, latency), preload.go, memory.go, restart.go,
// procstat.go (CPU times, the machine), floor.go, targets.go (starting
// servers), report.go.
package main
