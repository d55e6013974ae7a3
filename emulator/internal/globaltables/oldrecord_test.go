package globaltables

import (
	"encoding/json"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/stretchr/testify/require"
)

// Definition records of the two members of a 2019.11.21 global table
// with replica auto scaling, as the emulator wrote them while the
// feature was in the service core: its part in the record's "ext"
// object. us-east-1 has the replica in eu-west-1 (read capacity
// override 3) and auto scaling; eu-west-1 was made from us-east-1.
const (
	oldRecordEast = `{"v":1,"name":"gtab","id":"83c44fad-babc-4deb-8257-a4ab69344784","arn":"arn:aws:dynamodb:us-east-1:000000000000:table/gtab","created":"2026-11-22T12:00:00Z","keySchema":[{"n":"pk","v":"HASH"}],"attrDefs":[{"n":"pk","v":"S"}],"billingMode":"PROVISIONED","throughput":{"read":5,"write":5},"stream":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"},"streamLabel":"2026-11-22T12:00:00.000","streamShard":"shardId-00000001795348800000-b12d6482","streamRegion":"us-east-1","streamCreated":"2026-11-22T12:00:00Z","ext":{"autoScaling":[{"write":true,"settings":{"Min":5,"Max":50,"PolicyName":"DynamoDBUtilization","TargetPolicy":{"TargetValue":70}}},{"region":"us-east-1","settings":{"Min":2,"Max":20}}],"replicas":[{"region":"eu-west-1","status":"CREATING","until":"2026-11-22T12:00:00Z","next":"ACTIVE","source":"us-east-1","created":"2026-11-22T12:00:00Z","read":3}],"globalVersion":"2019.11.21"}}`
	oldRecordWest = `{"v":1,"name":"gtab","id":"a53042df-58d1-4b65-8c06-4a6778da21b9","arn":"arn:aws:dynamodb:eu-west-1:000000000000:table/gtab","created":"2026-11-22T12:00:00Z","keySchema":[{"n":"pk","v":"HASH"}],"attrDefs":[{"n":"pk","v":"S"}],"billingMode":"PROVISIONED","throughput":{"read":3,"write":5},"stream":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"},"streamLabel":"2026-11-22T12:00:00.000","streamShard":"shardId-00000001795348800000-db5a8a57","streamRegion":"eu-west-1","streamCreated":"2026-11-22T12:00:00Z","ext":{"autoScaling":[{"write":true,"settings":{"Min":5,"Max":50,"PolicyName":"DynamoDBUtilization","TargetPolicy":{"TargetValue":70}}},{"region":"us-east-1","settings":{"Min":2,"Max":20}}],"replicas":[{"region":"us-east-1","status":"ACTIVE"}],"globalVersion":"2019.11.21","source":"us-east-1","sourceAt":"2026-11-22T12:00:00Z"}}`
)

// TestOldRecordsLoad: a namespace whose definition records keep the
// feature's part in their "ext" object (records of an earlier version)
// loads as before: DescribeTable shows the replica, the auto scaling
// settings are there, writes replicate again, the 24-hour source rule
// holds; written again, the part is the record's "globalTables" member.
func TestOldRecordsLoad(t *testing.T) {
	e := newClockEnv(t, Config{})
	east, west := testkit.Auth("gt", "us-east-1"), testkit.Auth("gt", "eu-west-1")
	regions := []struct{ auth, ns, record string }{{east, "gt/us-east-1", oldRecordEast}, {west, "gt/eu-west-1", oldRecordWest}}
	for _, r := range regions {
		e.auth = r.auth
		e.must("CreateTable", `{"TableName":"gtab",`+provisioned+`,"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"},
			"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
		var d struct{ Table struct{ TableId string } }
		testkit.MustUnmarshal(t, e.must("DescribeTable", `{"TableName":"gtab"}`), &d)
		// The definition as a log of the earlier version replays it.
		err := e.svc.Namespace(r.ns).Apply(&storage.Record{Kind: storage.RecordMeta, Table: d.Table.TableId, Key: service.DefinitionKey, Value: []byte(r.record)})
		require.NoError(t, err)
	}

	e.auth = east
	var d struct {
		Table struct {
			GlobalTableVersion string
			Replicas           []struct {
				RegionName, ReplicaStatus     string
				ProvisionedThroughputOverride struct{ ReadCapacityUnits int }
			}
		}
	}
	testkit.MustUnmarshal(t, e.must("DescribeTable", `{"TableName":"gtab"}`), &d)
	require.Equal(t, "2019.11.21", d.Table.GlobalTableVersion)
	require.Len(t, d.Table.Replicas, 1)
	require.Equal(t, "eu-west-1", d.Table.Replicas[0].RegionName)
	require.Equal(t, "ACTIVE", d.Table.Replicas[0].ReplicaStatus)
	require.Equal(t, 3, d.Table.Replicas[0].ProvisionedThroughputOverride.ReadCapacityUnits)

	type settings struct{ MinimumUnits, MaximumUnits int64 }
	var as struct {
		TableAutoScalingDescription struct {
			Replicas []struct {
				RegionName                                         string
				ReplicaProvisionedReadCapacityAutoScalingSettings  settings
				ReplicaProvisionedWriteCapacityAutoScalingSettings settings
			}
		}
	}
	testkit.MustUnmarshal(t, e.must("DescribeTableReplicaAutoScaling", `{"TableName":"gtab"}`), &as)
	rs := as.TableAutoScalingDescription.Replicas
	require.Len(t, rs, 2)
	require.Equal(t, "us-east-1", rs[0].RegionName)
	require.Equal(t, settings{2, 20}, rs[0].ReplicaProvisionedReadCapacityAutoScalingSettings)
	require.Equal(t, settings{5, 50}, rs[0].ReplicaProvisionedWriteCapacityAutoScalingSettings)

	// Replication was routed again by the replay, both ways.
	e.must("PutItem", `{"TableName":"gtab","Item":{"pk":{"S":"a"},"v":{"S":"east"}}}`)
	e.svc.DrainReplication()
	e.auth = west
	require.Contains(t, e.must("GetItem", `{"TableName":"gtab","Key":{"pk":{"S":"a"}}}`), `"east"`)
	e.must("PutItem", `{"TableName":"gtab","Item":{"pk":{"S":"b"},"v":{"S":"west"}}}`)
	e.svc.DrainReplication()
	e.auth = east
	require.Contains(t, e.must("GetItem", `{"TableName":"gtab","Key":{"pk":{"S":"b"}}}`), `"west"`)

	// eu-west-1 was made from us-east-1 less than 24 hours ago.
	out := e.refused("DeleteTable", `{"TableName":"gtab"}`, "ValidationException")
	require.Contains(t, out, "24 hours")

	// Written again, the part is a member of its own, no longer in "ext".
	e.must("UpdateTableReplicaAutoScaling", `{"TableName":"gtab","ProvisionedWriteCapacityAutoScalingUpdate":{"MaximumUnits":60}}`)
	tb, ok := e.svc.Space("gt", "us-east-1").Table("gtab")
	require.True(t, ok)
	var top map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(tb.Definition().Record(), &top))
	require.NotContains(t, top, "ext")
	var x part
	require.NoError(t, json.Unmarshal(top[slotName], &x))
	require.Equal(t, globalVersion2019, x.GlobalVersion)
	require.Len(t, x.Replicas, 1)
	require.Equal(t, int64(3), x.Replicas[0].ReadOverride)
	require.Len(t, x.AutoScaling, 2)
}
