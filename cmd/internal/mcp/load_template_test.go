package mcp

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// describe is the parts of DescribeTable a template says.
type describe struct {
	Table struct {
		TableName             string
		TableStatus           string
		KeySchema             []map[string]string
		AttributeDefinitions  []map[string]string
		BillingModeSummary    *struct{ BillingMode string }
		ProvisionedThroughput struct {
			ReadCapacityUnits, WriteCapacityUnits int
		}
		GlobalSecondaryIndexes []struct {
			IndexName  string
			KeySchema  []map[string]string
			Projection struct{ ProjectionType string }
		}
		LocalSecondaryIndexes []struct {
			IndexName  string
			KeySchema  []map[string]string
			Projection struct {
				ProjectionType   string
				NonKeyAttributes []string
			}
		}
		StreamSpecification *struct {
			StreamEnabled  bool
			StreamViewType string
		}
		LatestStreamArn           string
		DeletionProtectionEnabled bool
		Replicas                  []struct{ RegionName, ReplicaStatus string }
	}
}

// TestLoadTemplate: the tables of a cdk synth output, a SAM template and a
// global table describe as the templates say, with their TTL and PITR;
// the Outputs' stream ARN is the table's.
func TestLoadTemplate(t *testing.T) {
	ctx := context.Background()
	emu, err := emulator.New(emulator.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = emu.Close() })
	eng := newEngine(emu, "local", "us-east-1")
	load := func(name string) TemplateLoad {
		src, err := os.ReadFile("../../../internal/iac/testdata/" + name)
		require.NoError(t, err)
		require.True(t, IsTemplate(src))
		got, err := LoadTemplate(ctx, emu, "", "", src, TemplateOptions{})
		require.NoError(t, err)
		return got
	}
	desc := func(name string) describe {
		var d describe
		_, err := eng.callJSON(ctx, apiDynamoDB, "DescribeTable", map[string]any{"TableName": name}, &d)
		require.NoError(t, err)
		return d
	}
	ttl := func(name string) map[string]string {
		var d struct{ TimeToLiveDescription map[string]string }
		_, err := eng.callJSON(ctx, apiDynamoDB, "DescribeTimeToLive", map[string]any{"TableName": name}, &d)
		require.NoError(t, err)
		return d.TimeToLiveDescription
	}
	pitr := func(name string) string {
		var d struct {
			ContinuousBackupsDescription struct {
				PointInTimeRecoveryDescription struct{ PointInTimeRecoveryStatus string }
			}
		}
		_, err := eng.callJSON(ctx, apiDynamoDB, "DescribeContinuousBackups", map[string]any{"TableName": name}, &d)
		require.NoError(t, err)
		return d.ContinuousBackupsDescription.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus
	}

	cdk := load("cdk.template.json")
	require.Equal(t, []LoadedTable{{Table: "orders", Created: true}, {Table: "SessionsTableA0B1C2D3", Created: true}}, cdk.Tables)
	require.Equal(t, []string{"CDKMetadata (AWS::CDK::Metadata)"}, cdk.Skipped)
	d := desc("orders")
	require.Equal(t, "ACTIVE", d.Table.TableStatus)
	require.Equal(t, []map[string]string{{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}}, d.Table.KeySchema)
	require.Equal(t, "PAY_PER_REQUEST", d.Table.BillingModeSummary.BillingMode)
	require.Len(t, d.Table.GlobalSecondaryIndexes, 1)
	require.Equal(t, "gsi1", d.Table.GlobalSecondaryIndexes[0].IndexName)
	require.Equal(t, "ALL", d.Table.GlobalSecondaryIndexes[0].Projection.ProjectionType)
	require.Len(t, d.Table.LocalSecondaryIndexes, 1)
	require.Equal(t, "byCreated", d.Table.LocalSecondaryIndexes[0].IndexName)
	require.Equal(t, []string{"status"}, d.Table.LocalSecondaryIndexes[0].Projection.NonKeyAttributes)
	require.Equal(t, "NEW_AND_OLD_IMAGES", d.Table.StreamSpecification.StreamViewType)
	require.Equal(t, map[string]string{"AttributeName": "expiresAt", "TimeToLiveStatus": "ENABLED"}, ttl("orders"))
	require.Equal(t, d.Table.LatestStreamArn, cdk.Outputs["OrdersStreamArn"])
	require.Equal(t, "orders", cdk.Outputs["OrdersTableName"])
	s := desc("SessionsTableA0B1C2D3")
	require.Equal(t, 5, s.Table.ProvisionedThroughput.ReadCapacityUnits)
	require.Equal(t, "ENABLED", pitr("SessionsTableA0B1C2D3"))

	sam := load("sam.yaml")
	require.Equal(t, []LoadedTable{{Table: "orders-dev-us-east-1", Created: true}, {Table: "users-dev", Created: true}}, sam.Tables)
	o := desc("orders-dev-us-east-1")
	require.Equal(t, 5, o.Table.ProvisionedThroughput.ReadCapacityUnits)
	require.Equal(t, 2, o.Table.ProvisionedThroughput.WriteCapacityUnits)
	require.True(t, o.Table.DeletionProtectionEnabled)
	require.Equal(t, o.Table.LatestStreamArn, sam.Outputs["OrdersStream"])
	require.Equal(t, []map[string]string{{"AttributeName": "userId", "KeyType": "HASH"}}, desc("users-dev").Table.KeySchema)

	g := load("global.yaml")
	require.Equal(t, []LoadedTable{{Table: "carts", Created: true}}, g.Tables)
	c := desc("carts")
	require.Len(t, c.Table.Replicas, 1)
	require.Equal(t, "eu-west-1", c.Table.Replicas[0].RegionName, "the other replica")
	require.Equal(t, "ENABLED", pitr("carts"))

	again := load("cdk.template.json")
	require.False(t, again.Tables[0].Created)
	require.Contains(t, again.Tables[0].Note, "exists")

	_, err = LoadTemplate(ctx, emu, "", "", []byte("Resources:\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: !ImportValue shared\n"), TemplateOptions{})
	require.ErrorContains(t, err, "Fn::ImportValue")
}

// TestLoadTemplateAllOrNothing: a table DynamoDB refuses (a name of one
// character) after one it made leaves no table: the load deletes what it
// made and says nothing was created.
func TestLoadTemplateAllOrNothing(t *testing.T) {
	ctx := context.Background()
	emu, err := emulator.New(emulator.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = emu.Close() })
	table := func(id, name string) string {
		return "  " + id + ":\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: " + name +
			"\n      BillingMode: PAY_PER_REQUEST\n      AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]\n      KeySchema: [{AttributeName: pk, KeyType: HASH}]\n"
	}
	src := "Resources:\n" + table("A", "alpha") + table("B", "x")
	_, err = LoadTemplate(ctx, emu, "", "", []byte(src), TemplateOptions{})
	require.ErrorContains(t, err, "creating table x (B)")
	require.ErrorContains(t, err, "nothing was created")
	var list struct{ TableNames []string }
	_, err = newEngine(emu, "local", "us-east-1").callJSON(ctx, apiDynamoDB, "ListTables", map[string]any{}, &list)
	require.NoError(t, err)
	require.Empty(t, list.TableNames)
}

// TestLoadRealCDKSynth: aws-cdk-lib's own synth output (../iac/testdata/
// cdk-synth) loads; the tables describe as the app says.
func TestLoadRealCDKSynth(t *testing.T) {
	ctx := context.Background()
	emu, err := emulator.New(emulator.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = emu.Close() })
	src, err := os.ReadFile("../../../internal/iac/testdata/cdk-synth/OrdersStack.template.json")
	require.NoError(t, err)
	got, err := LoadTemplate(ctx, emu, "", "", src, TemplateOptions{})
	require.NoError(t, err)
	require.Equal(t, []LoadedTable{{Table: "CartsEE95721F", Created: true}, {Table: "orders", Created: true}}, got.Tables)
	eng := newEngine(emu, "local", "us-east-1")
	var d describe
	_, err = eng.callJSON(ctx, apiDynamoDB, "DescribeTable", map[string]any{"TableName": "orders"}, &d)
	require.NoError(t, err)
	require.Equal(t, "byStatus", d.Table.GlobalSecondaryIndexes[0].IndexName)
	require.Equal(t, "KEYS_ONLY", d.Table.LocalSecondaryIndexes[0].Projection.ProjectionType)
	require.Equal(t, d.Table.LatestStreamArn, got.Outputs["OrdersStream"])
	_, err = eng.callJSON(ctx, apiDynamoDB, "DescribeTable", map[string]any{"TableName": "CartsEE95721F"}, &d)
	require.NoError(t, err)
	require.Equal(t, "eu-west-1", d.Table.Replicas[0].RegionName)
}
