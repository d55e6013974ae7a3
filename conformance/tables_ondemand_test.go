package conformance

// OnDemandThroughput as CreateTable and UpdateTable define it on AWS:
// partial updates merge member by member, -1 removes a ceiling (echoed
// as -1 by UpdateTable, left out by DescribeTable), 0 and -2 are out of
// range, CreateTable refuses -1, both refuse it on a PROVISIONED table,
// and switching to PROVISIONED clears the ceilings. AWS's answers as
// captured against eu-west-2 by nubo-db/dynoxide's OnDemandThroughput
// work (its CHANGELOG and src/actions/update_table.rs, create_table.rs)
// and the ack-api-quirks lab notes (DDB-TABLE-051, DDB-TABLE-059,
// DDB-TABLE-178, DDB-TABLE-182: "OnDemandThroughput merges member by
// member; -1 clears a member ...; 0 and -2 are ValidationException").

import (
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"
)

// onDemand is an OnDemandThroughput; a member of 0 is left out.
func onDemand(read, write int64) *types.OnDemandThroughput {
	o := &types.OnDemandThroughput{}
	if read != 0 {
		o.MaxReadRequestUnits = aws.Int64(read)
	}
	if write != 0 {
		o.MaxWriteRequestUnits = aws.Int64(write)
	}
	return o
}

// renderOnDemand renders an OnDemandThroughput as "read/write", a
// member left out as "-", none as "<none>".
func renderOnDemand(o *types.OnDemandThroughput) string {
	if o == nil {
		return "<none>"
	}
	part := func(v *int64) string {
		if v == nil {
			return "-"
		}
		return strconv.FormatInt(*v, 10)
	}
	return part(o.MaxReadRequestUnits) + "/" + part(o.MaxWriteRequestUnits)
}

// pprOnDemandTable is a PAY_PER_REQUEST table with ceilings 20/15.
func pprOnDemandTable(t *testing.T, c *dynamodb.Client) string {
	t.Helper()
	in := tableDef(keyDef{"pk", "S"}, keyDef{})
	in.BillingMode = types.BillingModePayPerRequest
	in.OnDemandThroughput = onDemand(20, 15)
	return createTable(t, c, in)
}

func TestOnDemandThroughputMerges(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local stores OnDemandThroughput as sent")
	c := newClient(t)
	name := pprOnDemandTable(t, c)
	require.Equal(t, "20/15", renderOnDemand(mustDescribe(t, c, name).OnDemandThroughput))

	steps := []struct {
		set            *types.OnDemandThroughput
		answer, stored string
	}{
		{onDemand(40, 0), "40/15", "40/15"},   // a partial update merges
		{onDemand(0, -1), "40/-1", "40/-"},    // -1 removes that ceiling
		{onDemand(-1, 7), "-1/7", "-/7"},      // and the other
		{onDemand(-1, -1), "-1/-1", "<none>"}, // none left: no OnDemandThroughput
	}
	for _, st := range steps {
		out, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, OnDemandThroughput: st.set})
		require.NoError(t, err)
		require.Equal(t, st.answer, renderOnDemand(out.TableDescription.OnDemandThroughput), "UpdateTable %s", renderOnDemand(st.set))
		waitUpdated(t, c, name)
		require.Equal(t, st.stored, renderOnDemand(mustDescribe(t, c, name).OnDemandThroughput), "after %s", renderOnDemand(st.set))
	}
}

func TestOnDemandThroughputRange(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local takes any OnDemandThroughput")
	c := newClient(t)
	name := pprOnDemandTable(t, c)
	for _, tc := range []struct {
		set    *types.OnDemandThroughput
		member string
	}{
		{&types.OnDemandThroughput{MaxWriteRequestUnits: aws.Int64(0)}, "MaxWriteRequestUnits"},
		{onDemand(-2, 0), "MaxReadRequestUnits"},
		{onDemand(5, -2), "MaxWriteRequestUnits"},
	} {
		_, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, OnDemandThroughput: tc.set})
		requireValidation(t, err, "One or more parameter values were invalid: Requested "+tc.member+" for OnDemandThroughput for table is outside of valid range")
	}
	require.Equal(t, "20/15", renderOnDemand(mustDescribe(t, c, name).OnDemandThroughput))

	// CreateTable takes no -1 (nor 0): each member at least 1.
	for _, set := range []*types.OnDemandThroughput{onDemand(-1, 0), {MaxReadRequestUnits: aws.Int64(5), MaxWriteRequestUnits: aws.Int64(0)}} {
		in := tableDef(keyDef{"pk", "S"}, keyDef{})
		in.TableName = aws.String(uniqueName(t))
		in.BillingMode = types.BillingModePayPerRequest
		in.OnDemandThroughput = set
		_, err := c.CreateTable(ctx(t), in)
		member := "MaxReadRequestUnits"
		if set.MaxWriteRequestUnits != nil {
			member = "MaxWriteRequestUnits"
		}
		requireValidation(t, err, "One or more parameter values were invalid: Requested "+member+" for OnDemandThroughput for table is outside of valid range")
	}
}

func TestOnDemandThroughputProvisioned(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local takes OnDemandThroughput on a PROVISIONED table")
	c := newClient(t)

	// CreateTable: refused on PROVISIONED, naming the first member given.
	in := tableDef(keyDef{"pk", "S"}, keyDef{})
	in.TableName = aws.String(uniqueName(t))
	in.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}
	in.OnDemandThroughput = onDemand(0, 10)
	_, err := c.CreateTable(ctx(t), in)
	requireValidation(t, err, "One or more parameter values were invalid: MaxWriteRequestUnits for OnDemandThroughput cannot be specified when table BillingMode is PROVISIONED.")

	// UpdateTable: refused on a PROVISIONED table, read named first.
	name := pprOnDemandTable(t, c)
	mustUpdate(t, c, name, func(in *dynamodb.UpdateTableInput) {
		in.BillingMode = types.BillingModeProvisioned
		in.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(2), WriteCapacityUnits: aws.Int64(2)}
	})
	// Switching to PROVISIONED cleared the ceilings.
	require.Nil(t, mustDescribe(t, c, name).OnDemandThroughput)
	_, err = c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, OnDemandThroughput: onDemand(30, 30)})
	requireValidation(t, err, "One or more parameter values were invalid: MaxReadRequestUnits for OnDemandThroughput cannot be specified when the table BillingMode is PROVISIONED")
	require.Nil(t, mustDescribe(t, c, name).OnDemandThroughput)
}
