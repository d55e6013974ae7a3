// Command dynamoemu-capture records a DynamoDB session and replays it,
// the commands "dynamoemu record" and "dynamoemu replay" hand off to
// (docs/captures.md; the format is internal/capture's):
//
//	dynamoemu-capture record -upstream URL -tablePrefix P -out FILE [-port N]
//	dynamoemu-capture replay [-endpoint URL] [-json] [-ignore PATHS] FILE
//
// record (record.go) is a proxy: each request is checked against the
// table prefix (tables.go says which tables a request touches), re-signed
// with the credentials of the AWS SDK's default chain and forwarded; each
// exchange is written normalised. replay (replay.go) sends a capture's
// requests, in order with their waits, to an emulator in this process or
// to -endpoint, and names each answer that departs from the recorded one
// (report.go prints them).
//
// A command of its own, an optional install beside dynamoemu, because
// the AWS SDK's configuration and signer it links would add megabytes to
// the server, which links no AWS SDK package (internal/lint).
package main
