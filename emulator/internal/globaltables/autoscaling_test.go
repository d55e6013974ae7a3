package globaltables

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestReplicaAutoScaling: settings stored per replica and index and
// described back; an on-demand table refuses them.
func TestReplicaAutoScaling(t *testing.T) {
	e := newClockEnv(t, Config{})
	e.must("CreateTable", `{"TableName":"asc",`+provisioned+`,
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
		"GlobalSecondaryIndexes":[{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"},
			"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}]}`)
	type settings struct {
		MinimumUnits, MaximumUnits int64
		AutoScalingDisabled        bool
		ScalingPolicies            []struct {
			PolicyName                               string
			TargetTrackingScalingPolicyConfiguration struct{ TargetValue float64 }
		}
	}
	var d struct {
		TableAutoScalingDescription struct {
			TableName, TableStatus string
			Replicas               []struct {
				RegionName, ReplicaStatus                          string
				ReplicaProvisionedReadCapacityAutoScalingSettings  settings
				ReplicaProvisionedWriteCapacityAutoScalingSettings settings
				GlobalSecondaryIndexes                             []struct {
					IndexName                                  string
					ProvisionedReadCapacityAutoScalingSettings settings
				}
			}
		}
	}
	testkit.MustUnmarshal(t, e.must("DescribeTableReplicaAutoScaling", `{"TableName":"asc"}`), &d)
	r := d.TableAutoScalingDescription.Replicas
	if len(r) != 1 || r[0].RegionName != "us-east-1" || r[0].ReplicaStatus != "ACTIVE" || !r[0].ReplicaProvisionedReadCapacityAutoScalingSettings.AutoScalingDisabled {
		t.Fatalf("before any update: got %+v, want one ACTIVE replica in us-east-1 without auto scaling", r)
	}
	testkit.MustUnmarshal(t, e.must("UpdateTableReplicaAutoScaling", `{"TableName":"asc",
		"ProvisionedWriteCapacityAutoScalingUpdate":{"MinimumUnits":5,"MaximumUnits":50,"ScalingPolicyUpdate":{"TargetTrackingScalingPolicyConfiguration":{"TargetValue":70}}},
		"ReplicaUpdates":[{"RegionName":"us-east-1","ReplicaProvisionedReadCapacityAutoScalingUpdate":{"MinimumUnits":2,"MaximumUnits":20},
			"ReplicaGlobalSecondaryIndexUpdates":[{"IndexName":"byG","ProvisionedReadCapacityAutoScalingUpdate":{"MinimumUnits":3,"MaximumUnits":30}}]}]}`), &d)
	r = d.TableAutoScalingDescription.Replicas
	w := r[0].ReplicaProvisionedWriteCapacityAutoScalingSettings
	if w.MinimumUnits != 5 || w.MaximumUnits != 50 || w.AutoScalingDisabled || len(w.ScalingPolicies) != 1 || w.ScalingPolicies[0].TargetTrackingScalingPolicyConfiguration.TargetValue != 70 {
		t.Errorf("write settings: got %+v", w)
	}
	if rd := r[0].ReplicaProvisionedReadCapacityAutoScalingSettings; rd.MinimumUnits != 2 || rd.MaximumUnits != 20 {
		t.Errorf("read settings: got %+v", rd)
	}
	if g := r[0].GlobalSecondaryIndexes; len(g) != 1 || g[0].ProvisionedReadCapacityAutoScalingSettings.MaximumUnits != 30 {
		t.Errorf("GSI settings: got %+v", g)
	}
	for _, c := range []struct{ body, want string }{
		{`{"TableName":"asc"}`, "ValidationException"},
		{`{"TableName":"asc","ProvisionedWriteCapacityAutoScalingUpdate":{"MinimumUnits":60}}`, "ValidationException"},
		{`{"TableName":"asc","ProvisionedWriteCapacityAutoScalingUpdate":{"MinimumUnits":0}}`, "ValidationException"},
		{`{"TableName":"asc","ProvisionedWriteCapacityAutoScalingUpdate":{"ScalingPolicyUpdate":{"TargetTrackingScalingPolicyConfiguration":{"TargetValue":95}}}}`, "ValidationException"},
		{`{"TableName":"asc","ReplicaUpdates":[{"RegionName":"eu-west-1","ReplicaProvisionedReadCapacityAutoScalingUpdate":{"MinimumUnits":1}}]}`, "ValidationException"},
		{`{"TableName":"asc","GlobalSecondaryIndexUpdates":[{"IndexName":"nope","ProvisionedWriteCapacityAutoScalingUpdate":{"MinimumUnits":1}}]}`, "ResourceNotFoundException"},
		{`{"TableName":"nope","ProvisionedWriteCapacityAutoScalingUpdate":{"MinimumUnits":1}}`, "ResourceNotFoundException"},
	} {
		e.refused("UpdateTableReplicaAutoScaling", c.body, c.want)
	}
	e.table("odm", onDemand)
	e.refused("UpdateTableReplicaAutoScaling", `{"TableName":"odm","ProvisionedWriteCapacityAutoScalingUpdate":{"MinimumUnits":1}}`, "ValidationException")
}
