package emulator_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// TestStreamHandlerJestBatchItemFailures runs
// testdata/batchfailures/batch-item-failures.test.js under Jest (Jest and
// the AWS SDK v3 from npm, pinned by the committed package-lock.json)
// against an emulator whose retries wait a millisecond: a function behind
// the Invoke API with BatchSize 1 and ReportBatchItemFailures whose first
// record fails twice is called three times; one whose record fails on
// every try, with MaximumRetryAttempts 2, is called three times and its
// on-failure destination gets one invocation record. CI runs it
// (.ci/run) after npm ci in testdata/batchfailures; without
// STREAM_JEST_TEST it does not run.
func TestStreamHandlerJestBatchItemFailures(t *testing.T) {
	if os.Getenv("STREAM_JEST_TEST") == "" {
		t.Skip("set STREAM_JEST_TEST=1 after npm ci in emulator/testdata/batchfailures")
	}
	node, err := exec.LookPath("node")
	require.NoError(t, err, "STREAM_JEST_TEST is set but node is not on PATH")
	dir, err := filepath.Abs(filepath.Join("testdata", "batchfailures"))
	require.NoError(t, err)
	jest := filepath.Join(dir, "node_modules", "jest", "bin", "jest.js")
	_, err = os.Stat(jest)
	require.NoError(t, err, "STREAM_JEST_TEST is set but the npm dependencies are missing (npm ci in %s)", dir)

	url, _, _ := emulatortest.NewServerWith(t, emulator.Options{StreamRetryBackoff: time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, jest, "--ci", "--colors=false")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DYNAMODB_ENDPOINT="+url)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	t.Logf("jest:\n%s", out.String())
	require.NoError(t, err, "jest failed")
	require.Contains(t, out.String(), "Tests:       3 passed, 3 total")
}
