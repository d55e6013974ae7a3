// Package emulator is an in-memory DynamoDB for tests and local
// development: it speaks the DynamoDB JSON protocol (version 20120810)
// and the DynamoDB Streams API over HTTP, so the AWS SDKs, the AWS CLI
// and anything else that talks to DynamoDB talk to it unchanged.
//
// A Go program uses it in one of three ways: a test makes clients of an
// in-process emulator with package emulator/emulatortest (the easiest);
// a program mounts an Emulator's Handler on its own server, or runs
// NewServer, the server cmd/dynamoemu runs; or it talks to a running
// dynamoemu over HTTP.
//
// # Basics
//
// New returns an Emulator with no tables; Options configure it, and the
// zero Options is ready to use. Handler is its http.Handler: POST / with
// an X-Amz-Target header "DynamoDB_20120810.<Operation>" (or
// "DynamoDBStreams_20120810.<Operation>") and a JSON body, as the SDKs
// send. NewServer wraps the handler in an http.Server with the limits
// and timeouts cmd/dynamoemu uses. Close stops the emulator's background
// work and, with a data directory, makes every change durable.
//
//	emu, _ := emulator.New(emulator.Options{})
//	defer emu.Close()
//	srv := httptest.NewServer(emu.Handler())
//	db := dynamodb.New(dynamodb.Options{Region: "us-east-1",
//		BaseEndpoint: aws.String(srv.URL),
//		Credentials:  credentials.NewStaticCredentialsProvider("demo", "secret", "")})
//
// The rest of the API is on handles, one per subject, each a small value
// an Emulator method returns: Clock (the time, TTL sweeps), Streams (the
// stream handlers), Branches (branches and snapshots), Reports (access
// patterns, conventions, consistency), Faults (the fault rules) and Lags
// (eventual consistency on demand, replication delay).
//
// # Namespaces
//
// Each access key and region is a database of its own (a namespace), as
// on DynamoDB Local: two tests that sign with different keys never see
// each other's tables. The signature is parsed for the key and region,
// not verified. Options.SharedDB gives every client one database.
//
// # Signed requests
//
// Options.Credentials (cmd/dynamoemu's -credentials) turns signature
// checks on: the emulator then accepts only the keys listed, verifies
// every request's SigV4 signature as AWS does and answers a bad one with
// AWS's error (InvalidSignatureException, UnrecognizedClientException,
// MissingAuthenticationTokenException, IncompleteSignatureException); the
// admin endpoints need one of the keys or one of Options.AdminTokens. A
// Credential's Namespace lets several keys share a database.
//
// # Time
//
// Every time the emulator uses (request timestamps, TTL expiry, stream
// record times and retention, transient table states) comes from one
// clock: Options.Clock (time.Now by default) moved by an offset.
// Clock().Now reads it; Advance and SetNow move it, so a test of expiry
// or retention does not sleep. Clock().SweepTTL deletes expired items at
// once; RunTTLSweeper does it on a period. A move further than about 292
// years is ErrClockRange.
//
// # Branches and snapshots
//
// Branches().Snapshot captures every namespace (tables, items, indexes,
// streams) and returns its ID; Restore rewinds the whole emulator to it,
// as often as wanted, sharing the items instead of copying them;
// DropSnapshot forgets it. A test suite restores one after its fixtures
// before each test. Branches().Fork makes a namespace a copy of another
// in O(1) per table, which requests reach by its name (as their access
// key, or in the X-Dynamoemu-Branch header), so each test of a suite gets
// a seeded database of its own. The admin endpoints /dynamoemu/snapshots
// and /dynamoemu/branches do the same over HTTP.
//
// # Stream handlers
//
// Streams() runs Lambda's event source mappings over the tables'
// streams: each mapping calls a function (a Go func, or one invoked over
// Lambda's API) with batches of records, with Lambda's batching,
// filters, retries and on-failure destinations. Streams().Drain waits
// until every record written has been handled, so a test asserts right
// after it.
//
// # Faults, lag and throttling
//
// Production fails in ways a local database does not; the emulator can
// be told to. Faults returns the fault injector: FaultRules choose calls
// (by table, index, operation or key) and a FaultKind to inject
// (throttling, conflicts, 500s, a delay), with a count, a period or a
// probability from a seed. Lags().Index, Reads and Stream return a
// LagGate that delays what a GSI, eventually consistent reads or a
// stream see of the writes (SetDelay, Hold, Release), so that a test sees
// eventual consistency on demand; Lags().SetReplicationDelay makes global
// tables' replicas lag. FaultOptions.Throttle enforces provisioned
// capacity and per-key limits as DynamoDB does. All of it is off until
// asked for.
//
// # Reports
//
// With Reports().SetReporting (or FaultOptions.Report), the emulator
// counts each table's and index's traffic: gets, queries, scans and
// writes, items read and returned, capacity units, hot keys, unused
// indexes and the costliest requests. Reports().Access returns it
// (package report's types, where each is declared once); WriteAccess
// prints it. SetDesign checks the traffic against a declared design's
// access patterns (a design file, a NoSQL Workbench model, a OneTable
// schema, ElectroDB entities, a Dynamoose schema, a DynamoDB Toolbox
// table, AWS's DynamoDB MCP data model or an infrastructure template).
// Contributors answers Contributor Insights' top keys. Options.Conventions
// names tables that follow the mbc-cqrs-serverless conventions (package
// conventions): their writes are checked as they arrive, refused or
// reported per the configuration, and Reports().Conventions returns what
// was seen. Options.Consistency's fuzzing reports its stale reads in
// Reports().Consistency.
//
// # Persistence
//
// With Options.DataDir every namespace is kept in that directory: each
// change is logged before it is acknowledged (PersistOptions.Durability
// says how firmly) and New loads it all back, stream records,
// ClientRequestTokens within their window, the clock's offset and the
// fault rules included (persistence.go says what is not kept). Without
// DataDir everything is in memory only.
//
// # The HTTP edge
//
// The handler answers errors as DynamoDB does ("__type", message,
// status, x-amzn-RequestId and x-amz-crc32 headers); it accepts
// compressed bodies up to Options.MaxBodyBytes (AWS's 16 MB) and
// compresses answers for clients that ask. Options.MaxInFlight bounds the
// requests served at once (then ThrottlingException). Against DNS
// rebinding it answers only Host names a web page cannot rebind
// (addresses, localhost, Options.AllowHosts and kin); the admin
// endpoints (the clock, TTL sweeps, snapshots, faults, lag, the reports,
// Options.Console at /dynamoemu/console/, Options.MCP at /dynamoemu/mcp,
// Options.DesignMatch at /dynamoemu/report/match) also refuse
// foreign origins and state-changing requests without Content-Type
// application/json.
// Options.CORSOrigins enables CORS.
//
// # Caveats
//
//   - When a body has both a member of the wrong JSON type and an
//     invalid attribute value, the attribute value's error is reported;
//     AWS reports the serialization error.
//   - A JSON string holding an integer is accepted where a number is
//     expected, as DynamoDB Local accepts it.
//   - Compressed bodies: the 16 MB limit also applies to the
//     decompressed body, where DynamoDB accepts far more.
//   - Control-plane timing, item collections, transactions, streams and
//     TTL follow DynamoDB as the conformance suite (package conformance)
//     records it; where DynamoDB Local and AWS differ, AWS is followed.
//
// # Reading the source
//
// server.go holds Options, New and net/http's side of an API call
// (serveOp); emulator/internal/apiserve the API's request path on both
// paths (credential, body, budget, in-flight slot, the service) and the
// connection loop's handler (ServeLoop); edge.go what the edge answers
// before any operation (health, unknown paths, head limits);
// credentials.go and emulator/internal/sigv4 the signature checks;
// emulator/internal/httploop the connection loop, which calls
// apiserve's ServeLoop for each API call;
// emulator/internal/httpedge the edge's CORS, Host and body policies;
// routes.go the table of every endpoint and its guard, from which the
// edge dispatches and the router of the emulator's own paths is built;
// the service
// behind the edge (tables, operations, streams, transactions, PartiQL) is
// emulator/internal/service, whose doc.go is the map of the rest.
package emulator
