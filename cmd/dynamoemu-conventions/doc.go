// Command dynamoemu-conventions checks the tables of any DynamoDB endpoint
// (dynamoemu, DynamoDB Local, AWS) against the mbc-cqrs-serverless
// conventions (package conventions):
//
//	dynamoemu-conventions check --endpoint URL --config FILE [table ...]
//
// scans the tables the configuration (or their tags) names and lists
// their items' violations, one line each (table, rule, severity, key,
// message), as the emulator would have reported them had the items been
// written to it. It exits with status 1 when a violation fails it (an
// error, or any with --fail-on-warn), 2 when it could not check (flags,
// configuration, endpoint, or an endpoint listing no table, an empty
// namespace), 0 otherwise; "dynamoemu conventions" exits with 127 when
// this command is not installed. The
// configuration is the JSON file dynamoemu's -conventions flag reads.
//
// It is a command of its own, not a subcommand of dynamoemu, because it
// talks to an endpoint through the AWS SDK for Go (aws-sdk-go-v2), which
// the server does not link: the server's binary and image stay without it.
package main
