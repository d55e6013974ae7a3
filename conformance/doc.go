// Package conformance holds behaviour tests for DynamoDB-compatible endpoints, written
// with aws-sdk-go-v2 exactly as a user writes them: a real *dynamodb.Client talking
// HTTP to an endpoint.
//
// # Why it is public
//
// Its users run it, they do not import it: whoever keeps a DynamoDB-compatible
// endpoint (another emulator, a proxy, a cache in front of DynamoDB, a build of
// this one) checks it against the same expectations the emulator is held to, with
//
//	DYNAMODB_ENDPOINT=http://localhost:4566 go test github.com/dynamoemu/dynamoemu/conformance
//
// Its few exported names (Target, AWSDiffers and kin) serve its own tests and such
// runs; nothing else in the module depends on them.
//
// # Endpoints
//
// DYNAMODB_ENDPOINT=http://host:port runs the suite against that endpoint; unset, the
// suite starts the emulator in-process (emulator.New + Handler) on a free 127.0.0.1
// port. DYNAMODB_ORACLE names what the endpoint is:
//
//   - unset: the emulator or an unknown DynamoDB-compatible endpoint; static fake
//     credentials and region us-east-1.
//   - dynamodb-local: AWS's DynamoDB Local (conformance/oracle/dynamodb-local.sh sets
//     this up); tests marked with AWSDiffers are skipped.
//   - aws: real DynamoDB; the SDK's default credential chain and region are used, and
//     DYNAMODB_ENDPOINT may be left unset to use the SDK's own endpoint.
//
// The signature tests (signatures_test.go) need an endpoint that verifies
// signatures and a key it knows: against the in-process emulator they start a
// second one with emulator.Options.Credentials; against AWS they sign with the
// environment's credentials; against another endpoint they need
// DYNAMODB_SIGNING_KEY and DYNAMODB_SIGNING_SECRET, and are skipped without them.
// The in-process emulator answers CORS for every origin, as AWS's endpoint does.
//
// # Known differences
//
// AWS behaviour is the spec. A test whose expectation follows AWS where DynamoDB Local
// is known to answer differently calls AWSDiffers(t, why) first: against DynamoDB Local
// it is skipped with that reason, everywhere else it runs. The list of such tests is
// printed at the end of every run so the differences stay visible and few.
//
// # Caveats
//
// Every test creates its own uniquely named tables and deletes them in t.Cleanup.
// Against real DynamoDB the suite costs money and takes a while (tables are created
// and deleted; the waiters poll until ACTIVE).
package conformance
