package main

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/capture"
)

// TestRecordDynamoDBLocalReplayAgainstEmulator records the session with
// DynamoDB Local as the upstream (DYNAMODB_ENDPOINT, with
// DYNAMODB_ORACLE=dynamodb-local, as the conformance suite is pointed at
// it: conformance/oracle/dynamodb-local.sh start prints its URL) and
// replays it against the emulator: every departure is named with its
// request and both answers. The departures are DynamoDB Local's and the
// emulator's differences, logged for a reader to judge against AWS, not
// failures.
func TestRecordDynamoDBLocalReplayAgainstEmulator(t *testing.T) {
	endpoint := os.Getenv("DYNAMODB_ENDPOINT")
	if endpoint == "" || os.Getenv("DYNAMODB_ORACLE") != "dynamodb-local" {
		t.Skip("needs DYNAMODB_ENDPOINT of DynamoDB Local and DYNAMODB_ORACLE=dynamodb-local")
	}
	prefix := freshPrefix() // DynamoDB Local keeps the tables of earlier runs
	url, path, _ := startRecorder(t, endpoint, prefix)
	db, st := clients(url)
	require.GreaterOrEqual(t, runSession(t, db, st, prefix), 50)

	f, err := capture.ReadFile(path)
	require.NoError(t, err)
	send, closeFn, err := sender("")
	require.NoError(t, err)
	defer closeFn()
	res, err := replay(context.Background(), f, send, "fresh-", nil)
	require.NoError(t, err)
	require.Equal(t, len(f.Exchanges), res.Sent)
	for _, d := range res.Departures {
		require.NotEmpty(t, d.Request)
		require.NotEmpty(t, d.Recorded.Body)
		require.NotEmpty(t, d.Replayed.Body)
		require.NotEmpty(t, d.Diffs)
	}
	var buf bytes.Buffer
	res.writeText(&buf)
	t.Log("\n" + buf.String())
	if out := os.Getenv("DYNAMOEMU_REPLAY_REPORT"); out != "" {
		require.NoError(t, os.WriteFile(out, buf.Bytes(), 0o644))
		require.NoError(t, os.WriteFile(out+".capture.jsonl", must(os.ReadFile(path)), 0o644))
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
