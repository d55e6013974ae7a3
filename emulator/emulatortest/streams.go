package emulatortest

import (
	"net/http"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// NewWithStreams is NewWith plus a DynamoDB Streams client on the same
// database, for tests that consume a table's stream.
func NewWithStreams(t testing.TB, opts emulator.Options) (*emulator.Emulator, *dynamodb.Client, *dynamodbstreams.Client) {
	t.Helper()
	e, err := emulator.New(fromEnv(opts))
	if err != nil {
		t.Fatalf("emulatortest: %v", err)
	}
	key := uniqueAccessKey(t)
	return e, Client(t, e, key), StreamsClient(t, e, key)
}

// StreamsClient returns a DynamoDB Streams client for e that signs with
// accessKey, so it sees the database of Client(t, e, accessKey).
func StreamsClient(t testing.TB, e *emulator.Emulator, accessKey string) *dynamodbstreams.Client {
	t.Helper()
	hc := &http.Client{Transport: handlerTransport{e.Handler()}}
	t.Cleanup(hc.CloseIdleConnections)
	return dynamodbstreams.New(dynamodbstreams.Options{
		Region:       Region,
		BaseEndpoint: aws.String("http://dynamoemu.invalid"),
		Credentials:  credentials.NewStaticCredentialsProvider(accessKey, "secret", ""),
		HTTPClient:   hc,
		Retryer:      ConnectionRetryer(),
	})
}
