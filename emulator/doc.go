// Package emulator is an in-memory DynamoDB: it speaks the DynamoDB JSON
// protocol (version 20120810) and the DynamoDB Streams API over HTTP. This
// package is the small public facade and the HTTP edge; the service
// itself (tables, operations, streams, TTL, transactions, PartiQL, the
// conventions layer) is package emulator/internal/service, behind the
// edge.
//
// # Basics
//
// New returns an Emulator; Handler returns its http.Handler and NewServer
// an http.Server around it. A request is POST / with an X-Amz-Target
// header "DynamoDB_20120810.<Operation>" (or
// "DynamoDBStreams_20120810.<Operation>") and a JSON body (Content-Type
// application/x-amz-json-1.0 or 1.1). The edge reads the SigV4
// Authorization header for the access key id and region (the signature is
// parsed, never verified), resolves the operation (service.Lookup), reads
// the body up to Options.MaxBodyBytes (16 MB, AWS's limit), takes an
// in-flight slot, and hands the request to the service (service.Serve),
// which selects that key and region's namespace (one isolated database,
// as DynamoDB Local does; Options.SharedDB gives everyone one), runs the
// operation and returns the response body or an error. The edge writes
// the answer with x-amzn-RequestId and x-amz-crc32 headers, turning an
// error's class into __type, status and message.
//
// The facade: New, Options, Emulator (Handler, NewServer, Options,
// Close), the clock (Now, Advance, SetNow), TTL (SweepTTL,
// RunTTLSweeper), the conventions report (ConventionsReport,
// ResetConventionsReport) and the defaults cmd/dynamoemu uses.
//
// # Packages
//
//   - emulator (this one): the facade and the HTTP edge.
//   - emulator/internal/service: DynamoDB-the-service without HTTP (see
//     its doc.go for its files and its locks).
//   - emulator/internal/wire: the JSON codec (attribute values, the
//     request decoder, the appenders, error bodies).
//   - emulator/internal/apierr: the error classes, the API error, the
//     constraint-message builder and every message.
//   - emulator/internal/streamlog: the stream record log.
//   - emulator/internal/testkit: what the emulator's tests share.
//   - emulator/emulatortest: SDK clients on an in-process emulator, for
//     tests of other packages; emulator/internal/benchmarks: the hot operations'
//     benchmarks.
//
// # Files
//
//   - Facade: server.go (Options, New, Emulator, the routes, serveOp:
//     the request's path through the edge, writeResponse), clock.go (Now,
//     Advance, SetNow), ttl_control.go (SweepTTL, RunTTLSweeper),
//     snapshots.go (Snapshot, Restore, DropSnapshot: the whole emulator
//     rewound for test suites, in Go and over HTTP),
//     conventions_report.go (the report in Go and over HTTP).
//   - HTTP edge: auth.go (credentials and access keys), limits.go (body
//     growth, the in-flight limit, returning memory after large deletes),
//     compress.go (Content-Encoding), compress_response.go (gzip or
//     deflate answers for clients that accept them), cors.go (CORS), hosts.go (the Host
//     names answered), admin.go and admin_guard.go (the admin endpoints
//     and what guards them), requestlog.go (the debug request log),
//     httpserver.go (NewServer: timeouts, header limit, connection
//     counts), fastloop*.go (the connection loop that serves API calls
//     below net/http, handing other requests' connections to it),
//     console_mount.go (Options.Console at ConsolePath),
//     version.go (Version, the Dynamoemu-Version header).
//
// # Routes
//
// gorilla/mux routes every path: POST / is the API (taken before the
// router, which would cost two request copies per call), GET / the health
// answer (MissingAuthenticationToken, as DynamoDB Local answers), GET and
// DELETE ConventionsPath the conventions report, OPTIONS a CORS
// preflight, the admin endpoints (admin.go): the clock, a forced TTL
// sweep and snapshots (snapshots.go), and the console's paths when
// Options.Console is set (console_mount.go). Anything else answers like
// an unknown operation.
//
// # The clock
//
// Every time the emulator uses (request timestamps, TTL expiry, stream
// record times and retention, iterator expiry, transient table states)
// comes from one clock that tests move (clock.go: Advance, SetNow;
// admin.go: the same over HTTP, plus a forced TTL sweep). The clock is the
// base clock plus a time.Duration offset: a move more than about 292
// years away is ErrClockRange (400 over HTTP).
//
// # Hosts, origins and the admin endpoints
//
// Before any routing the handler refuses, with 403 AccessDeniedException,
// a request whose Host is a name a web page could rebind to the emulator's
// address (hosts.go): it answers IP addresses, localhost, *.localhost,
// *.internal and Options.AllowHosts, and, on connections that arrived at a
// non-loopback address (a container, a LAN), also single-label names,
// *.local and *.home.arpa. Requests that came through no net/http server
// (an in-process transport) are not checked. The admin endpoints (every
// path but "/", admin_guard.go) refuse an Origin that is neither allowed
// (cors.go: loopback origins, and Options.CORSOrigins) nor the server's
// own (403), and a state-changing request without Content-Type
// application/json (415), so that no web page can move the clock or sweep.
// The API needs no such check: X-Amz-Target cannot be sent cross-site
// without a CORS preflight. Options.Console, the web console, is served at
// ConsolePath behind both checks (console_mount.go). Every answer of the
// edge carries the Dynamoemu-Version header (version.go).
//
// # Persistence
//
// With Options.DataDir (cmd/dynamoemu's -dbPath) each namespace's
// storage.DB is a persist.Store's (persistence.go): every change is
// logged by the DB's commit hook before it is acknowledged, New loads the
// namespaces and the service rebuilds their catalogs from their tables'
// definition records (internal/service/persistence.go), and a change
// the log refuses answers 500 InternalServerError with nothing applied.
// Stream records, ClientRequestTokens and the clock's offset are not
// kept. Without DataDir a namespace's DB has no hook.
//
// # Errors
//
// The service answers errors of package apierr's classes; the edge turns
// a class into "__type", the message member and a status
// (apierr.Classify, wire.AppendErrorBody). An error of no class is a bug
// and answers 500 InternalServerError (logged), as does a panic in the
// service, which the edge recovers and logs with its stack.
//
// # Limits
//
// limits.go says what one client can make the emulator hold: bodies grow as
// they arrive, Options.MaxInFlight requests at once counted once their
// body has arrived (then ThrottlingException), access keys of letters and
// digits up to 128 (else UnrecognizedClientException), namespaces created
// by their first table, memory returned to the OS after large deletes.
// Placeholder maps over AWS's 2 MB are refused without being decoded into
// maps (wire's wire_placeholders.go). ClientRequestTokens keep a
// fingerprint and a replay's answer in a store bounded by
// Options.IdempotencyBytes, and are forgotten as the clock passes their
// window (the service's idempotency.go): a janitor goroutine with the
// real clock, which Close stops. NewServer (httpserver.go) returns the
// http.Server cmd/dynamoemu runs, with read, write and idle timeouts, a
// 64 KB header limit, connection counts and each cut-off logged at debug
// level. Text that is not Unicode is refused with SerializationException
// (wire's wire_text.go).
//
// # Caveats
//
//   - When a body has both a member of the wrong JSON type and an invalid
//     attribute value, the attribute value's error is reported (as
//     encoding/json did: a wire type's error ends decoding, a type mismatch
//     is only remembered); AWS always reports the serialization error.
//   - A JSON null where an AttributeValue is expected leaves it invalid
//     (IsValid() false); operations check required values. WireItem and
//     ExpressionValues reject nulls themselves with DynamoDB's messages (which
//     say "Item" for keys too, as DynamoDB does).
//   - Messages of SerializationException for wrong JSON types follow AWS's
//     current pattern ("NUMBER_VALUE cannot be converted to String"); the
//     TRUE_VALUE/FALSE_VALUE/STRING_VALUE variants, the base64 message and
//     the null BS member message are inferred, not confirmed.
//   - A JSON string holding an integer is accepted where a number is
//     expected, as DynamoDB Local accepts it (AWS's own answer is not
//     recorded); any other string there is a SerializationException.
//   - Compressed bodies (compress.go): the 16 MB limit also applies to the
//     decompressed body, where DynamoDB accepts far more; bytes after the
//     last gzip member are refused, where DynamoDB ignores them.
//   - The service's own caveats (control-plane timing, item collections,
//     transactions, streams, TTL, DescribeEndpoints, conventions) are in
//     its doc.go. The conventions report (ConventionsReport, GET
//     ConventionsPath) is emptied by ResetConventionsReport or DELETE
//     ConventionsPath.
package emulator
