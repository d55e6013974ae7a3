package throttle

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	"github.com/dynamoemu/dynamoemu/internal/faults/throttle"
	"github.com/stretchr/testify/require"
)

// TestThrottlerMadeOnNeed: a namespace whose tables are not throttled
// (the default) keeps no throttler, nor any state of the stage, however
// they are used, created again or deleted; its first throttled table
// makes the throttler. Only a throttled table keeps the stage's state.
func TestThrottlerMadeOnNeed(t *testing.T) {
	env := servicetest.New(t, service.Config{Stages: []service.Stage{Stage{}}})
	sp := env.Svc.Space("AKID1", "us-east-1")
	create := func(name, tags string) {
		env.Must("CreateTable", `{"TableName":"`+name+`","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1},`+
			`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]`+tags+`}`)
	}
	create("tab", "")
	for i := range 3 {
		env.Must("PutItem", `{"TableName":"tab","Item":{"pk":{"S":"k`+string(rune('a'+i))+`"}}}`)
		env.Must("GetItem", `{"TableName":"tab","Key":{"pk":{"S":"ka"}}}`)
	}
	env.Must("DeleteTable", `{"TableName":"tab"}`)
	create("tab", "")
	env.Must("GetItem", `{"TableName":"tab","Key":{"pk":{"S":"ka"}}}`)
	require.Nil(t, spaces.Made(sp), "the stage made state for tables it does not throttle")
	tab, ok := env.Svc.Space("AKID1", "us-east-1").Table("tab")
	require.True(t, ok)
	require.Nil(t, tables.Load(tab), "a table not throttled keeps the stage's state")

	create("throttled", `,"Tags":[{"Key":"`+throttle.Tag+`","Value":"on"}]`)
	env.Must("PutItem", `{"TableName":"throttled","Item":{"pk":{"S":"k"}}}`)
	require.NotNil(t, spaces.Made(sp), "a throttled table made no state")
	require.NotNil(t, spaces.Made(sp).th.Load(), "a throttled table made no throttler")
	th, ok := env.Svc.Space("AKID1", "us-east-1").Table("throttled")
	require.True(t, ok)
	require.NotNil(t, tables.Load(th), "a throttled table keeps no state of its throttling")
	require.True(t, tables.Load(th).on)

	// On demand, the tagged table has no capacity to enforce: the state
	// goes, and the stage no longer watches its uses.
	env.Must("UpdateTable", `{"TableName":"throttled","BillingMode":"PAY_PER_REQUEST"}`)
	for range 5 {
		env.Must("PutItem", `{"TableName":"throttled","Item":{"pk":{"S":"k"}}}`)
	}
	require.Nil(t, tables.Load(th), "a table no longer throttled keeps the stage's state")
}
