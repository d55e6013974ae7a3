package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLambdaAPIErrorsAWSCLI: the AWS CLI (botocore) reads the mapping
// API's errors as Lambda's: the type and the message of a 404
// ResourceNotFoundException ({"Type":"User","Message":...}) and of a body
// over the API's 256 KB (413 RequestEntityTooLargeException, Lambda's
// "Request must be smaller than N bytes for the OP operation"), which it
// gets as an answer, not as a connection reset.
func TestLambdaAPIErrorsAWSCLI(t *testing.T) {
	awsCLI, err := exec.LookPath("aws")
	if err != nil {
		t.Skip("the AWS CLI is not on PATH (.ci/run installs Debian's awscli)")
	}
	addr, _ := startServer(t, "-inMemory")
	dir := t.TempDir()
	big := filepath.Join(dir, "filter.json")
	require.NoError(t, os.WriteFile(big, []byte(`{"Filters":[{"Pattern":"{\"eventName\":[\"`+strings.Repeat("x", 300<<10)+`\"]}"}]}`), 0o600))
	cli := func(args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), hangBound)
		defer cancel()
		cmd := exec.CommandContext(ctx, awsCLI, append([]string{"--endpoint-url", "http://" + addr, "--output", "json", "lambda"}, args...)...)
		cmd.Env = append(os.Environ(), "AWS_ACCESS_KEY_ID=cli", "AWS_SECRET_ACCESS_KEY=fake", "AWS_DEFAULT_REGION=us-east-1",
			"AWS_CONFIG_FILE="+filepath.Join(dir, "none"), "AWS_SHARED_CREDENTIALS_FILE="+filepath.Join(dir, "none"),
			"AWS_PAGER=")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		return string(out) + stderr.String(), err
	}
	out, err := cli("get-event-source-mapping", "--uuid", "14e0db71-0000-4eb5-b481-8945cf9d10c2")
	require.Error(t, err)
	require.Contains(t, out, "An error occurred (ResourceNotFoundException) when calling the GetEventSourceMapping operation: The resource you requested does not exist.")

	out, err = cli("create-event-source-mapping", "--function-name", "fn", "--starting-position", "LATEST",
		"--event-source-arn", "arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/2026-01-01T00:00:00.000",
		"--filter-criteria", "file://"+big)
	require.Error(t, err)
	require.Contains(t, out, "An error occurred (RequestEntityTooLargeException) when calling the CreateEventSourceMapping operation: "+
		"Request must be smaller than 262144 bytes for the CreateEventSourceMapping operation")

	out, err = cli("list-event-source-mappings")
	require.NoError(t, err, out)
	require.Contains(t, out, `"EventSourceMappings": []`)
}
