package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
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
	// A DescribeTable DynamoDB Local failed with 500 (runSession's
	// waited) is written as the upstream's failure, as an SDK would retry
	// it, and the replay skips it, saying why.
	failed := 0
	for _, e := range f.Exchanges {
		if e.Failed() {
			failed++
		}
	}
	require.Equal(t, len(f.Exchanges)-failed, res.Sent)
	require.Len(t, res.Skipped, failed)
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

// knownLocalDepartures are the answers in which DynamoDB Local and the
// emulator differ where the emulator follows AWS (the project's records)
// or where the question is open: by operation, the paths that may
// depart. An error's message member and wording; a table description's
// TableId, WarmThroughput and on-demand ProvisionedThroughput members;
// DeleteTable's description (DynamoDB Local answers the whole table);
// TransactWriteItems' ConsumedCapacity (DynamoDB Local counts a
// ConditionCheck as a transactional write; docs/captures.md); CreateTable's
// TableStatus and BillingModeSummary, where AWS answers CREATING and the
// BillingMode alone (conformance/records/table-answers.jsonl, seq 1) and
// DynamoDB Local ACTIVE with LastUpdateToPayPerRequestDateTime.
var knownLocalDepartures = map[string]*regexp.Regexp{
	"*":                  regexp.MustCompile(`^(.*\.)?(message|Message)$`),
	"CreateTable":        regexp.MustCompile(`^TableDescription\.(TableId|TableStatus|BillingModeSummary\.LastUpdateToPayPerRequestDateTime|.*WarmThroughput|.*ProvisionedThroughput.*)$`),
	"DescribeTable":      regexp.MustCompile(`^Table\.(TableId|.*WarmThroughput|.*ProvisionedThroughput.*)$`),
	"DeleteTable":        regexp.MustCompile(`^TableDescription\..*$`),
	"TransactWriteItems": regexp.MustCompile(`^ConsumedCapacity.*$`),
}

// TestBoto3SessionDynamoDBLocal records a boto3 session of more than 200
// calls against DynamoDB Local (DYNAMODB_ENDPOINT, DYNAMODB_ORACLE=
// dynamodb-local) and replays it against DynamoDB Local, which answers
// as recorded, and against the emulator, which departs only where
// DynamoDB Local is known to.
func TestBoto3SessionDynamoDBLocal(t *testing.T) {
	endpoint := os.Getenv("DYNAMODB_ENDPOINT")
	if endpoint == "" || os.Getenv("DYNAMODB_ORACLE") != "dynamodb-local" {
		t.Skip("needs DYNAMODB_ENDPOINT of DynamoDB Local and DYNAMODB_ORACLE=dynamodb-local")
	}
	if exec.Command("python3", "-c", "import boto3").Run() != nil {
		t.Skip("needs python3 with boto3")
	}
	prefix := freshPrefix()
	url, path, rec := startRecorder(t, endpoint, prefix)
	py := exec.Command("python3", "testdata/boto3_session.py", prefix)
	py.Env = append(os.Environ(), "AWS_ENDPOINT_URL="+url, "AWS_ACCESS_KEY_ID=AKIDBOTO", "AWS_SECRET_ACCESS_KEY="+clientSecret,
		"AWS_DEFAULT_REGION=us-east-1", "AWS_CONFIG_FILE=/dev/null", "AWS_SHARED_CREDENTIALS_FILE=/dev/null")
	out, err := py.CombinedOutput()
	require.NoError(t, err, "%s", out)
	rec.flushAll()
	f, err := capture.ReadFile(path)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(f.Exchanges), 200)

	res, err := replayCmd(t, "-endpoint", endpoint, path)
	require.NoError(t, err, "%+v", res)
	require.Zero(t, res.Summary.Departures)
	require.Equal(t, len(f.Exchanges), res.Summary.Sent)

	res, _ = replayCmd(t, path)
	require.Empty(t, res.Stopped)
	for _, d := range res.Departures {
		op := d.Target[strings.LastIndexByte(d.Target, '.')+1:]
		for _, df := range d.Diffs {
			t.Logf("line %d %s %s: %s: recorded %s, replayed %s", d.Line, op, d.Kind, df.Path, df.Recorded, df.Replayed)
			known := knownLocalDepartures["*"].MatchString(df.Path) || knownLocalDepartures[op] != nil && knownLocalDepartures[op].MatchString(df.Path)
			require.True(t, known, "line %d: %s departs on %s, not a known difference of DynamoDB Local's", d.Line, op, df.Path)
		}
	}
}
