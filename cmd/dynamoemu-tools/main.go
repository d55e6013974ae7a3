// Command dynamoemu-tools is the container image's small programs in one
// binary, linked as /usr/bin/sh, bash, curl, wget, awslocal, java and
// dynamoemu-conventions: what health checks, LocalStack's ready.d scripts
// and harnesses written for amazon/dynamodb-local run inside the
// container (cmd/internal/tools says what each takes). Started by its own
// name, the first argument names the tool:
//
//	dynamoemu-tools awslocal dynamodb list-tables
//
// Outside the image, a link named awslocal (go build -o ~/bin/awslocal
// ./cmd/dynamoemu-tools) gives ready.d scripts run by "dynamoemu
// -localstack" an awslocal without the AWS CLI.
package main

import (
	"os"

	"github.com/dynamoemu/dynamoemu/cmd/internal/tools"
)

func main() {
	os.Exit(tools.Main(os.Args, os.Stdout, os.Stderr))
}
