package emulator_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// openConvPersisted is the conventions tests' emulator on the data
// directory dir, closed at the test's end (or by the returned close, once).
func openConvPersisted(t *testing.T, dir string) (*convEnv, func()) {
	t.Helper()
	e, err := emulator.New(emulator.Options{Conventions: convConfig(), SharedDB: true, DataDir: dir})
	require.NoError(t, err)
	closed := false
	closeIt := func() {
		if !closed {
			closed = true
			require.NoError(t, e.Close())
		}
	}
	t.Cleanup(closeIt)
	return &convEnv{t: t, ctx: context.Background(), e: e, db: emulatortest.Client(t, e, accessKey)}, closeIt
}

// TestConventionsTenantDeletedStreamRestart: the stream of a deleted
// table, rebuilt from the data directory after a restart, is guarded by
// the table it was of, as before the restart. A command table opted in
// by its name, one opted in by its tags and one by a TagResource after
// it was made, each holding tenant001's and tenant002's rows, are
// deleted; the one opted in by its tags is made again under its name
// without the opt-in, before the restart, after it, or not at all.
// After the restart tenant002's own key is refused DescribeStream,
// GetShardIterator and GetRecords on each deleted table's stream, and a
// cross-tenant key reads both tenants' records.
func TestConventionsTenantDeletedStreamRestart(t *testing.T) {
	const tagged, taggedLater = "orders-tagged", "orders-tagged-later"
	const other = "tenant002"
	for _, remake := range []string{"never", "before the restart", "after the restart"} {
		t.Run(remake, func(t *testing.T) {
			dir := t.TempDir()
			env, closeFirst := openConvPersisted(t, dir)
			ctx := env.ctx
			require.NoError(t, env.createTable(cmdTable, nil))
			optIn := types.Tag{Key: aws.String(conventions.TagRoles), Value: aws.String("command")}
			env.createStreamTable(tagged, optIn)
			env.createStreamTable(taggedLater, types.Tag{Key: aws.String("team"), Value: aws.String("orders")})
			desc, err := env.db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(taggedLater)})
			require.NoError(t, err)
			_, err = env.db.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: desc.Table.TableArn, Tags: []types.Tag{optIn}})
			require.NoError(t, err)
			theirs := commandItem("ORDER#"+other, orderSK, 1)
			theirs["tenantCode"] = s(other)
			arns := map[string]*string{}
			for _, name := range []string{cmdTable, tagged, taggedLater} {
				env.mustPut(name, commandItem(orderPK, orderSK, 1), createCnd)
				env.mustPut(name, theirs, createCnd)
				listed, err := emulatortest.StreamsClient(t, env.e, "AKIDADMIN").ListStreams(ctx,
					&dynamodbstreams.ListStreamsInput{TableName: aws.String(name)})
				require.NoError(t, err)
				require.Len(t, listed.Streams, 1)
				arns[name] = listed.Streams[0].StreamArn
				_, err = env.db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)})
				require.NoError(t, err)
			}
			if remake == "before the restart" {
				env.createStreamTable(tagged) // opting in to nothing
			}
			closeFirst()

			env, _ = openConvPersisted(t, dir)
			if remake == "after the restart" {
				env.createStreamTable(tagged)
			}
			admin := emulatortest.StreamsClient(t, env.e, "AKIDADMIN")
			hostile := emulatortest.StreamsClient(t, env.e, "AKIDTENANT002")
			for name, arn := range arns {
				d, err := admin.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: arn})
				require.NoError(t, err, name)
				require.Equal(t, stypes.StreamStatusDisabled, d.StreamDescription.StreamStatus, name)
				shard := d.StreamDescription.Shards[0].ShardId
				it, err := admin.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: arn, ShardId: shard,
					ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
				require.NoError(t, err, name)
				recs, err := admin.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator})
				require.NoError(t, err, name)
				require.Len(t, recs.Records, 2, name)
				require.Equal(t, &stypes.AttributeValueMemberS{Value: "ORDER#" + other},
					recs.Records[1].Dynamodb.Keys["pk"], name)

				_, err = hostile.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: arn})
				requireTenantRefused(t, err, `read the stream of table "`+name+`" (DescribeStream)`)
				_, err = hostile.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: arn, ShardId: shard,
					ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
				requireTenantRefused(t, err, `read the stream of table "`+name+`" (GetShardIterator)`)
				_, err = hostile.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator})
				requireTenantRefused(t, err, `read the stream of table "`+name+`" (GetRecords)`)
			}
		})
	}
}
