// Command dynamoemu-soak runs the emulator under mixed load with
// misbehaving clients for a bounded time and reports what the server holds.
//
//	go run ./cmd/dynamoemu-soak [-duration 60s] [-workers 8]
//
// It starts the server as a child process (itself, re-executed), on
// 127.0.0.1 only, with the same emulator.Server cmd/dynamoemu uses and
// short cut-off timeouts so that they fire within the run. Against it run,
// all on loopback:
//
//   - workers: aws-sdk-go-v2 clients that create tables, write, read,
//     update, query, scan and delete them (some tables large enough that
//     DeleteTable returns memory to the OS);
//   - silent bodies: connections announcing 16 MB bodies that send a few
//     bytes and stop;
//   - unread responses: 1 MB Scan pages requested and never read;
//   - idle keep-alive connections and slow headers;
//   - reads under thousands of distinct access keys (valid and invalid),
//     headers of a megabyte, and bodies that are not UTF-8.
//
// Every client is bounded in count, the whole run in time (at most 10
// minutes), and at the start, every 10 seconds and at the end the child
// reports its live heap (after a GC), RSS, goroutines and open
// connections. The run fails (exit status 1) if the server answers 500 or
// a well-behaved request fails.
//
//	go run ./cmd/dynamoemu-soak -kill [-duration 30m] [-workers 8] [-durability sync]
//
// -kill runs the kill loop instead (kill.go): a server with a data
// directory under writers (PutItem, UpdateItem counters, a transaction
// over two tables, BatchWriteItem), killed with SIGKILL every 0.5 to 3
// seconds and started again on its files, for up to 24 hours. After
// each restart every write acknowledged since the last is checked, and
// each unanswered one settled (there or not, whole); each cycle prints
// its writes, the restart's time from exec to the first answered
// request and the directory's size, the end a summary (kills, writes,
// restart median, p90 and max). A lost acknowledged write or half a
// transaction fails the run.
package main
