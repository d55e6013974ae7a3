package emulator_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// Restores judged against the table as it is now, from the hostile
// side: tenant002's own key (bound by the callers map) tries to take
// tenant001's rows out of a table that opts in by its tags alone (no
// configuration entry matches its name) through a copy of it whose
// opt-in is not the table's now.

// taggedRoles are the tags that opt a table in as a command table.
var taggedRoles = []types.Tag{{Key: aws.String(conventions.TagRoles), Value: aws.String("command")}}

// TestConventionsRestoreDeletedTagged: a backup of a table that opted in
// by its tags, the table since deleted (or deleted and made again under
// its name without them), is refused to tenant002's key when it
// restores it under a name that opts in to nothing (AccessDeniedException,
// B10) and no table is made; the SYSTEM-free user backup restores for a
// cross-tenant key and an unbound one.
func TestConventionsRestoreDeletedTagged(t *testing.T) {
	env := newConvEnv(t)
	const name = "shared-tagged"
	env.createStreamTable(name, taggedRoles...)
	env.mustPut(name, commandItem(orderPK, orderSK, 1), createCnd)
	backup := env.backupOf(name)
	hostile := emulatortest.Client(t, env.e, "AKIDTENANT002")
	restore := func(db *dynamodb.Client, target string) error {
		_, err := db.RestoreTableFromBackup(env.ctx, &dynamodb.RestoreTableFromBackupInput{BackupArn: backup, TargetTableName: aws.String(target)})
		return err
	}
	require.Error(t, restore(hostile, "mine-live"), "the table opts in now")

	_, err := env.db.DeleteTable(env.ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)})
	require.NoError(t, err)
	requireTenantRefused(t, restore(hostile, "mine"), `copy or read as a whole table "`+name+`" (RestoreTableFromBackup)`)
	env.requireNoTable("mine")

	env.createStreamTable(name) // the name again, opting in to nothing
	requireTenantRefused(t, restore(hostile, "mine"), `copy or read as a whole table "`+name+`" (RestoreTableFromBackup)`)
	env.requireNoTable("mine")

	require.NoError(t, restore(emulatortest.Client(t, env.e, "AKIDADMIN"), "copy-admin"))
	require.NoError(t, restore(env.db, "copy-unbound"))
	out, err := env.db.Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String("copy-unbound")})
	require.NoError(t, err)
	require.Len(t, out.Items, 1)
}

// TestConventionsRestoreTaggedSince: a backup taken before the table's
// tags opted it in, and a point-in-time restore of rows written before
// then, are refused to tenant002's key once the table opts in; a
// cross-tenant key restores both.
func TestConventionsRestoreTaggedSince(t *testing.T) {
	env := newConvEnv(t)
	const name = "tagged-since"
	env.createStreamTable(name)
	env.mustPut(name, commandItem(orderPK, orderSK, 1), createCnd)
	_, err := env.db.UpdateContinuousBackups(env.ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String(name),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}})
	require.NoError(t, err)
	backup := env.backupOf(name)
	d, err := env.db.DescribeTable(env.ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	require.NoError(t, err)
	_, err = env.db.TagResource(env.ctx, &dynamodb.TagResourceInput{ResourceArn: d.Table.TableArn, Tags: taggedRoles})
	require.NoError(t, err)

	for _, key := range []string{"AKIDTENANT002", "AKIDADMIN"} {
		db := emulatortest.Client(t, env.e, key)
		_, errB := db.RestoreTableFromBackup(env.ctx, &dynamodb.RestoreTableFromBackupInput{BackupArn: backup, TargetTableName: aws.String("b-" + key)})
		_, errP := db.RestoreTableToPointInTime(env.ctx, &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String(name),
			TargetTableName: aws.String("p-" + key), UseLatestRestorableTime: aws.Bool(true)})
		if key == "AKIDADMIN" {
			require.NoError(t, errB)
			require.NoError(t, errP)
			continue
		}
		requireTenantRefused(t, errB, `copy or read as a whole table "`+name+`" (RestoreTableFromBackup)`)
		requireTenantRefused(t, errP, `copy or read as a whole table "`+name+`" (RestoreTableToPointInTime)`)
		env.requireNoTable("b-" + key)
		env.requireNoTable("p-" + key)
	}
}

// TestConventionsSnapshotBeforeOptIn: the emulator's snapshot restore of
// a snapshot taken before a table's tags opted it in judges the
// snapshot's rows against the tags the table has now and keeps them. A
// row with no tenant (A2) refuses the rewind (nothing rewound); once that
// row is gone from the snapshot, the rewind restores the rows, the
// table's conventions tag is still there, and tenant002's key is still
// refused tenant001's row and a Scan.
func TestConventionsSnapshotBeforeOptIn(t *testing.T) {
	env := newConvEnv(t)
	const name = "opted-later"
	env.createStreamTable(name)
	bad := commandItem("ORDER", "X", 1)
	bad["sk"] = s("X")
	env.mustPut(name, bad, "")
	env.mustPut(name, commandItem(orderPK, orderSK, 1), createCnd)
	before := env.e.Branches().Snapshot()
	_, err := env.db.DeleteItem(env.ctx, &dynamodb.DeleteItemInput{TableName: aws.String(name), Key: map[string]av{"pk": s("ORDER"), "sk": s("X")}})
	require.NoError(t, err)
	clean := env.e.Branches().Snapshot()
	d, err := env.db.DescribeTable(env.ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	require.NoError(t, err)
	arn := d.Table.TableArn
	_, err = env.db.TagResource(env.ctx, &dynamodb.TagResourceInput{ResourceArn: arn, Tags: taggedRoles})
	require.NoError(t, err)
	env.mustPut(name, commandItem(orderPK, orderSK, 2), createCnd)

	err = env.e.Branches().Restore(before)
	require.ErrorContains(t, err, `[conventions A2] command partition key "ORDER" has no tenant`)
	require.Nil(t, env.getItem(name, "ORDER", "X"), "a refused rewind rewound the table")
	require.NotNil(t, env.getItem(name, orderPK, orderSK+"@2"), "a refused rewind rewound the table")

	require.NoError(t, env.e.Branches().Restore(clean))
	require.Nil(t, env.getItem(name, orderPK, orderSK+"@2"), "the rewind restored the table")
	tags, err := env.db.ListTagsOfResource(env.ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: arn})
	require.NoError(t, err)
	require.Len(t, tags.Tags, 1, "the rewind kept the tags the table has now")
	require.Equal(t, conventions.TagRoles, *tags.Tags[0].Key)

	hostile := emulatortest.Client(t, env.e, "AKIDTENANT002")
	_, err = hostile.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String(name), Key: map[string]av{"pk": s(orderPK), "sk": s(orderSK + "@1")}})
	require.ErrorContains(t, err, "[conventions B10]")
	_, err = hostile.Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String(name)})
	require.ErrorContains(t, err, "[conventions B10]")
}
