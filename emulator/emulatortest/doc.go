// Package emulatortest gives a Go test a DynamoDB of its own in one line:
// an aws-sdk-go-v2 client of an in-process emulator (package emulator),
// isolated from every other test and cleaned up when the test ends.
//
//	func TestOrders(t *testing.T) {
//		t.Parallel()
//		client := emulatortest.New(t) // *dynamodb.Client, ready to use
//		_, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{...})
//	}
//
// # Clients
//
// New returns a client whose HTTP transport calls a fresh emulator's
// handler directly: no socket, no port, no container. It signs with an
// access key unique to the test, so tests are isolated (each key is a
// database of its own) and safe with t.Parallel. The region is Region.
// Only failed connections are retried (ConnectionRetryer), so a test sees
// the first error the emulator answers; RetryingClient retries as the
// SDK does in production, without its sleeps. NewWith takes
// emulator.Options (a fixed clock, SharedDB, conventions) and also
// returns the Emulator, the handle on everything below; Client makes more
// clients of it (another access key, another namespace), AccessKeyOf
// tells the key a client signs with.
//
// NewServer and NewServerWith do the same over real HTTP on
// 127.0.0.1:0, for code that takes an endpoint URL rather than a client.
// Their server has cmd/dynamoemu's default timeouts (a request read in 60
// s); on a machine too busy for that (megabytes of requests under -race),
// DYNAMOEMU_TEST_TIMEOUT_SCALE=3 gives three times as long.
// NewWithStreams also returns a DynamoDB Streams client of the same
// database (StreamsClient makes one for an existing emulator).
// TenantClient and WithTenant send the x-tenant-code header the
// conventions' tenant guard reads.
//
// Everything is released with t.Cleanup, the emulator's Close included.
//
// # Controlling the emulator
//
// With the Emulator a test controls what production leaves to chance:
//
//   - Time: Advance and SetNow move the emulator's clock and SweepTTL
//     deletes expired items at once, so TTL and stream retention are
//     tested without sleeping.
//   - Faults: Inject sets fault rules (throttling, conflicts, 500s,
//     delays) for the rest of the test.
//   - Eventual consistency: IndexLag, ReadLag and StreamLag return the
//     gate that delays what a GSI, eventually consistent reads or a
//     stream see of the writes; the lag ends with the test.
//   - Consistency fuzzing: DYNAMOEMU_CONSISTENCY=fuzz:SEED (ConsistencyEnv)
//     makes GSI reads, eventually consistent reads and stream records
//     lag by seeded amounts in every emulator made here; StaleReads
//     writes the reads that saw stale data to a failed test's log (a
//     test on branches: the reads made in its branches, whatever the
//     parallel tests beside it read).
//   - The access-pattern report: Report turns it on for the test and
//     writes it to the test's log at the end.
//   - Fixtures: Checkpoint snapshots the emulator after a suite's
//     fixtures and returns the rewind each test calls;
//     CheckpointURL does the same for a dynamoemu at a URL.
//   - Seed once, fork per test: Seeded (or LoadSeed) fills a base with a
//     Seed (CreateTable files, a directory of items, a script) once;
//     Fork gives each test a branch of it in O(1), dropped when the
//     test ends. BranchHeader sends a client's requests to a branch by
//     its X-Dynamoemu-Branch header.
//
// The Examples show each of these in a few lines.
package emulatortest
