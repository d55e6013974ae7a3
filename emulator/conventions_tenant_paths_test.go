package emulator_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/smithy-go"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// The tenant guard (rule B10) on the paths beside the item operations:
// the Streams API's reads of a stream and ExportTableToPointInTime read
// every tenant's items, so a caller bound to a tenant is refused them as
// it is refused a Scan; a cross-tenant caller, and one bound to none,
// keep them.

// requireTenantRefused: err is the conventions layer's B10
// AccessDeniedException, its message saying what was read.
func requireTenantRefused(t *testing.T, err error, what string) {
	t.Helper()
	var ae smithy.APIError
	require.True(t, errors.As(err, &ae), "got %v, want AccessDeniedException", err)
	require.Equal(t, "AccessDeniedException", ae.ErrorCode())
	require.Contains(t, ae.ErrorMessage(), "[conventions B10]")
	require.Contains(t, ae.ErrorMessage(), `caller tenant "tenant002" may not `+what)
}

// TestConventionsTenantStreams: tenant002's own key (bound by callers)
// is refused DescribeStream, GetShardIterator (TRIM_HORIZON) and
// GetRecords (with an iterator another caller got) on the stream of a
// command table holding tenant001's row; ListStreams names streams, no
// item, and stays allowed. A cross-tenant key and an unbound one read
// the records.
func TestConventionsTenantStreams(t *testing.T) {
	env := newConvEnv(t)
	env.mustPut(cmdTable, commandItem(orderPK, orderSK, 1), createCnd)
	ctx := context.Background()
	hostile := emulatortest.StreamsClient(t, env.e, "AKIDTENANT002")
	listed, err := hostile.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{TableName: aws.String(cmdTable)})
	require.NoError(t, err)
	require.Len(t, listed.Streams, 1)
	arn := listed.Streams[0].StreamArn

	_, err = hostile.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: arn})
	requireTenantRefused(t, err, `read the stream of table "`+cmdTable+`" (DescribeStream)`)
	_, err = hostile.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: arn,
		ShardId: aws.String("shardId-00000000000000000000-00000001"), ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	requireTenantRefused(t, err, `read the stream of table "`+cmdTable+`" (GetShardIterator)`)

	for _, key := range []string{"AKIDADMIN", accessKey} {
		sc := emulatortest.StreamsClient(t, env.e, key)
		d, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: arn})
		require.NoError(t, err, key)
		it, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: arn,
			ShardId: d.StreamDescription.Shards[0].ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
		require.NoError(t, err, key)
		recs, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator})
		require.NoError(t, err, key)
		require.Len(t, recs.Records, 1, key)

		_, err = hostile.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator})
		requireTenantRefused(t, err, `read the stream of table "`+cmdTable+`" (GetRecords)`)
	}
}

// TestConventionsTenantExport: tenant002's own key is refused
// ExportTableToPointInTime of a data table holding tenant001's row, and
// nothing is written; a cross-tenant key exports it.
func TestConventionsTenantExport(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(dir+"/bkt", 0o755)) // the bucket, made as on S3
	e, err := emulator.New(emulator.Options{Conventions: convConfig(), SharedDB: true, ExportDir: dir})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, e.Close()) })
	env := &convEnv{t: t, ctx: context.Background(), e: e, db: emulatortest.Client(t, e, accessKey)}
	require.NoError(t, env.createTable(dataTable, nil))
	env.mustPut(dataTable, dataItem(orderPK, orderSK, 1), "")
	_, err = env.db.UpdateContinuousBackups(env.ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String(dataTable),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}})
	require.NoError(t, err)
	table, err := env.db.DescribeTable(env.ctx, &dynamodb.DescribeTableInput{TableName: aws.String(dataTable)})
	require.NoError(t, err)
	export := &dynamodb.ExportTableToPointInTimeInput{TableArn: table.Table.TableArn, S3Bucket: aws.String("bkt")}

	_, err = emulatortest.Client(t, e, "AKIDTENANT002").ExportTableToPointInTime(env.ctx, export)
	requireTenantRefused(t, err, `export table "`+dataTable+`" (ExportTableToPointInTime)`)
	written, statErr := os.ReadDir(dir + "/bkt")
	require.NoError(t, statErr)
	require.Empty(t, written, "a refused export wrote into the bucket")

	out, err := emulatortest.Client(t, e, "AKIDADMIN").ExportTableToPointInTime(env.ctx, export)
	require.NoError(t, err)
	require.Equal(t, types.ExportStatusCompleted, out.ExportDescription.ExportStatus)
}

// TestConventionsSubTaskIndex: rule B11 on the task module's sub-task
// rows, from the SDK: TaskService.createSubTask writes pk
// SFN_TASK#<tenant>, sk <taskType>#<code>#<index> with index the input's
// position (0, 1, ...), accepted; an index that is not a number is
// refused.
func TestConventionsSubTaskIndex(t *testing.T) {
	cfg := &conventions.Config{Tables: []conventions.TableConfig{{Match: "*tasks", Policy: conventions.Policy{Roles: conventions.RoleTasks}}}}
	e, err := emulator.New(emulator.Options{Conventions: cfg})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, e.Close()) })
	env := &convEnv{t: t, ctx: context.Background(), e: e, db: emulatortest.Client(t, e, accessKey)}
	require.NoError(t, env.createTable("local-demo-tasks", nil))
	row := func(sk string) map[string]av {
		return map[string]av{"pk": s("SFN_TASK#mbc"), "sk": s(sk), "id": s("SFN_TASK#mbc#" + sk), "version": n("0"),
			"tenantCode": s("mbc"), "code": s("01J"), "type": s("bulk"), "name": s("bulk"), "status": s("CREATED")}
	}
	for _, sk := range []string{"bulk#01HX7MBJK3V9WQBZ7XNDK5ZT2M", "bulk#01HX7MBJK3V9WQBZ7XNDK5ZT2M#0", "bulk#01HX7MBJK3V9WQBZ7XNDK5ZT2M#12"} {
		require.NoError(t, env.put("local-demo-tasks", row(sk), ""), sk)
	}
	err = env.put("local-demo-tasks", row("bulk#01HX7MBJK3V9WQBZ7XNDK5ZT2M#abc"), "")
	var ae smithy.APIError
	require.ErrorAs(t, err, &ae)
	require.Contains(t, ae.ErrorMessage(), "[conventions B11]")
	require.Contains(t, ae.ErrorMessage(), "its index is not a number")
}

// TestConventionsTenantDeletedStream: a deleted table's stream stays
// readable (24 hours on AWS) and is guarded as the live one was:
// tenant002's own key is refused DescribeStream, GetShardIterator and
// GetRecords on the stream of a deleted command table holding
// tenant001's row, and on the stream of a table opted in by its tags,
// deleted and made again under its name without them; a cross-tenant
// key still reads the deleted table's records.
func TestConventionsTenantDeletedStream(t *testing.T) {
	env := newConvEnv(t)
	ctx := context.Background()
	const tagged = "orders-tagged"
	env.createStreamTable(tagged, types.Tag{Key: aws.String(conventions.TagRoles), Value: aws.String("command")})
	env.mustPut(cmdTable, commandItem(orderPK, orderSK, 1), createCnd)
	env.mustPut(tagged, commandItem(orderPK, orderSK, 1), createCnd)
	admin := emulatortest.StreamsClient(t, env.e, "AKIDADMIN")
	arnOf := func(table string) *string {
		listed, err := admin.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{TableName: aws.String(table)})
		require.NoError(t, err)
		require.NotEmpty(t, listed.Streams)
		return listed.Streams[0].StreamArn
	}
	arns := map[string]*string{cmdTable: arnOf(cmdTable), tagged: arnOf(tagged)}
	for name := range arns {
		_, err := env.db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)})
		require.NoError(t, err)
	}
	env.createStreamTable(tagged) // made again, opting in to nothing

	hostile := emulatortest.StreamsClient(t, env.e, "AKIDTENANT002")
	for name, arn := range arns {
		d, err := admin.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: arn})
		require.NoError(t, err, name)
		shard := d.StreamDescription.Shards[0].ShardId
		it, err := admin.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: arn, ShardId: shard,
			ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
		require.NoError(t, err, name)
		recs, err := admin.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator})
		require.NoError(t, err, name)
		require.Len(t, recs.Records, 1, name)

		_, err = hostile.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: arn})
		requireTenantRefused(t, err, `read the stream of table "`+name+`" (DescribeStream)`)
		_, err = hostile.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: arn, ShardId: shard,
			ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
		requireTenantRefused(t, err, `read the stream of table "`+name+`" (GetShardIterator)`)
		_, err = hostile.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator})
		requireTenantRefused(t, err, `read the stream of table "`+name+`" (GetRecords)`)
	}
}

// createStreamTable makes table name (pk, sk strings) on demand with a
// NEW_IMAGE stream and tags.
func (env *convEnv) createStreamTable(name string, tags ...types.Tag) {
	_, err := env.db.CreateTable(env.ctx, &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}},
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage},
		Tags:                tags})
	require.NoError(env.t, err)
}
