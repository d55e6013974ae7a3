package globaltables

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestLegacyGlobalTables: CreateGlobalTable over tables made in each
// region, replication between them, Describe/List, UpdateGlobalTable
// adding and removing regions, the settings operations, and AWS's errors.
func TestLegacyGlobalTables(t *testing.T) {
	e := newClockEnv(t, Config{})
	auth := func(region string) string { return testkit.Auth("legacy", region) }
	mk := func(region string) {
		e.auth = auth(region)
		e.must("CreateTable", `{"TableName":"leg",`+provisioned+`,"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"},
			"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	}
	mk("us-east-1")
	mk("us-west-2")
	e.auth = auth("us-east-1")
	e.refused("CreateGlobalTable", `{"GlobalTableName":"leg","ReplicationGroup":[{"RegionName":"us-east-1"},{"RegionName":"eu-central-1"}]}`, "TableNotFoundException")
	e.refused("DescribeGlobalTable", `{"GlobalTableName":"leg"}`, "GlobalTableNotFoundException")
	var g struct {
		GlobalTableDescription struct {
			GlobalTableArn, GlobalTableStatus string
			ReplicationGroup                  []struct{ RegionName string }
		}
	}
	testkit.MustUnmarshal(t, e.must("CreateGlobalTable", `{"GlobalTableName":"leg","ReplicationGroup":[{"RegionName":"us-east-1"},{"RegionName":"us-west-2"}]}`), &g)
	if d := g.GlobalTableDescription; d.GlobalTableArn != "arn:aws:dynamodb::000000000000:global-table/leg" || d.GlobalTableStatus != "ACTIVE" || len(d.ReplicationGroup) != 2 {
		t.Errorf("CreateGlobalTable: got %+v", d)
	}
	e.refused("CreateGlobalTable", `{"GlobalTableName":"leg","ReplicationGroup":[{"RegionName":"us-east-1"}]}`, "GlobalTableAlreadyExistsException")
	e.must("PutItem", `{"TableName":"leg","Item":{"pk":{"S":"k"},"v":{"S":"east"}}}`)
	e.svc.DrainReplication()
	e.auth = auth("us-west-2")
	var gi struct{ Item map[string]map[string]any }
	testkit.MustUnmarshal(t, e.must("GetItem", `{"TableName":"leg","Key":{"pk":{"S":"k"}}}`), &gi)
	if gi.Item["v"]["S"] != "east" {
		t.Errorf("replicated to us-west-2: got %v", gi.Item)
	}
	var lg struct {
		GlobalTables []struct {
			GlobalTableName  string
			ReplicationGroup []struct{ RegionName string }
		}
	}
	testkit.MustUnmarshal(t, e.must("ListGlobalTables", `{}`), &lg)
	if len(lg.GlobalTables) != 1 || len(lg.GlobalTables[0].ReplicationGroup) != 2 {
		t.Errorf("ListGlobalTables: got %+v", lg)
	}
	testkit.MustUnmarshal(t, e.must("ListGlobalTables", `{"RegionName":"ap-south-1"}`), &lg)
	if len(lg.GlobalTables) != 0 {
		t.Errorf("ListGlobalTables in another region: got %+v", lg)
	}
	// A third region: its table must exist and be empty.
	e.refused("UpdateGlobalTable", `{"GlobalTableName":"leg","ReplicaUpdates":[{"Create":{"RegionName":"eu-west-1"}}]}`, "TableNotFoundException")
	e.refused("UpdateGlobalTable", `{"GlobalTableName":"leg","ReplicaUpdates":[{"Create":{"RegionName":"us-east-1"}}]}`, "ReplicaAlreadyExistsException")
	e.refused("UpdateGlobalTable", `{"GlobalTableName":"leg","ReplicaUpdates":[{"Delete":{"RegionName":"eu-west-1"}}]}`, "ReplicaNotFoundException")
	mk("eu-west-1")
	e.auth = auth("us-west-2")
	e.must("UpdateGlobalTable", `{"GlobalTableName":"leg","ReplicaUpdates":[{"Create":{"RegionName":"eu-west-1"}}]}`)
	e.auth = auth("eu-west-1")
	e.must("PutItem", `{"TableName":"leg","Item":{"pk":{"S":"k3"},"v":{"S":"eu"}}}`)
	e.svc.DrainReplication()
	e.auth = auth("us-east-1")
	testkit.MustUnmarshal(t, e.must("GetItem", `{"TableName":"leg","Key":{"pk":{"S":"k3"}}}`), &gi)
	if gi.Item["v"]["S"] != "eu" {
		t.Errorf("replicated from eu-west-1: got %v", gi.Item)
	}
	var st struct {
		ReplicaSettings []struct {
			RegionName                                                                string
			ReplicaProvisionedReadCapacityUnits, ReplicaProvisionedWriteCapacityUnits int
		}
	}
	testkit.MustUnmarshal(t, e.must("UpdateGlobalTableSettings", `{"GlobalTableName":"leg","GlobalTableProvisionedWriteCapacityUnits":7,
		"ReplicaSettingsUpdate":[{"RegionName":"us-west-2","ReplicaProvisionedReadCapacityUnits":11}]}`), &st)
	if len(st.ReplicaSettings) != 3 {
		t.Fatalf("settings: got %+v", st)
	}
	for _, r := range st.ReplicaSettings {
		wantRead := 5
		if r.RegionName == "us-west-2" {
			wantRead = 11
		}
		if r.ReplicaProvisionedWriteCapacityUnits != 7 || r.ReplicaProvisionedReadCapacityUnits != wantRead {
			t.Errorf("settings of %s: got %+v, want write 7 read %d", r.RegionName, r, wantRead)
		}
	}
	e.must("DescribeGlobalTableSettings", `{"GlobalTableName":"leg"}`)
	e.refused("UpdateGlobalTableSettings", `{"GlobalTableName":"leg","ReplicaSettingsUpdate":[{"RegionName":"sa-east-1","ReplicaProvisionedReadCapacityUnits":1}]}`, "ReplicaNotFoundException")
	e.must("UpdateGlobalTable", `{"GlobalTableName":"leg","ReplicaUpdates":[{"Delete":{"RegionName":"us-west-2"}}]}`)
	e.must("PutItem", `{"TableName":"leg","Item":{"pk":{"S":"k4"},"v":{"S":"x"}}}`)
	e.svc.DrainReplication()
	e.auth = auth("us-west-2")
	gi.Item = nil
	testkit.MustUnmarshal(t, e.must("GetItem", `{"TableName":"leg","Key":{"pk":{"S":"k4"}}}`), &gi)
	if gi.Item != nil {
		t.Errorf("removed replica still replicated to: got %v", gi.Item)
	}
	e.refused("DescribeGlobalTable", `{"GlobalTableName":"leg"}`, "GlobalTableNotFoundException")
}
