// Package emulatortest starts a DynamoDB emulator for a Go test in one line.
//
//	func TestOrders(t *testing.T) {
//		t.Parallel()
//		client := emulatortest.New(t) // *dynamodb.Client, ready to use
//		_, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{...})
//	}
//
// New returns an aws-sdk-go-v2 DynamoDB client whose HTTP transport calls an
// in-process emulator's handler directly: no socket, no port, no container.
// Each call makes a fresh emulator and signs with an access key unique to the
// test, so tests are isolated and safe with t.Parallel. Only failed connections
// are retried (ConnectionRetryer), so a test sees the first error the
// emulator answers. The region is us-east-1.
//
// NewServer does the same over real HTTP: it listens on 127.0.0.1:0 (an
// httptest.Server) and returns the URL, for code that takes an endpoint
// rather than a client, and a client pointed at it.
//
// Both release everything with t.Cleanup, the emulator's Close included.
// NewWith and NewServerWith take emulator.Options (a fixed clock, a logger, SharedDB) and also return the
// Emulator; Client makes more clients (say, with another access key) for an
// existing emulator.
//
// NewWithStreams also returns a DynamoDB Streams client on the same
// database (StreamsClient makes one for an existing emulator). With the
// Emulator a test controls time: Advance and SetNow move the emulator's
// clock, SweepTTL deletes expired items at once, so TTL and stream
// retention are tested without sleeping.
//
// # Files
//
//   - emulatortest.go: New, NewWith, NewServer, NewServerWith, Client,
//     ConnectionRetryer.
//   - streams.go: NewWithStreams, StreamsClient.
//   - tenant.go: TenantClient and WithTenant (x-tenant-code, for the
//     conventions layer's tenant guard).
package emulatortest
