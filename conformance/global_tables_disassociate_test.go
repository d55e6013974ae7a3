package conformance

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"
)

// TestGlobalTableDisassociate: UpdateTable's ReplicaUpdates Disassociate
// takes the local replica out of an eventually consistent global table
// and keeps it, with its items, as a table of its region; of two
// replicas both become tables of one region, of three the other two go
// on (developer guide "Disassociating a global table replica", API
// reference DisassociateReplicationGroupMemberAction). The replica's
// disassociation protection, on by default, must be off first, and only
// the request's own region can go: AWS's words for these refusals are
// on no record, so only their type is checked.
func TestGlobalTableDisassociate(t *testing.T) {
	AWSDiffers(t, lacking("global tables", "API_UpdateTable (ReplicaUpdates Disassociate), globaltables-disassociate"))
	t.Parallel()
	key := uniqueKey(t)
	east := newClient(t, withAccessKey(key), withRegion("us-east-1"))
	ireland := newClient(t, withAccessKey(key), withRegion("eu-west-1"))
	oregon := newClient(t, withAccessKey(key), withRegion("us-west-2"))
	table := createTable(t, east, tableDef(keyDef{"pk", "S"}, keyDef{}))
	addReplica := func(region string, want int) {
		t.Helper()
		_, err := east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table, ReplicaUpdates: []types.ReplicationGroupUpdate{replicaCreate(region)}})
		mustNoError(t, err)
		eventually(t, "replica ACTIVE", func() bool {
			d := mustDescribe(t, east, table)
			if d.TableStatus != types.TableStatusActive || len(d.Replicas) != want {
				return false
			}
			for _, r := range d.Replicas {
				if r.ReplicaStatus != types.ReplicaStatusActive {
					return false
				}
			}
			return true
		})
	}
	disassociate := func(c *dynamodb.Client, region string) error {
		_, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table, ReplicaUpdates: []types.ReplicationGroupUpdate{{
			Disassociate: &types.DisassociateReplicationGroupMemberAction{RegionName: aws.String(region), DisassociationMode: types.DisassociationModeWaitForReplication}}}})
		return err
	}
	addReplica("eu-west-1", 1)
	addReplica("us-west-2", 2)
	mustPut(t, east, table, item{"pk": s("before")})
	eventually(t, "the item replicated", func() bool { return mustGet(t, ireland, table, item{"pk": s("before")}) != nil })

	requireAPIError(t, disassociate(ireland, "eu-west-1"), "ValidationException", "") // protection on
	_, err := ireland.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table, DisassociationProtectionEnabled: aws.Bool(false)})
	mustNoError(t, err)
	requireAPIError(t, disassociate(ireland, "us-east-1"), "ValidationException", "") // not the local region
	mustNoError(t, disassociate(ireland, "eu-west-1"))

	// Three replicas: eu-west-1 is a table of its region, with its items;
	// the other two go on together.
	eventually(t, "eu-west-1 alone", func() bool {
		d := mustDescribe(t, ireland, table)
		return len(d.Replicas) == 0 && d.GlobalTableVersion == nil
	})
	require.NotNil(t, mustGet(t, ireland, table, item{"pk": s("before")}))
	eventually(t, "two replicas left", func() bool {
		d := mustDescribe(t, east, table)
		return len(d.Replicas) == 1 && aws.ToString(d.Replicas[0].RegionName) == "us-west-2"
	})
	mustPut(t, east, table, item{"pk": s("after")})
	eventually(t, "us-west-2 still replicates", func() bool { return mustGet(t, oregon, table, item{"pk": s("after")}) != nil })
	require.Nil(t, mustGet(t, ireland, table, item{"pk": s("after")}), "eu-west-1 no longer replicates")

	// Two replicas: both become tables of one region.
	_, err = oregon.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table, DisassociationProtectionEnabled: aws.Bool(false)})
	mustNoError(t, err)
	mustNoError(t, disassociate(oregon, "us-west-2"))
	for _, c := range []*dynamodb.Client{east, oregon} {
		eventually(t, "a table of one region", func() bool {
			d := mustDescribe(t, c, table)
			return len(d.Replicas) == 0 && d.GlobalTableVersion == nil
		})
	}
	require.NotNil(t, mustGet(t, oregon, table, item{"pk": s("after")}))
	requireAPIError(t, disassociate(oregon, "us-west-2"), "ValidationException", "") // no global table any more
	for _, c := range []*dynamodb.Client{ireland, oregon} {
		_, err = c.DeleteTable(ctx(t), &dynamodb.DeleteTableInput{TableName: &table})
		mustNoError(t, err)
	}
}
