package emulator_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// TestBranchStages: the stages take part in a branch's requests before
// its first write as after it, as in its base: the conventions' tenant
// guard on a read of a branch nobody wrote (its tables shared with the
// other branches of the base) and once written, and a fault rule (a
// stage watching the table's reads) on a read of a branch nobody wrote.
func TestBranchStages(t *testing.T) {
	env := newConvEnv(t)
	env.mustPut(cmdTable, commandItem(orderPK, orderSK, 1), createCnd)
	for _, name := range []string{"t1", "t2"} {
		_, err := env.e.Branches().Fork("shared", name)
		require.NoError(t, err)
	}
	key := map[string]av{"pk": s(orderPK), "sk": s(orderSK + "@1")}
	get := func(c *dynamodb.Client) (map[string]av, error) {
		out, err := c.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String(cmdTable), Key: key, ConsistentRead: aws.Bool(true)})
		if err != nil {
			return nil, err
		}
		return out.Item, nil
	}
	own := dynamodb.New(env.db.Options(), emulatortest.BranchHeader("t1"), emulatortest.WithTenant(tenant))
	other := dynamodb.New(env.db.Options(), emulatortest.BranchHeader("t1"), emulatortest.WithTenant("tenant002"))
	for _, written := range []bool{false, true} {
		_, err := get(other)
		_, msg := apiError(t, err)
		require.Contains(t, msg, "[conventions B10]", "written %v", written)
		it, err := get(own)
		require.NoError(t, err)
		require.NotNil(t, it)
		if !written {
			_, err = own.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String(cmdTable), Item: commandItem(orderPK, orderSK, 2), ConditionExpression: aws.String(createCnd)})
			require.NoError(t, err)
		}
	}
	require.Nil(t, env.getItem(cmdTable, orderPK, orderSK+"@2"), "the branch's write is its own")

	emulatortest.Inject(t, env.e, emulator.FaultRule{Table: cmdTable, Operations: []string{"GetItem"}, Count: 1, Fault: emulator.FaultInternalServerError})
	t2 := dynamodb.New(env.db.Options(), emulatortest.BranchHeader("t2"), emulatortest.WithTenant(tenant), func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
	_, err := get(t2)
	code, _ := apiError(t, err)
	require.Equal(t, "InternalServerError", code, "the fault fires on the branch's first read")
	it, err := get(t2)
	require.NoError(t, err)
	require.NotNil(t, it)
}
