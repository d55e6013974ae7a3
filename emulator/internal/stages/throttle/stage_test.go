package throttle

import (
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	"github.com/dynamoemu/dynamoemu/internal/faults/throttle"
	"github.com/stretchr/testify/require"
)

// The stage under test, as the emulator installs it: the throttler is
// charged the units the core meters.
var testStages = []service.Stage{Stage{}}

// createTable makes table name, provisioned with one read and one write
// unit, with tags (JSON, "" for none).
func createTable(env *servicetest.Env, name, tags string) {
	body := `{"TableName":"` + name + `","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1},` +
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]`
	if tags != "" {
		body += `,"Tags":` + tags
	}
	env.Must("CreateTable", body+"}")
}

// put writes item {pk: k} to table name.
func put(env *servicetest.Env, name, k string) (int, string) {
	return env.Send("PutItem", `{"TableName":"`+name+`","Item":{"pk":{"S":"`+k+`"}}}`)
}

// drain writes to table name until the throttler refuses a write, and
// returns the refusal's body.
func drain(t *testing.T, env *servicetest.Env, name string) string {
	t.Helper()
	for i := range 8 {
		if status, body := put(env, name, "k"+string(rune('a'+i))); status != 200 {
			return body
		}
	}
	require.Fail(t, "not throttled", "8 writes to %s, of one write unit a second", name)
	return ""
}

// TestThrottleStage: the stage enforces a provisioned table's capacity
// with AWS's error and reason, refills it as the clock moves, starts a
// table made again after DeleteTable with full buckets, and leaves a
// table tagged off alone.
func TestThrottleStage(t *testing.T) {
	env := servicetest.New(t, service.Config{Stages: testStages, Settings: []service.Setting{Setting.With(throttle.Settings{Provisioned: true, Burst: time.Second})}})
	createTable(env, "tab", "")
	body := drain(t, env, "tab")
	require.Contains(t, body, "ProvisionedThroughputExceededException")
	require.Contains(t, body, "TableWriteProvisionedThroughputExceeded")
	require.True(t, strings.Contains(body, ":table/tab\""), "the reason names the table's ARN: %s", body)

	env.Clock.Advance(2 * time.Second)
	status, body := put(env, "tab", "after")
	require.Equal(t, 200, status, "the capacity did not refill: %s", body)

	drain(t, env, "tab")
	env.Must("DeleteTable", `{"TableName":"tab"}`)
	createTable(env, "tab", "")
	status, body = put(env, "tab", "again")
	require.Equal(t, 200, status, "a table made again started with the deleted one's buckets: %s", body)

	createTable(env, "off", `[{"Key":"`+throttle.Tag+`","Value":"off"}]`)
	for i := range 8 {
		status, body := put(env, "off", "k"+string(rune('a'+i)))
		require.Equal(t, 200, status, "a table tagged %s=off was throttled: %s", throttle.Tag, body)
	}
}

// TestThrottleStageUnset: without throttle.Settings (the emulator's
// default), no table is throttled.
func TestThrottleStageUnset(t *testing.T) {
	env := servicetest.New(t, service.Config{Stages: testStages})
	createTable(env, "tab", "")
	for i := range 8 {
		status, body := put(env, "tab", "k"+string(rune('a'+i)))
		require.Equal(t, 200, status, body)
	}
}
