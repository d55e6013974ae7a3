package emulator_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// openPersisted opens an emulator on dir (-dbPath) whose functions are
// invoked at endpoint; the test closes it.
func openPersisted(t *testing.T, dir, endpoint string) (*emulator.Emulator, *dynamodb.Client) {
	t.Helper()
	e, err := emulator.New(emulator.Options{DataDir: dir})
	require.NoError(t, err)
	e.Streams().SetLambdaEndpoint(endpoint)
	return e, emulatortest.Client(t, e, "persisted")
}

// getMapping is Lambda's GetEventSourceMapping of uuid on e.
func getMapping(t *testing.T, e *emulator.Emulator, uuid string) map[string]any {
	t.Helper()
	srv := httptest.NewServer(e.Handler())
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/2015-03-31/event-source-mappings/" + uuid)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var c map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&c))
	return c
}

func putID(t *testing.T, db *dynamodb.Client, table, id string) {
	t.Helper()
	_, err := db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table),
		Item: map[string]types.AttributeValue{"id": str(id)}})
	require.NoError(t, err)
}

// TestStreamHandlerMappingsSurviveRestart: with a DataDir (-dbPath) a
// mapping made through the API is there after a restart, as Lambda
// keeps it: its UUID and settings, and its checkpoint, so a record
// handled before the restart is not delivered again and one written
// after is. A deleted mapping stays deleted, the last one too.
func TestStreamHandlerMappingsSurviveRestart(t *testing.T) {
	dir := t.TempDir()
	h := newHandlerServer(t, nil)
	ctx := context.Background()

	e, db := openPersisted(t, dir, h.url)
	out, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("orders"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage},
	})
	require.NoError(t, err)
	arn := aws.ToString(out.TableDescription.LatestStreamArn)
	id, err := e.Streams().CreateMapping(emulator.EventSourceMapping{EventSourceArn: aws.String(arn), FunctionName: aws.String("fn"),
		StartingPosition: aws.String("TRIM_HORIZON"), BatchSize: aws.Int64(7), MaximumRetryAttempts: aws.Int64(3),
		FilterPatterns: []string{`{"eventName":["INSERT"]}`}})
	require.NoError(t, err)
	gone, err := e.Streams().CreateMapping(emulator.EventSourceMapping{EventSourceArn: aws.String(arn), FunctionName: aws.String("gone"),
		StartingPosition: aws.String("LATEST")})
	require.NoError(t, err)
	require.NoError(t, e.Streams().DeleteMapping(gone))
	putID(t, db, "orders", "before")
	require.NoError(t, e.Streams().Drain(ctx))
	require.Equal(t, []string{"before"}, h.delivered())
	before, beforeConf := e.Streams().Mappings(), getMapping(t, e, id)
	require.NoError(t, e.Close())

	e, db = openPersisted(t, dir, h.url)
	after := e.Streams().Mappings()
	require.Len(t, after, 1)
	require.Equal(t, before[0].Position, after[0].Position)
	c := getMapping(t, e, id)
	require.Equal(t, beforeConf, c, "GetEventSourceMapping answers as before the restart")
	require.Equal(t, id, c["UUID"])
	require.Equal(t, arn, c["EventSourceArn"])
	require.EqualValues(t, 7, c["BatchSize"])
	require.EqualValues(t, 3, c["MaximumRetryAttempts"])
	require.Equal(t, "TRIM_HORIZON", c["StartingPosition"])
	require.Equal(t, map[string]any{"Filters": []any{map[string]any{"Pattern": `{"eventName":["INSERT"]}`}}}, c["FilterCriteria"])

	putID(t, db, "orders", "after")
	require.NoError(t, e.Streams().Drain(ctx))
	require.Equal(t, []string{"before", "after"}, h.delivered(), "the record handled before the restart is not delivered again")

	require.NoError(t, e.Streams().DeleteMapping(id))
	require.NoError(t, e.Close())
	e, _ = openPersisted(t, dir, h.url)
	defer e.Close()
	require.Empty(t, e.Streams().Mappings(), "the last mapping deleted stays deleted")
}

// TestStreamHandlerFileMappingsSurviveRestart: a mapping a mappings file
// makes is made again by the file at the next start with the UUID and
// checkpoint it had, not as a second mapping that reads the stream
// again.
func TestStreamHandlerFileMappingsSurviveRestart(t *testing.T) {
	dir := t.TempDir()
	h := newHandlerServer(t, nil)
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "mappings.json")
	require.NoError(t, os.WriteFile(file, []byte(`{"mappings":[{"TableName":"tasks-command","FunctionName":"sync",
		"StartingPosition":"TRIM_HORIZON"}]}`), 0o600))

	e, db := openPersisted(t, dir, h.url)
	require.NoError(t, e.Streams().LoadMappings(file))
	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("tasks-command"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage},
	})
	require.NoError(t, err)
	putID(t, db, "tasks-command", "t1")
	require.NoError(t, e.Streams().Drain(ctx))
	first := e.Streams().Mappings()
	require.Len(t, first, 1)
	require.NoError(t, e.Close())

	e, db = openPersisted(t, dir, h.url)
	defer e.Close()
	require.Empty(t, e.Streams().Mappings(), "a file's mapping waits for its file")
	require.NoError(t, e.Streams().LoadMappings(file))
	again := e.Streams().Mappings()
	require.Len(t, again, 1)
	require.Equal(t, first[0].UUID, again[0].UUID)
	require.Equal(t, first[0].EventSourceArn, again[0].EventSourceArn)
	putID(t, db, "tasks-command", "t2")
	require.NoError(t, e.Streams().Drain(ctx))
	require.Equal(t, []string{"t1", "t2"}, h.delivered())
}

// TestStreamHandlerNoMappingsNoState: a server that never had a mapping
// saves none: its data directory gets no file for them.
func TestStreamHandlerNoMappingsNoState(t *testing.T) {
	dir := t.TempDir()
	e, err := emulator.New(emulator.Options{DataDir: dir})
	require.NoError(t, err)
	require.NoError(t, e.Close())
	var names []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		names = append(names, filepath.Base(p))
		return err
	}))
	for _, n := range names {
		require.NotContains(t, n, "eventsourcemappings")
	}
}

// TestStreamHandlerCheckpointPastTheEnd: a saved checkpoint past the
// end of its stream (a record delivered, then lost with a killed process
// before its write reached the log) is moved back to the end at the next
// start, so the records written next, which take those sequence numbers
// again, are delivered, not skipped.
func TestStreamHandlerCheckpointPastTheEnd(t *testing.T) {
	dir := t.TempDir()
	h := newHandlerServer(t, nil)
	ctx := context.Background()
	e, db := openPersisted(t, dir, h.url)
	out, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("orders"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage},
	})
	require.NoError(t, err)
	_, err = e.Streams().CreateMapping(emulator.EventSourceMapping{EventSourceArn: out.TableDescription.LatestStreamArn,
		FunctionName: aws.String("fn"), StartingPosition: aws.String("TRIM_HORIZON")})
	require.NoError(t, err)
	putID(t, db, "orders", "a")
	require.NoError(t, e.Streams().Drain(ctx))
	require.NoError(t, e.Close())

	var path string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == "eventsourcemappings.state" {
			path = p
		}
		return err
	}))
	require.NotEmpty(t, path, "no saved mappings")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var set map[string][]map[string]any
	require.NoError(t, json.Unmarshal(b, &set))
	require.Len(t, set["Mappings"], 1)
	set["Mappings"][0]["Position"] = "10000000000000000000"
	b, err = json.Marshal(set)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o644))

	e, db = openPersisted(t, dir, h.url)
	defer e.Close()
	putID(t, db, "orders", "b")
	require.NoError(t, e.Streams().Drain(ctx))
	require.Equal(t, []string{"a", "b"}, h.delivered())
}

// TestStreamHandlerWindowSurvivesRestart: a tumbling window's state is
// saved with the checkpoint, so a restart on the same DataDir (-dbPath)
// goes on with it. TumblingWindowInSeconds 900 and BatchSize 1: three
// records, a drain and a stop, a start on the same directory, two more
// records and the clock 20 minutes on: the window's final invocation
// has a state counting five records, and no record is delivered twice.
func TestStreamHandlerWindowSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	count := func(_ int, iv invocation) reply {
		n, _ := iv.State["n"].(float64)
		return reply{body: fmt.Sprintf(`{"state":{"n":%d}}`, int(n)+len(iv.Records))}
	}
	h := newHandlerServer(t, count)
	ctx := context.Background()

	e, db := openPersisted(t, dir, h.url)
	// The window 12:00-12:15 holds every record, however slow the machine.
	_, err := e.Clock().SetNow(time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC))
	require.NoError(t, err)
	out, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("orders"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage},
	})
	require.NoError(t, err)
	_, err = e.Streams().CreateMapping(emulator.EventSourceMapping{EventSourceArn: out.TableDescription.LatestStreamArn,
		FunctionName: aws.String("fn"), StartingPosition: aws.String("TRIM_HORIZON"),
		BatchSize: aws.Int64(1), TumblingWindowInSeconds: aws.Int64(900)})
	require.NoError(t, err)
	for _, id := range []string{"r1", "r2", "r3"} {
		putID(t, db, "orders", id)
	}
	require.NoError(t, e.Streams().Drain(ctx))
	require.NoError(t, e.Close())

	e, db = openPersisted(t, dir, h.url)
	defer e.Close()
	for _, id := range []string{"r4", "r5"} {
		putID(t, db, "orders", id)
	}
	e.Clock().Advance(20 * time.Minute)
	require.NoError(t, e.Streams().Drain(ctx))

	ivs := h.invocations()
	require.NotEmpty(t, ivs)
	last := ivs[len(ivs)-1]
	require.True(t, last.Final, "the window's final invocation")
	require.Empty(t, last.Records)
	require.Equal(t, map[string]any{"n": float64(5)}, last.State, "the state counts the records before the restart too")
	require.Equal(t, []string{"r1", "r2", "r3", "r4", "r5"}, h.delivered(), "each record once")
	for _, iv := range ivs[:len(ivs)-1] {
		require.False(t, iv.Final)
		require.Len(t, iv.Records, 1)
		require.Equal(t, "2030-01-01T12:00:00Z", iv.Window.Start)
	}
}
