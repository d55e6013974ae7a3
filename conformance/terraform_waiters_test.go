package conformance

// The Terraform AWS provider's table waiters, replayed. The provider
// (hashicorp/terraform-provider-aws, internal/service/dynamodb: wait.go and
// status.go) waits after each change to an aws_dynamodb_table by polling a
// status function until it reads a target state: the table's TableStatus
// ACTIVE twice in a row after CreateTable; since provider 6.13, also the
// table's WarmThroughput.Status ACTIVE and each GSI's; a GSI's IndexStatus;
// TimeToLiveStatus, PointInTimeRecoveryStatus, SSEDescription.Status; a
// replica's ReplicaStatus; the table gone after DeleteTable. Its loop (terraform-plugin-sdk's
// StateChangeConf) fails on a state neither pending nor target, and after
// 20 reads in a row that find nothing ("couldn't find resource (21
// retries)"): a status function that finds no WarmThroughput reports
// nothing found, which is how a table without that member failed
// `terraform apply` (hashicorp/terraform-provider-aws issues 44344, 44793).
// The loop below has those rules; the status functions read what the
// provider's read, through the SDK as it does. No terraform is needed.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"
)

// tfWaiter is one of the provider's waits: the states it keeps polling
// through, those it stops at, and how many target reads in a row it needs.
type tfWaiter struct {
	name            string
	pending, target []string
	continuous      int                                         // reads of a target state in a row (1 if 0)
	status          func(context.Context) (bool, string, error) // found, state
}

// tfNotFoundChecks is how many reads in a row may find nothing before the
// wait fails (StateChangeConf's default).
const tfNotFoundChecks = 20

// wait runs w, failing the test if the provider's wait would fail.
func (w tfWaiter) wait(t *testing.T) {
	t.Helper()
	require.NoError(t, w.run(ctx(t), scaled(time.Minute), 20*time.Millisecond))
}

// run polls w.status until it passes or fails as the provider's wait
// would, every interval (the provider backs off from 100 ms to 10 s: the
// states, not the pace, are what is replayed), for at most limit.
func (w tfWaiter) run(c context.Context, limit, interval time.Duration) error {
	deadline := time.Now().Add(limit)
	notFound, inTarget := 0, 0
	need := max(w.continuous, 1)
	for {
		found, state, err := w.status(c)
		if err != nil {
			return fmt.Errorf("%s: %w", w.name, err)
		}
		switch {
		case !found && len(w.target) == 0: // waiting for it to be gone
			inTarget++
		case !found:
			notFound++
			inTarget = 0
			if notFound > tfNotFoundChecks {
				return fmt.Errorf("%s: couldn't find resource (%d retries)", w.name, notFound)
			}
		case slices.Contains(w.target, state):
			notFound = 0
			inTarget++
		case slices.Contains(w.pending, state):
			notFound, inTarget = 0, 0
		default:
			return fmt.Errorf("%s: unexpected state %q, wanted target %q", w.name, state, w.target)
		}
		if inTarget >= need {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: still %q (found %v) after %s", w.name, state, found, limit)
		}
		time.Sleep(interval)
	}
}

// tfTable is DescribeTable's table, or nil when it is not found.
func tfTable(ctx context.Context, c *dynamodb.Client, name string) (*types.TableDescription, error) {
	out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: &name})
	var nf *types.ResourceNotFoundException
	if errors.As(err, &nf) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return out.Table, nil
}

// tfGSI is the table's GSI of that name, or nil.
func tfGSI(ctx context.Context, c *dynamodb.Client, table, index string) (*types.GlobalSecondaryIndexDescription, error) {
	d, err := tfTable(ctx, c, table)
	if d == nil || err != nil {
		return nil, err
	}
	for i := range d.GlobalSecondaryIndexes {
		if aws.ToString(d.GlobalSecondaryIndexes[i].IndexName) == index {
			return &d.GlobalSecondaryIndexes[i], nil
		}
	}
	return nil, nil
}

// The provider's waits, by what they read.

func tfTableActive(c *dynamodb.Client, name string) tfWaiter {
	return tfWaiter{name: "table active", pending: []string{"CREATING", "UPDATING"}, target: []string{"ACTIVE"}, continuous: 2,
		status: func(ctx context.Context) (bool, string, error) {
			d, err := tfTable(ctx, c, name)
			if d == nil {
				return false, "", err
			}
			return true, string(d.TableStatus), nil
		}}
}

func tfTableDeleted(c *dynamodb.Client, name string) tfWaiter {
	w := tfTableActive(c, name)
	w.name, w.pending, w.target, w.continuous = "table deleted", []string{"ACTIVE", "DELETING"}, nil, 0
	return w
}

func tfTableWarmActive(c *dynamodb.Client, name string) tfWaiter {
	return tfWaiter{name: "table warm throughput active", pending: []string{"CREATING", "UPDATING"}, target: []string{"ACTIVE"},
		status: func(ctx context.Context) (bool, string, error) {
			d, err := tfTable(ctx, c, name)
			if d == nil || d.WarmThroughput == nil { // no member: nothing found
				return false, "", err
			}
			return true, string(d.WarmThroughput.Status), nil
		}}
}

func tfAllGSIActive(c *dynamodb.Client, name string) tfWaiter {
	return tfWaiter{name: "all GSIs active", pending: []string{"CREATING", "UPDATING"}, target: []string{"ACTIVE"},
		status: func(ctx context.Context) (bool, string, error) {
			d, err := tfTable(ctx, c, name)
			if d == nil {
				return false, "", err
			}
			for _, g := range d.GlobalSecondaryIndexes {
				if g.IndexStatus != types.IndexStatusActive {
					return true, string(g.IndexStatus), nil
				}
			}
			return true, "ACTIVE", nil
		}}
}

func tfGSIActive(c *dynamodb.Client, table, index string) tfWaiter {
	return tfWaiter{name: "GSI " + index + " active", pending: []string{"CREATING", "UPDATING"}, target: []string{"ACTIVE"},
		status: func(ctx context.Context) (bool, string, error) {
			g, err := tfGSI(ctx, c, table, index)
			if g == nil {
				return false, "", err
			}
			return true, string(g.IndexStatus), nil
		}}
}

func tfGSIDeleted(c *dynamodb.Client, table, index string) tfWaiter {
	w := tfGSIActive(c, table, index)
	w.name, w.pending, w.target = "GSI "+index+" deleted", []string{"ACTIVE", "DELETING", "UPDATING"}, nil
	return w
}

func tfGSIWarmActive(c *dynamodb.Client, table, index string) tfWaiter {
	return tfWaiter{name: "GSI " + index + " warm throughput active", pending: []string{"CREATING", "UPDATING"}, target: []string{"ACTIVE"},
		status: func(ctx context.Context) (bool, string, error) {
			g, err := tfGSI(ctx, c, table, index)
			if g == nil || g.WarmThroughput == nil {
				return false, "", err
			}
			return true, string(g.WarmThroughput.Status), nil
		}}
}

func tfTTLEnabled(c *dynamodb.Client, name string) tfWaiter {
	return tfWaiter{name: "TTL enabled", pending: []string{"DISABLED", "ENABLING"}, target: []string{"ENABLED"},
		status: func(ctx context.Context) (bool, string, error) {
			out, err := c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: &name})
			if err != nil || out.TimeToLiveDescription == nil {
				return false, "", err
			}
			return true, string(out.TimeToLiveDescription.TimeToLiveStatus), nil
		}}
}

func tfPITREnabled(c *dynamodb.Client, name string) tfWaiter {
	return tfWaiter{name: "PITR enabled", pending: []string{"ENABLING", "DISABLED"}, target: []string{"ENABLED"},
		status: func(ctx context.Context) (bool, string, error) {
			out, err := c.DescribeContinuousBackups(ctx, &dynamodb.DescribeContinuousBackupsInput{TableName: &name})
			if err != nil || out.ContinuousBackupsDescription == nil || out.ContinuousBackupsDescription.PointInTimeRecoveryDescription == nil {
				return false, "", err
			}
			return true, string(out.ContinuousBackupsDescription.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus), nil
		}}
}

func tfSSEUpdated(c *dynamodb.Client, name string) tfWaiter {
	return tfWaiter{name: "SSE updated", pending: []string{"DISABLING", "ENABLING", "UPDATING"}, target: []string{"DISABLED", "ENABLED"}, continuous: 2,
		status: func(ctx context.Context) (bool, string, error) {
			d, err := tfTable(ctx, c, name)
			if d == nil {
				return false, "", err
			}
			if d.SSEDescription == nil { // SSE off (AWS-owned key): no description
				return true, "DISABLED", nil
			}
			return true, string(d.SSEDescription.Status), nil
		}}
}

// tfReplica is statusReplicaUpdate and statusReplicaDelete: the replica
// of that region's ReplicaStatus, found false when the table lists none.
func tfReplica(c *dynamodb.Client, name, region string) func(context.Context) (bool, string, error) {
	return func(ctx context.Context) (bool, string, error) {
		d, err := tfTable(ctx, c, name)
		if d == nil {
			return false, "", err
		}
		for _, r := range d.Replicas {
			if aws.ToString(r.RegionName) == region {
				return true, string(r.ReplicaStatus), nil
			}
		}
		return false, "", nil
	}
}

func tfReplicaActive(c *dynamodb.Client, name, region string) tfWaiter {
	return tfWaiter{name: "replica " + region + " active", pending: []string{"CREATING", "UPDATING", "DELETING"}, target: []string{"ACTIVE"},
		status: tfReplica(c, name, region)}
}

func tfReplicaDeleted(c *dynamodb.Client, name, region string) tfWaiter {
	return tfWaiter{name: "replica " + region + " deleted", pending: []string{"CREATING", "UPDATING", "DELETING", "ACTIVE"},
		status: tfReplica(c, name, region)}
}

// tfTableInput is an aws_dynamodb_table with a GSI and a stream, as the
// provider creates it.
func tfTableInput(name string) *dynamodb.CreateTableInput {
	return &dynamodb.CreateTableInput{
		TableName:   &name,
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("gk"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("byG"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("gk"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
	}
}

// TestTerraformWaitersTable replays what `terraform apply` and `terraform
// destroy` of an aws_dynamodb_table wait for: the table ACTIVE twice in a
// row, every GSI ACTIVE, TTL ENABLED, SSE settled, a GSI added then
// removed, the table gone.
func TestTerraformWaitersTable(t *testing.T) {
	c := newClient(t, withAccessKey(uniqueKey(t)))
	name := uniqueName(t)
	_, err := c.CreateTable(ctx(t), tfTableInput(name))
	require.NoError(t, err)
	t.Cleanup(func() { deleteTable(t, c, name) })
	tfTableActive(c, name).wait(t)
	tfAllGSIActive(c, name).wait(t)

	_, err = c.UpdateTimeToLive(ctx(t), &dynamodb.UpdateTimeToLiveInput{TableName: &name,
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("expires"), Enabled: aws.Bool(true)}})
	require.NoError(t, err)
	tfTTLEnabled(c, name).wait(t)

	tfSSEUpdated(c, name).wait(t)

	_, err = c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("hk"), AttributeType: types.ScalarAttributeTypeS}},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName:  aws.String("byH"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("hk"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}}}})
	require.NoError(t, err)
	tfGSIActive(c, name, "byH").wait(t)
	tfTableActive(c, name).wait(t)

	_, err = c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name,
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String("byH")}}}})
	require.NoError(t, err)
	tfGSIDeleted(c, name, "byH").wait(t)
	tfTableActive(c, name).wait(t)

	_, err = c.DeleteTable(ctx(t), &dynamodb.DeleteTableInput{TableName: &name})
	require.NoError(t, err)
	tfTableDeleted(c, name).wait(t)
}

// TestTerraformWaitersReplica replays the waits after a replica is
// added to an aws_dynamodb_table and removed (waitReplicaActive,
// waitReplicaDeleted).
func TestTerraformWaitersReplica(t *testing.T) {
	AWSDiffers(t, lacking("global tables", "API_UpdateTable (ReplicaUpdates), API_ReplicaDescription"))
	c := newClient(t, withAccessKey(uniqueKey(t)))
	name := createTable(t, c, tfTableInput(uniqueName(t)))
	_, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name,
		ReplicaUpdates: []types.ReplicationGroupUpdate{{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String("us-west-2")}}}})
	require.NoError(t, err)
	tfReplicaActive(c, name, "us-west-2").wait(t)
	_, err = c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name,
		ReplicaUpdates: []types.ReplicationGroupUpdate{{Delete: &types.DeleteReplicationGroupMemberAction{RegionName: aws.String("us-west-2")}}}})
	require.NoError(t, err)
	tfReplicaDeleted(c, name, "us-west-2").wait(t)
}

// TestTerraformWaitersPITR replays the wait after point_in_time_recovery
// is turned on: PointInTimeRecoveryStatus ENABLED.
func TestTerraformWaitersPITR(t *testing.T) {
	AWSDiffers(t, "DynamoDB Local has no continuous backups: UpdateContinuousBackups is an unknown operation there")
	c := newClient(t, withAccessKey(uniqueKey(t)))
	name := createTable(t, c, tfTableInput(uniqueName(t)))
	_, err := c.UpdateContinuousBackups(ctx(t), &dynamodb.UpdateContinuousBackupsInput{TableName: &name,
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}})
	require.NoError(t, err)
	tfPITREnabled(c, name).wait(t)
}

// TestTerraformWaitersWarmThroughput replays the waits provider 6.13 added
// after CreateTable and after a GSI is created: WarmThroughput.Status
// ACTIVE for the table and for each GSI. A table or GSI without the member
// is "not found" to them, 21 times, and the apply fails.
func TestTerraformWaitersWarmThroughput(t *testing.T) {
	AWSDiffers(t, warmDiffers+" (the provider's waiters special-case DynamoDB Local by its ARN)")
	c := newClient(t, withAccessKey(uniqueKey(t)))
	name := uniqueName(t)
	_, err := c.CreateTable(ctx(t), tfTableInput(name))
	require.NoError(t, err)
	t.Cleanup(func() { deleteTable(t, c, name) })
	tfTableActive(c, name).wait(t)
	tfTableWarmActive(c, name).wait(t)
	tfGSIWarmActive(c, name, "byG").wait(t)

	_, err = c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("hk"), AttributeType: types.ScalarAttributeTypeS}},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName:  aws.String("byH"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("hk"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}}}})
	require.NoError(t, err)
	tfGSIActive(c, name, "byH").wait(t)
	tfGSIWarmActive(c, name, "byH").wait(t)
	tfTableWarmActive(c, name).wait(t)
}

// TestTerraformWaiterLoop checks the replayed loop itself against the
// provider's rules: nothing found 21 times fails, an unknown state fails,
// pending states are waited through, a target needs its reads in a row.
func TestTerraformWaiterLoop(t *testing.T) {
	seq := func(states ...string) func(context.Context) (bool, string, error) {
		i := 0
		return func(context.Context) (bool, string, error) {
			s := states[min(i, len(states)-1)]
			i++
			return s != "", s, nil
		}
	}
	ok := []tfWaiter{
		{name: "pending then target", pending: []string{"CREATING"}, target: []string{"ACTIVE"}, status: seq("CREATING", "CREATING", "ACTIVE")},
		{name: "twice in a row", pending: []string{"UPDATING"}, target: []string{"ACTIVE"}, continuous: 2, status: seq("ACTIVE", "UPDATING", "ACTIVE", "ACTIVE")},
		{name: "gone", pending: []string{"DELETING"}, status: seq("DELETING", "")},
		{name: "found late", target: []string{"ACTIVE"}, status: seq("", "", "", "ACTIVE")},
	}
	for _, w := range ok {
		t.Run(w.name, func(t *testing.T) { w.wait(t) })
	}
	fails := []struct {
		w    tfWaiter
		want string
	}{
		{tfWaiter{name: "never found", target: []string{"ACTIVE"}, status: seq("")}, "never found: couldn't find resource (21 retries)"},
		{tfWaiter{name: "unexpected", pending: []string{"CREATING"}, target: []string{"ACTIVE"}, status: seq("CREATING", "ARCHIVED")},
			`unexpected: unexpected state "ARCHIVED", wanted target ["ACTIVE"]`},
	}
	for _, f := range fails {
		require.EqualError(t, f.w.run(context.Background(), time.Minute, 0), f.want)
	}
}
