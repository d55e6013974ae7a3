package globaltables

import (
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/stretchr/testify/require"
)

// TestGlobalTableReplication: a replica made by UpdateTable's
// ReplicaUpdates has the table's items, then receives the writes of
// every replica after the replication delay (or a drain), last writer
// winning; DescribeTable lists the replicas; Delete removes one.
func TestGlobalTableReplication(t *testing.T) {
	e := newClockEnv(t, Config{})
	east, west := testkit.Auth("gtkey", "us-east-1"), testkit.Auth("gtkey", "eu-west-1")
	in := func(auth string) func(op, body string) string {
		return func(op, body string) string {
			t.Helper()
			e.auth = auth
			return e.must(op, body)
		}
	}
	E, W := in(east), in(west)
	get := func(do func(string, string) string, pk string) string {
		t.Helper()
		var out struct{ Item map[string]map[string]string }
		testkit.MustUnmarshal(t, do("GetItem", `{"TableName":"glob","Key":{"pk":{"S":"`+pk+`"}},"ConsistentRead":true}`), &out)
		return out.Item["v"]["S"]
	}
	E("CreateTable", `{"TableName":"glob","BillingMode":"PAY_PER_REQUEST","StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"},
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
		"GlobalSecondaryIndexes":[{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`)
	E("PutItem", `{"TableName":"glob","Item":{"pk":{"S":"before"},"v":{"S":"1"},"g":{"S":"x"}}}`)
	E("UpdateTable", `{"TableName":"glob","ReplicaUpdates":[{"Create":{"RegionName":"eu-west-1"}}]}`)
	if got := get(W, "before"); got != "1" {
		t.Errorf("replica: got item before = %q, want the table's 1", got)
	}
	var d struct {
		Table struct {
			GlobalTableVersion string
			Replicas           []struct{ RegionName, ReplicaStatus string }
		}
	}
	testkit.MustUnmarshal(t, E("DescribeTable", `{"TableName":"glob"}`), &d)
	if d.Table.GlobalTableVersion != "2019.11.21" || len(d.Table.Replicas) != 1 || d.Table.Replicas[0].RegionName != "eu-west-1" {
		t.Errorf("source DescribeTable: got %+v", d.Table)
	}
	testkit.MustUnmarshal(t, W("DescribeTable", `{"TableName":"glob"}`), &d)
	if len(d.Table.Replicas) != 1 || d.Table.Replicas[0].RegionName != "us-east-1" {
		t.Errorf("replica DescribeTable: got %+v", d.Table)
	}

	// With a delay, a write reaches the other region only when due.
	e.svc.SetReplicationDelay(time.Second)
	E("PutItem", `{"TableName":"glob","Item":{"pk":{"S":"a"},"v":{"S":"east"},"g":{"S":"x"}}}`)
	if got := get(W, "a"); got != "" {
		t.Errorf("before the delay: got %q in the replica, want nothing yet", got)
	}
	e.clock.Advance(time.Second)
	if got := get(W, "a"); got != "east" {
		t.Errorf("after the delay: got %q, want east", got)
	}
	// The replica's GSI has it too (the write went through storage).
	var q struct{ Count int }
	testkit.MustUnmarshal(t, W("Query", `{"TableName":"glob","IndexName":"byG","KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"x"}}}`), &q)
	if q.Count != 2 {
		t.Errorf("replica GSI: got %d items, want 2", q.Count)
	}
	// Conflicting writes: the later one wins in both regions.
	W("PutItem", `{"TableName":"glob","Item":{"pk":{"S":"c"},"v":{"S":"west-first"}}}`)
	e.clock.Advance(time.Millisecond)
	E("PutItem", `{"TableName":"glob","Item":{"pk":{"S":"c"},"v":{"S":"east-later"}}}`)
	if n := e.svc.DrainReplication(); n == 0 {
		t.Errorf("drain: applied nothing")
	}
	if ge, gw := get(E, "c"), get(W, "c"); ge != "east-later" || gw != "east-later" {
		t.Errorf("last writer wins: got east %q west %q, want east-later in both", ge, gw)
	}
	// Deletes replicate.
	W("DeleteItem", `{"TableName":"glob","Key":{"pk":{"S":"a"}}}`)
	e.svc.DrainReplication()
	if got := get(E, "a"); got != "" {
		t.Errorf("replicated delete: got %q, want no item", got)
	}
	// The replica's stream has the replicated writes.
	var ls struct{ Streams []struct{ StreamArn string } }
	testkit.MustUnmarshal(t, func() string {
		e.auth = west
		res, out := doService(t, e.svc, "DynamoDBStreams_20120810.ListStreams", west, `{"TableName":"glob"}`)
		if res.StatusCode != 200 {
			t.Fatalf("ListStreams: %s", out)
		}
		return out
	}(), &ls)
	if len(ls.Streams) != 1 {
		t.Errorf("replica streams: got %+v, want one", ls.Streams)
	}

	e.auth = east
	e.refused("UpdateTable", `{"TableName":"glob","ReplicaUpdates":[{"Create":{"RegionName":"eu-west-1"}}]}`, "ValidationException")
	e.refused("UpdateTable", `{"TableName":"glob","ReplicaUpdates":[{"Create":{"RegionName":"us-east-1"}}]}`, "ValidationException")
	e.refused("UpdateTable", `{"TableName":"glob","ReplicaUpdates":[{"Create":{"RegionName":"mars"}}]}`, "ValidationException")
	e.refused("UpdateTable", `{"TableName":"glob","ReplicaUpdates":[{}]}`, "ValidationException")
	e.refused("UpdateTable", `{"TableName":"glob","ReplicaUpdates":[{"Delete":{"RegionName":"ap-south-1"}}]}`, "ValidationException")
	E("UpdateTable", `{"TableName":"glob","ReplicaUpdates":[{"Delete":{"RegionName":"eu-west-1"}}]}`)
	d.Table.Replicas, d.Table.GlobalTableVersion = nil, ""
	testkit.MustUnmarshal(t, E("DescribeTable", `{"TableName":"glob"}`), &d)
	if len(d.Table.Replicas) != 0 || d.Table.GlobalTableVersion != "" {
		t.Errorf("after Delete: got %+v, want no replicas", d.Table)
	}
	e.auth = west
	e.refused("DescribeTable", `{"TableName":"glob"}`, "ResourceNotFoundException")
	E("PutItem", `{"TableName":"glob","Item":{"pk":{"S":"after"},"v":{"S":"1"}}}`)
	if n := e.svc.DrainReplication(); n != 0 {
		t.Errorf("after Delete: drained %d writes, want none", n)
	}
}

// TestReplicaPrerequisites: AWS enables a NEW_AND_OLD_IMAGES stream on a
// table without one that gets a replica, and keeps it on while the table
// has replicas; it refuses a provisioned table without write auto
// scaling.
func TestReplicaPrerequisites(t *testing.T) {
	e := newClockEnv(t, Config{})
	e.table("nostream", onDemand)
	var nd struct {
		TableDescription struct {
			StreamSpecification struct {
				StreamEnabled  bool
				StreamViewType string
			}
		}
	}
	testkit.MustUnmarshal(t, e.must("UpdateTable", `{"TableName":"nostream","ReplicaUpdates":[{"Create":{"RegionName":"eu-west-1"}}]}`), &nd)
	if s := nd.TableDescription.StreamSpecification; !s.StreamEnabled || s.StreamViewType != "NEW_AND_OLD_IMAGES" {
		t.Errorf("stream after the first replica: got %+v, want NEW_AND_OLD_IMAGES enabled", s)
	}
	// The stream turned on is a stream of the table's region, with a
	// label of its own (Table.Change started it).
	var desc struct {
		Table struct{ LatestStreamArn, LatestStreamLabel string }
	}
	testkit.MustUnmarshal(t, e.must("DescribeTable", `{"TableName":"nostream"}`), &desc)
	require.Contains(t, desc.Table.LatestStreamArn, ":us-east-1:")
	require.True(t, strings.HasSuffix(desc.Table.LatestStreamArn, "/stream/"+desc.Table.LatestStreamLabel), desc.Table.LatestStreamArn)
	require.NotEmpty(t, desc.Table.LatestStreamLabel)
	out := e.refused("UpdateTable", `{"TableName":"nostream","StreamSpecification":{"StreamEnabled":false}}`, "ValidationException")
	if !strings.Contains(out, "Disabling Stream is not allowed for a Global Table replica.") {
		t.Errorf("disabling the stream of a replica: got %s", out)
	}
	e.must("CreateTable", `{"TableName":"prov",`+provisioned+`,"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"},
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	out = e.refused("UpdateTable", `{"TableName":"prov","ReplicaUpdates":[{"Create":{"RegionName":"eu-west-1"}}]}`, "ValidationException")
	if !strings.Contains(out, "Pay-Per-Request or AutoScaled") {
		t.Errorf("provisioned without auto scaling: got %s", out)
	}
	e.must("UpdateTableReplicaAutoScaling", `{"TableName":"prov","ProvisionedWriteCapacityAutoScalingUpdate":{"MinimumUnits":5,"MaximumUnits":10,
		"ScalingPolicyUpdate":{"TargetTrackingScalingPolicyConfiguration":{"TargetValue":70}}}}`)
	e.must("UpdateTable", `{"TableName":"prov","ReplicaUpdates":[{"Create":{"RegionName":"eu-west-1","ProvisionedThroughputOverride":{"ReadCapacityUnits":9}}}]}`)
	var d struct {
		Table struct {
			Replicas []struct {
				RegionName                    string
				ProvisionedThroughputOverride struct{ ReadCapacityUnits int }
			}
		}
	}
	testkit.MustUnmarshal(t, e.must("DescribeTable", `{"TableName":"prov"}`), &d)
	if len(d.Table.Replicas) != 1 || d.Table.Replicas[0].ProvisionedThroughputOverride.ReadCapacityUnits != 9 {
		t.Errorf("got %+v, want the eu-west-1 replica with read override 9", d.Table.Replicas)
	}
	s := newClockEnv(t, Config{SharedDB: true})
	s.must("CreateTable", `{"TableName":"shr",`+onDemand+`,"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"},
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	s.refused("UpdateTable", `{"TableName":"shr","ReplicaUpdates":[{"Create":{"RegionName":"eu-west-1"}}]}`, "ValidationException")
}
