package throttle

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	lib "github.com/dynamoemu/dynamoemu/internal/faults/throttle"
	"github.com/stretchr/testify/require"
)

// TestThrottlerMadeOnNeed: a namespace whose tables are not throttled
// (the default) keeps no throttler, nor any state of the stage, however
// they are used, created again or deleted; its first throttled table
// makes the throttler.
func TestThrottlerMadeOnNeed(t *testing.T) {
	env := servicetest.New(t, service.Config{})
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

	create("throttled", `,"Tags":[{"Key":"`+lib.Tag+`","Value":"on"}]`)
	env.Must("PutItem", `{"TableName":"throttled","Item":{"pk":{"S":"k"}}}`)
	require.NotNil(t, spaces.Made(sp), "a throttled table made no state")
	require.NotNil(t, spaces.Made(sp).th.Load(), "a throttled table made no throttler")
}
