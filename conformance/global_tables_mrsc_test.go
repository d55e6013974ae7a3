package conformance

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"
)

// Multi-Region strong consistency (MRSC) and global table witnesses, as
// AWS answered them in the ack-api-quirks lab notes for DynamoDB
// (aws-controllers-k8s dynamodb-controller
// docs/api-quirks/table-global-tables.md, verified 2026-10-09; each case
// names its finding). DynamoDB Local has no global tables.

const mrscRecord = "API_UpdateTable (MultiRegionConsistency, GlobalTableWitnessUpdates); ack-api-quirks DDB-TABLE-257..261"

// msgNothingWithMode is UpdateTable's answer to a request that changes
// nothing and gives MultiRegionConsistency (left out of the list).
const msgNothingWithMode = "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates, " +
	"SSESpecification, ReplicaUpdates, MultiAccountReplicaReady, ReplicaTransitRoleArn, DeletionProtectionEnabled, " +
	"OnDemandThroughput, WarmThroughput or TableClass is required"

// msgNothing is the same answer to a request without
// MultiRegionConsistency.
const msgNothing = "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates, " +
	"SSESpecification, ReplicaUpdates, MultiAccountReplicaReady, ReplicaTransitRoleArn, MultiRegionConsistency, DeletionProtectionEnabled, " +
	"OnDemandThroughput, WarmThroughput or TableClass is required"

func replicaCreate(region string) types.ReplicationGroupUpdate {
	return types.ReplicationGroupUpdate{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String(region)}}
}

func replicaDelete(region string) types.ReplicationGroupUpdate {
	return types.ReplicationGroupUpdate{Delete: &types.DeleteReplicationGroupMemberAction{RegionName: aws.String(region)}}
}

func witnessCreate(region string) types.GlobalTableWitnessGroupUpdate {
	return types.GlobalTableWitnessGroupUpdate{Create: &types.CreateGlobalTableWitnessGroupMemberAction{RegionName: aws.String(region)}}
}

func witnessDelete(region string) types.GlobalTableWitnessGroupUpdate {
	return types.GlobalTableWitnessGroupUpdate{Delete: &types.DeleteGlobalTableWitnessGroupMemberAction{RegionName: aws.String(region)}}
}

// TestMRSCCreateRules: the requests that cannot make an MRSC table of a
// table with no replicas, each with AWS's answer (DDB-TABLE-257), and
// nothing changed by them.
func TestMRSCCreateRules(t *testing.T) {
	AWSDiffers(t, lacking("global tables", mrscRecord))
	t.Parallel()
	key := uniqueKey(t)
	east := newClient(t, withAccessKey(key), withRegion("us-east-1"))
	table := createTable(t, east, tableDef(keyDef{"pk", "S"}, keyDef{}))
	strong := types.MultiRegionConsistencyStrong
	cases := []struct {
		name string
		in   dynamodb.UpdateTableInput
		msg  string
	}{
		{"STRONG with one replica and no witness", dynamodb.UpdateTableInput{MultiRegionConsistency: strong,
			ReplicaUpdates: []types.ReplicationGroupUpdate{replicaCreate("us-east-2")}},
			"Unsupported replica count for global tables with MultiRegionConsistency set to STRONG."},
		{"STRONG with three replicas", dynamodb.UpdateTableInput{MultiRegionConsistency: strong,
			ReplicaUpdates: []types.ReplicationGroupUpdate{replicaCreate("us-east-2"), replicaCreate("us-west-2"), replicaCreate("eu-west-1")}},
			"Unsupported replica count for global tables with MultiRegionConsistency set to STRONG."},
		{"witness updates are no change", dynamodb.UpdateTableInput{MultiRegionConsistency: strong,
			GlobalTableWitnessUpdates: []types.GlobalTableWitnessGroupUpdate{witnessCreate("us-west-2")}},
			msgNothingWithMode},
		{"witness without STRONG", dynamodb.UpdateTableInput{
			ReplicaUpdates:            []types.ReplicationGroupUpdate{replicaCreate("us-east-2")},
			GlobalTableWitnessUpdates: []types.GlobalTableWitnessGroupUpdate{witnessCreate("us-west-2")}},
			"MultiRegionConsistency must be set as STRONG when GlobalTableWitnessUpdates parameter is present."},
		{"witness with EVENTUAL", dynamodb.UpdateTableInput{MultiRegionConsistency: types.MultiRegionConsistencyEventual,
			ReplicaUpdates:            []types.ReplicationGroupUpdate{replicaCreate("us-east-2")},
			GlobalTableWitnessUpdates: []types.GlobalTableWitnessGroupUpdate{witnessCreate("us-west-2")}},
			"MultiRegionConsistency must be set as STRONG when GlobalTableWitnessUpdates parameter is present."},
		{"witness in the replica's region", dynamodb.UpdateTableInput{MultiRegionConsistency: strong,
			ReplicaUpdates:            []types.ReplicationGroupUpdate{replicaCreate("us-east-2")},
			GlobalTableWitnessUpdates: []types.GlobalTableWitnessGroupUpdate{witnessCreate("us-east-2")}},
			"Cannot target multiple regions with the same action"},
		{"witness in the table's region", dynamodb.UpdateTableInput{MultiRegionConsistency: strong,
			ReplicaUpdates:            []types.ReplicationGroupUpdate{replicaCreate("us-east-2")},
			GlobalTableWitnessUpdates: []types.GlobalTableWitnessGroupUpdate{witnessCreate("us-east-1")}},
			"Cannot add a witness in the same region as an existing replica when creating a global table with MultiRegionConsistency set to STRONG."},
		{"a region that holds no MRSC table", dynamodb.UpdateTableInput{MultiRegionConsistency: strong,
			ReplicaUpdates:            []types.ReplicationGroupUpdate{replicaCreate("us-west-1")},
			GlobalTableWitnessUpdates: []types.GlobalTableWitnessGroupUpdate{witnessCreate("us-west-2")}},
			"Unsupported Region(s) specified for global tables with MultiRegionConsistency set to STRONG: [us-west-1]."},
		{"with another change", dynamodb.UpdateTableInput{MultiRegionConsistency: strong, DeletionProtectionEnabled: aws.Bool(true),
			ReplicaUpdates:            []types.ReplicationGroupUpdate{replicaCreate("us-east-2")},
			GlobalTableWitnessUpdates: []types.GlobalTableWitnessGroupUpdate{witnessCreate("us-west-2")}},
			"Requests that modify replicas or witnesses must not also modify other fields"},
		{"STRONG with a Delete", dynamodb.UpdateTableInput{MultiRegionConsistency: strong,
			ReplicaUpdates: []types.ReplicationGroupUpdate{replicaDelete("us-east-2")}},
			"Only Replica Create actions are supported when MultiRegionConsistency parameter is provided."},
		{"two Creates without STRONG", dynamodb.UpdateTableInput{ // the one-action rule STRONG lifts (DDB-TABLE-258)
			ReplicaUpdates: []types.ReplicationGroupUpdate{replicaCreate("us-east-2"), replicaCreate("us-west-2")}},
			"Update table operation with more than one create or delete replica actions not allowed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			in.TableName = &table
			_, err := east.UpdateTable(ctx(t), &in)
			requireValidation(t, err, tc.msg)
			d := mustDescribe(t, east, table)
			require.Empty(t, d.Replicas)
			require.Empty(t, d.MultiRegionConsistency)
		})
	}
	// Two witnesses break the model's length constraint; the record
	// shows the value's start only.
	_, err := east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table, MultiRegionConsistency: strong,
		ReplicaUpdates:            []types.ReplicationGroupUpdate{replicaCreate("us-east-2")},
		GlobalTableWitnessUpdates: []types.GlobalTableWitnessGroupUpdate{witnessCreate("us-west-2"), witnessCreate("eu-west-1")}})
	requireValidationMatch(t, err, `^1 validation error detected: Value '\[GlobalTableWitnessGroupUpdate\(.*\)\]' at 'globalTableWitnessUpdates' failed to satisfy constraint: Member must have length less than or equal to 1$`)
}

// TestMRSCWitnessLifecycle: an MRSC table made of a replica and a
// witness (DDB-TABLE-257, -258), described alike in both replicas with
// its witness and no table in the witness's region (DDB-TABLE-259),
// frozen (DDB-TABLE-260) and dissolved by one UpdateTable that deletes
// the replica and the witness (DDB-TABLE-261).
func TestMRSCWitnessLifecycle(t *testing.T) {
	AWSDiffers(t, lacking("global tables", mrscRecord))
	t.Parallel()
	key := uniqueKey(t)
	east := newClient(t, withAccessKey(key), withRegion("us-east-1"))
	ohio := newClient(t, withAccessKey(key), withRegion("us-east-2"))
	oregon := newClient(t, withAccessKey(key), withRegion("us-west-2"))
	table := createTable(t, east, tableDef(keyDef{"pk", "S"}, keyDef{}))
	up, err := east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table, MultiRegionConsistency: types.MultiRegionConsistencyStrong,
		ReplicaUpdates:            []types.ReplicationGroupUpdate{replicaCreate("us-east-2")},
		GlobalTableWitnessUpdates: []types.GlobalTableWitnessGroupUpdate{witnessCreate("us-west-2")}})
	mustNoError(t, err)
	require.Equal(t, types.MultiRegionConsistencyStrong, up.TableDescription.MultiRegionConsistency)
	dissolved := false
	t.Cleanup(func() {
		if !dissolved {
			_, _ = east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table,
				ReplicaUpdates:            []types.ReplicationGroupUpdate{replicaDelete("us-east-2")},
				GlobalTableWitnessUpdates: []types.GlobalTableWitnessGroupUpdate{witnessDelete("us-west-2")}})
		}
	})
	settled := func(d *types.TableDescription) bool {
		return d.TableStatus == types.TableStatusActive && len(d.Replicas) == 1 && d.Replicas[0].ReplicaStatus == types.ReplicaStatusActive &&
			len(d.GlobalTableWitnesses) == 1 && d.GlobalTableWitnesses[0].WitnessStatus == types.WitnessStatusActive
	}
	var d *types.TableDescription
	eventually(t, "MRSC table ACTIVE", func() bool { d = mustDescribe(t, east, table); return settled(d) })
	require.Equal(t, types.MultiRegionConsistencyStrong, d.MultiRegionConsistency)
	require.Equal(t, "us-east-2", aws.ToString(d.Replicas[0].RegionName))
	require.Equal(t, "us-west-2", aws.ToString(d.GlobalTableWitnesses[0].RegionName))
	require.Equal(t, "2019.11.21", aws.ToString(d.GlobalTableVersion))
	var o *types.TableDescription
	eventually(t, "replica ACTIVE", func() bool {
		out, err := ohio.DescribeTable(ctx(t), &dynamodb.DescribeTableInput{TableName: &table})
		if err != nil {
			return false
		}
		o = out.Table
		return o.TableStatus == types.TableStatusActive && len(o.GlobalTableWitnesses) == 1
	})
	require.Equal(t, types.MultiRegionConsistencyStrong, o.MultiRegionConsistency)
	require.Equal(t, "us-east-1", aws.ToString(o.Replicas[0].RegionName))
	require.Equal(t, "us-west-2", aws.ToString(o.GlobalTableWitnesses[0].RegionName))
	_, err = oregon.DescribeTable(ctx(t), &dynamodb.DescribeTableInput{TableName: &table})
	var notFound *types.ResourceNotFoundException
	require.True(t, errors.As(err, &notFound), "the witness region holds no table: %v", err)

	// Frozen (DDB-TABLE-260).
	frozen := []struct {
		name string
		in   dynamodb.UpdateTableInput
		msg  string
	}{
		{"add a replica", dynamodb.UpdateTableInput{ReplicaUpdates: []types.ReplicationGroupUpdate{replicaCreate("eu-west-1")}},
			"Cannot add replicas to a global table with strong MultiRegionConsistency"},
		{"STRONG and add a replica", dynamodb.UpdateTableInput{MultiRegionConsistency: types.MultiRegionConsistencyStrong,
			ReplicaUpdates: []types.ReplicationGroupUpdate{replicaCreate("eu-west-1")}},
			"Unsupported replica count for global tables with MultiRegionConsistency set to STRONG."},
		{"delete the replica alone", dynamodb.UpdateTableInput{ReplicaUpdates: []types.ReplicationGroupUpdate{replicaDelete("us-east-2")}},
			"Update table delete operation does not include all witnesses."},
		{"EVENTUAL", dynamodb.UpdateTableInput{MultiRegionConsistency: types.MultiRegionConsistencyEventual,
			ReplicaUpdates: []types.ReplicationGroupUpdate{replicaCreate("eu-west-1")}},
			"MultiRegionConsistency parameter is unsupported on existing global table"},
		{"STRONG and a Delete", dynamodb.UpdateTableInput{MultiRegionConsistency: types.MultiRegionConsistencyStrong,
			ReplicaUpdates: []types.ReplicationGroupUpdate{replicaDelete("us-east-2")}},
			"Only Replica Create actions are supported when MultiRegionConsistency parameter is provided."},
		{"the witness alone", dynamodb.UpdateTableInput{GlobalTableWitnessUpdates: []types.GlobalTableWitnessGroupUpdate{witnessDelete("us-west-2")}},
			msgNothing},
	}
	for _, tc := range frozen {
		in := tc.in
		in.TableName = &table
		_, err := east.UpdateTable(ctx(t), &in)
		requireValidation(t, err, tc.msg)
	}
	// The record quotes this one from "one or more witnesses".
	_, err = east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table,
		ReplicaUpdates:            []types.ReplicationGroupUpdate{replicaDelete("us-east-2")},
		GlobalTableWitnessUpdates: []types.GlobalTableWitnessGroupUpdate{witnessDelete("eu-west-1")}})
	requireValidationMatch(t, err, `one or more witnesses were not part of the global table\. Please retry the request without these witnesses: \[eu-west-1\]\.$`)
	for _, c := range []*dynamodb.Client{east, ohio} {
		_, err = c.DeleteTable(ctx(t), &dynamodb.DeleteTableInput{TableName: &table})
		requireValidation(t, err, "Deletion of only one table replica is not supported for global tables with MultiRegionConsistency set to STRONG.")
	}
	require.True(t, settled(mustDescribe(t, east, table)), "nothing refused changed the table")

	// Dissolved (DDB-TABLE-261): a table of one region again.
	_, err = east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table,
		ReplicaUpdates:            []types.ReplicationGroupUpdate{replicaDelete("us-east-2")},
		GlobalTableWitnessUpdates: []types.GlobalTableWitnessGroupUpdate{witnessDelete("us-west-2")}})
	mustNoError(t, err)
	dissolved = true
	eventually(t, "a table of one region", func() bool {
		d := mustDescribe(t, east, table)
		return d.TableStatus == types.TableStatusActive && len(d.Replicas) == 0 && d.MultiRegionConsistency == "" &&
			len(d.GlobalTableWitnesses) == 0 && d.GlobalTableVersion == nil
	})
	eventually(t, "the replica's table gone", func() bool {
		_, err := ohio.DescribeTable(ctx(t), &dynamodb.DescribeTableInput{TableName: &table})
		return errors.As(err, &notFound)
	})
}

// TestMRSCThreeReplicas: STRONG with two replica Creates is the one
// request that creates two replicas at once (DDB-TABLE-258); such a
// table loses no single member (DeleteTable, or a Delete of one) and
// is dissolved by deleting both others in one request (DDB-TABLE-260,
// -261).
func TestMRSCThreeReplicas(t *testing.T) {
	AWSDiffers(t, lacking("global tables", mrscRecord))
	t.Parallel()
	key := uniqueKey(t)
	east := newClient(t, withAccessKey(key), withRegion("us-east-1"))
	oregon := newClient(t, withAccessKey(key), withRegion("us-west-2"))
	table := createTable(t, east, tableDef(keyDef{"pk", "S"}, keyDef{}))
	_, err := east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table, MultiRegionConsistency: types.MultiRegionConsistencyStrong,
		ReplicaUpdates: []types.ReplicationGroupUpdate{replicaCreate("us-east-2"), replicaCreate("us-west-2")}})
	mustNoError(t, err)
	both := []types.ReplicationGroupUpdate{replicaDelete("us-east-2"), replicaDelete("us-west-2")}
	dissolved := false
	t.Cleanup(func() {
		if !dissolved {
			_, _ = east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table, ReplicaUpdates: both})
		}
	})
	eventually(t, "MRSC table ACTIVE", func() bool {
		d := mustDescribe(t, east, table)
		return d.TableStatus == types.TableStatusActive && len(d.Replicas) == 2 &&
			d.Replicas[0].ReplicaStatus == types.ReplicaStatusActive && d.Replicas[1].ReplicaStatus == types.ReplicaStatusActive
	})
	d := mustDescribe(t, east, table)
	require.Equal(t, types.MultiRegionConsistencyStrong, d.MultiRegionConsistency)
	require.Empty(t, d.GlobalTableWitnesses)
	eventually(t, "replica ACTIVE", func() bool {
		out, err := oregon.DescribeTable(ctx(t), &dynamodb.DescribeTableInput{TableName: &table})
		return err == nil && out.Table.MultiRegionConsistency == types.MultiRegionConsistencyStrong && len(out.Table.Replicas) == 2
	})
	one := "Deletion of only one table replica is not supported for global tables with MultiRegionConsistency set to STRONG."
	_, err = east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table, ReplicaUpdates: both[:1]})
	requireValidation(t, err, one)
	_, err = oregon.DeleteTable(ctx(t), &dynamodb.DeleteTableInput{TableName: &table})
	requireValidation(t, err, one)
	_, err = east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table, ReplicaUpdates: both})
	mustNoError(t, err)
	dissolved = true
	eventually(t, "a table of one region", func() bool {
		d := mustDescribe(t, east, table)
		return d.TableStatus == types.TableStatusActive && len(d.Replicas) == 0 && d.MultiRegionConsistency == ""
	})
}

// TestMRSCOnEventualGlobalTable: STRONG cannot turn an eventually
// consistent global table into an MRSC one; the count rule answers
// first (DDB-TABLE-202), then the one for an existing global table.
func TestMRSCOnEventualGlobalTable(t *testing.T) {
	AWSDiffers(t, lacking("global tables", mrscRecord))
	t.Parallel()
	key := uniqueKey(t)
	east := newClient(t, withAccessKey(key), withRegion("us-east-1"))
	table := createTable(t, east, tableDef(keyDef{"pk", "S"}, keyDef{}))
	_, err := east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table,
		ReplicaUpdates: []types.ReplicationGroupUpdate{replicaCreate("us-east-2")}})
	mustNoError(t, err)
	t.Cleanup(func() {
		_, _ = east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table,
			ReplicaUpdates: []types.ReplicationGroupUpdate{replicaDelete("us-east-2")}})
	})
	eventually(t, "replica ACTIVE", func() bool {
		d := mustDescribe(t, east, table)
		return d.TableStatus == types.TableStatusActive && len(d.Replicas) == 1 && d.Replicas[0].ReplicaStatus == types.ReplicaStatusActive
	})
	require.Empty(t, mustDescribe(t, east, table).MultiRegionConsistency, "EVENTUAL is not shown (DDB-TABLE-201)")
	_, err = east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table, MultiRegionConsistency: types.MultiRegionConsistencyStrong,
		ReplicaUpdates: []types.ReplicationGroupUpdate{replicaCreate("us-west-2")}})
	requireValidation(t, err, "Unsupported replica count for global tables with MultiRegionConsistency set to STRONG.")
	_, err = east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table, MultiRegionConsistency: types.MultiRegionConsistencyStrong,
		ReplicaUpdates:            []types.ReplicationGroupUpdate{replicaCreate("us-west-2")},
		GlobalTableWitnessUpdates: []types.GlobalTableWitnessGroupUpdate{witnessCreate("eu-west-1")}})
	requireValidation(t, err, "MultiRegionConsistency parameter is unsupported on existing global table")
	require.Len(t, mustDescribe(t, east, table).Replicas, 1)
}

// TestUpdateTableConsistencyEnum: MultiRegionConsistency outside its
// enum is the model's constraint violation, before anything else, in the
// form AWS gives every enum member of the model (tableClass, billingMode:
// TestUpdateTable*); no record shows this member's.
func TestUpdateTableConsistencyEnum(t *testing.T) {
	AWSDiffers(t, "DynamoDB Local 3.3 ignores MultiRegionConsistency (\"Nothing to update\"); AWS: API_UpdateTable, MultiRegionConsistency Valid Values: EVENTUAL | STRONG")
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	_, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table, MultiRegionConsistency: "SOMETIMES",
		ReplicaUpdates: []types.ReplicationGroupUpdate{replicaCreate("us-east-2")}})
	requireValidation(t, err, "1 validation error detected: Value 'SOMETIMES' at 'multiRegionConsistency' failed to satisfy constraint: "+
		"Member must satisfy enum value set: [EVENTUAL, STRONG]")
}
