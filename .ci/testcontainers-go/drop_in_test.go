// Package testcontainers runs testcontainers-go against dynamoemu's image
// under a Docker-compatible socket (podman system service in CI,
// .ci/testcontainers): the container requests harnesses written for
// DynamoDB Local make, with only the image name changed. It is a module of
// its own so that testcontainers-go and the Docker client stay out of
// dynamoemu's go.mod.
//
//	DYNAMOEMU_IMAGE=localhost/dynamoemu:ci DYNAMOEMU_DDBLOCAL_IMAGE=localhost/dynamoemu:ci-ddblocal \
//	    DOCKER_HOST=unix://... TESTCONTAINERS_RYUK_DISABLED=true go test -count=1 ./
package testcontainers

import (
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"
	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"
)

// ddbLocalPort is the port DynamoDB Local's image listens on.
const ddbLocalPort = "8000/tcp"

// startupLine is the first line of DynamoDB Local 3.3's start-up block,
// which Rust's testcontainers-modules (dynamodb_local) waits for on stdout.
const startupLine = "Initializing DynamoDB Local with the following configuration:"

// image is the image under test, dynamoemu's own; the tests skip without
// one.
func image(t *testing.T) string {
	return imageFrom(t, "DYNAMOEMU_IMAGE")
}

// imageFrom is the image the variable env names; the tests skip without
// one.
func imageFrom(t *testing.T, env string) string {
	img := os.Getenv(env)
	if img == "" {
		t.Skip(env + " is not set (.ci/testcontainers sets it and DOCKER_HOST)")
	}
	return img
}

// run starts the image with opts and removes the container when the test ends.
func run(t *testing.T, opts ...testcontainers.ContainerCustomizer) testcontainers.Container {
	t.Helper()
	return runImage(t, image(t), opts...)
}

// runImage starts img with opts and removes the container when the test
// ends.
func runImage(t *testing.T, img string, opts ...testcontainers.ContainerCustomizer) testcontainers.Container {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	ctr, err := testcontainers.Run(ctx, img, opts...)
	testcontainers.CleanupContainer(t, ctr)
	if err != nil && ctr != nil {
		if logs, lerr := ctr.Logs(context.Background()); lerr == nil {
			b, _ := io.ReadAll(logs)
			t.Logf("container logs:\n%s", b)
		}
	}
	require.NoError(t, err)
	return ctr
}

// client is an AWS SDK client for the endpoint http://hostPort.
func client(hostPort string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider("local", "local", ""),
		BaseEndpoint: aws.String("http://" + hostPort),
	})
}

// createWriteRead creates a table, writes an item and reads it back.
func createWriteRead(t *testing.T, c *dynamodb.Client) {
	t.Helper()
	ctx := t.Context()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("orders"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	require.NoError(t, err)
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String("orders"),
		Item: map[string]types.AttributeValue{
			"id":    &types.AttributeValueMemberS{Value: "o-1"},
			"total": &types.AttributeValueMemberN{Value: "42"},
		},
	})
	require.NoError(t, err)
	got, err := c.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      aws.String("orders"),
		Key:            map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "o-1"}},
		ConsistentRead: aws.Bool(true),
	})
	require.NoError(t, err)
	require.Equal(t, &types.AttributeValueMemberN{Value: "42"}, got.Item["total"])
	tables, err := c.ListTables(ctx, &dynamodb.ListTablesInput{})
	require.NoError(t, err)
	require.Equal(t, []string{"orders"}, tables.TableNames)
}

// TestDynamoDBModuleRequest: the container testcontainers-go's
// modules/dynamodb starts (its Run, v0.45.0: DynamoDB Local's Java entry
// point and command, port 8000, wait.ForListeningPort, whose probe from
// inside the container runs "/bin/sh -c" with a subshell of pipes), then
// what its users do through ConnectionString (host:port).
//
// The module itself is not on the Go module proxy this project builds
// from (proxy.golang.org answers 404 for its @v/list), so its request is
// made here through testcontainers-go's own API, as the module makes it.
func TestDynamoDBModuleRequest(t *testing.T) {
	ctr := run(t,
		testcontainers.WithEntrypoint("java", "-Djava.library.path=./DynamoDBLocal_lib"),
		testcontainers.WithCmd("-jar", "DynamoDBLocal.jar"),
		testcontainers.WithExposedPorts(ddbLocalPort),
		testcontainers.WithWaitStrategy(wait.ForListeningPort(ddbLocalPort)),
	)
	hostPort, err := ctr.PortEndpoint(t.Context(), ddbLocalPort, "")
	require.NoError(t, err)
	createWriteRead(t, client(hostPort))
}

// TestDotNetWait: Testcontainers for .NET (Testcontainers.DynamoDb) waits
// until GET / answers 400, DynamoDB Local's answer to a request with no
// signature; the container is started as amazon/dynamodb-local's image
// starts (entrypoint java, command -jar DynamoDBLocal.jar -inMemory).
func TestDotNetWait(t *testing.T) {
	ctr := run(t,
		testcontainers.WithEntrypoint("java"),
		testcontainers.WithCmd("-jar", "DynamoDBLocal.jar", "-inMemory"),
		testcontainers.WithExposedPorts(ddbLocalPort),
		testcontainers.WithWaitStrategy(wait.ForHTTP("/").WithPort(ddbLocalPort).
			WithStatusCodeMatcher(func(status int) bool { return status == http.StatusBadRequest }).
			WithStartupTimeout(2*time.Minute)),
	)
	hostPort, err := ctr.PortEndpoint(t.Context(), ddbLocalPort, "")
	require.NoError(t, err)
	res, err := http.Get("http://" + hostPort + "/")
	require.NoError(t, err)
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	require.NoError(t, err)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, string(body), "MissingAuthenticationToken")
	createWriteRead(t, client(hostPort))
}

// TestRustWait: Rust's testcontainers-modules (dynamodb_local) waits for
// DynamoDB Local's start-up line on the container's stdout.
func TestRustWait(t *testing.T) {
	ctr := run(t,
		testcontainers.WithEntrypoint("java"),
		testcontainers.WithCmd("-jar", "DynamoDBLocal.jar", "-inMemory"),
		testcontainers.WithExposedPorts(ddbLocalPort),
		testcontainers.WithWaitStrategy(wait.ForLog(startupLine).WithStartupTimeout(2*time.Minute)),
	)
	logs, err := ctr.Logs(t.Context())
	require.NoError(t, err)
	b, err := io.ReadAll(logs)
	require.NoError(t, err)
	require.Contains(t, string(b), "\nInMemory:\ttrue\n", "the block's lines as DynamoDB Local prints them")
	hostPort, err := ctr.PortEndpoint(t.Context(), ddbLocalPort, "")
	require.NoError(t, err)
	createWriteRead(t, client(hostPort))
}

// TestDotNetModuleNoCommand: Testcontainers for .NET's DynamoDbBuilder as
// it is (src/Testcontainers.DynamoDb: port 8000, GET / answering 400, no
// entrypoint or command of its own) with only the image name swapped: the
// ddblocal image's own entrypoint (java) and command (-jar
// DynamoDBLocal.jar -inMemory), as amazon/dynamodb-local's.
func TestDotNetModuleNoCommand(t *testing.T) {
	ctr := runImage(t, imageFrom(t, "DYNAMOEMU_DDBLOCAL_IMAGE"),
		testcontainers.WithExposedPorts(ddbLocalPort),
		testcontainers.WithWaitStrategy(wait.ForHTTP("/").WithPort(ddbLocalPort).
			WithStatusCodeMatcher(func(status int) bool { return status == http.StatusBadRequest }).
			WithStartupTimeout(2*time.Minute)),
	)
	hostPort, err := ctr.PortEndpoint(t.Context(), ddbLocalPort, "")
	require.NoError(t, err)
	createWriteRead(t, client(hostPort))
}

// TestRustModuleNoCommand: Rust's testcontainers-modules dynamodb_local as
// it is (the start-up block's first line on stdout, then 3 s; no command
// of its own) with only the image name swapped: the ddblocal image.
func TestRustModuleNoCommand(t *testing.T) {
	ctr := runImage(t, imageFrom(t, "DYNAMOEMU_DDBLOCAL_IMAGE"),
		testcontainers.WithExposedPorts(ddbLocalPort),
		testcontainers.WithWaitStrategy(wait.ForLog("Initializing DynamoDB Local with the following configuration").WithStartupTimeout(2*time.Minute)),
	)
	logs, err := ctr.Logs(t.Context())
	require.NoError(t, err)
	b, err := io.ReadAll(logs)
	require.NoError(t, err)
	require.Contains(t, string(b), "\nInMemory:\ttrue\n", "the default command's -inMemory, as DynamoDB Local prints it")
	time.Sleep(3 * time.Second) // the module's WaitFor::millis(3000)
	hostPort, err := ctr.PortEndpoint(t.Context(), ddbLocalPort, "")
	require.NoError(t, err)
	createWriteRead(t, client(hostPort))
}

// TestPlainContainer: the generic request docs/containers.md shows
// (dynamoemu's own flags, the log line it prints once it listens).
func TestPlainContainer(t *testing.T) {
	ctr := run(t,
		testcontainers.WithCmd("-sharedDb"),
		testcontainers.WithExposedPorts(ddbLocalPort),
		testcontainers.WithWaitStrategy(wait.ForLog("dynamoemu listening").WithStartupTimeout(2*time.Minute)),
	)
	endpoint, err := ctr.PortEndpoint(t.Context(), ddbLocalPort, "http")
	require.NoError(t, err)
	createWriteRead(t, client(strings.TrimPrefix(endpoint, "http://")))
}
