// Package tools is the container image's small programs, one binary
// (cmd/dynamoemu-tools) linked under their names: sh and bash, curl,
// wget, awslocal, java and dynamoemu-conventions. The image has no shell,
// no curl and no JVM, yet what is written for amazon/dynamodb-local's and
// localstack/localstack's images runs in it:
//   - sh and bash: enough of a POSIX shell for health checks ("CMD-SHELL",
//     "sh -c") and LocalStack's ready.d scripts (sh.go);
//   - curl and wget: one HTTP GET (or HEAD, or -X) of one http:// URL with
//     the options health checks use, and the real tools' exit statuses
//     (curl.go, wget.go, over the HTTP/1.1 client of http.go);
//   - awslocal: "awslocal dynamodb COMMAND [options]" as the AWS CLI reads
//     it, sent to AWS_ENDPOINT_URL; the AWS CLI itself when it is on PATH
//     (awslocal.go);
//   - java: DynamoDB Local's command line ("java -Djava.library.path=...
//     -jar DynamoDBLocal.jar -sharedDb"), which starts the server in its
//     place with DynamoDB Local's flags (java.go);
//   - dynamoemu-conventions: the conventions check's old command name,
//     "dynamoemu conventions ..." (java.go).
//
// None of it is in the server's binary (internal/lint: TestServerWithoutTools),
// and the package imports only the standard library, without net/http or
// encoding/json (TestToolsStaySmall): the binary is part of the image's
// size (docs/containers.md, "Size").
package tools
