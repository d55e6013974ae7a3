// Command dynamoemu-conventions checks the tables of any DynamoDB endpoint
// (dynamoemu, DynamoDB Local, AWS) against the mbc-cqrs-serverless
// conventions (package conventions):
//
//	dynamoemu-conventions check --endpoint URL --config FILE [table ...]
//
// scans the tables the configuration (or their tags) names and lists
// their items' violations, one line each (table, rule, severity, key,
// message), as the emulator would have reported them had the items been
// written to it; it exits with status 2 when it found any. The
// configuration is the JSON file dynamoemu's -conventions flag reads.
//
// It is a command of its own, not a subcommand of dynamoemu, because it
// talks to an endpoint through the AWS SDK for Go (aws-sdk-go-v2), which
// the server does not link: the server's binary and image stay without it.
package main
