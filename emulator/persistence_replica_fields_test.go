package emulator

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestPersistReplicaFields: a replica's disassociation protection, set
// off by UpdateTable, survives a restart; the other replica's stays on,
// and both are described with their replica's ARN and the settings
// replication mode after it (and no consistency mode: an eventually
// consistent global table shows none).
func TestPersistReplicaFields(t *testing.T) {
	dir := t.TempDir()
	east, west := testkit.Auth("persistrf", "us-east-1"), testkit.Auth("persistrf", "eu-west-1")
	mustOK := func(e *Emulator, auth, op, body string) string {
		t.Helper()
		res, out := do(t, e, "DynamoDB_20120810."+op, auth, body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s", op, res.StatusCode, out)
		}
		return out
	}
	e := openPersisted(t, dir, Options{})
	mustOK(e, east, "CreateTable", `{"TableName":"rfx","BillingMode":"PAY_PER_REQUEST",
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}]}`)
	mustOK(e, east, "UpdateTable", `{"TableName":"rfx","ReplicaUpdates":[{"Create":{"RegionName":"eu-west-1"}}]}`)
	e.Lags().DrainReplication()
	mustOK(e, west, "UpdateTable", `{"TableName":"rfx","DisassociationProtectionEnabled":false}`)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}

	e2 := openPersisted(t, dir, Options{})
	type desc struct {
		Table struct {
			TableArn                           string
			DisassociationProtectionEnabled    *bool
			MultiRegionConsistency             string
			GlobalTableSettingsReplicationMode string
			Replicas                           []struct {
				RegionName, ReplicaArn, GlobalTableSettingsReplicationMode string
			}
		}
	}
	var w, ea desc
	mustOK(e2, west, "GetItem", `{"TableName":"rfx","Key":{"pk":{"S":"x"}}}`) // loads eu-west-1
	testkit.MustUnmarshal(t, mustOK(e2, west, "DescribeTable", `{"TableName":"rfx"}`), &w)
	testkit.MustUnmarshal(t, mustOK(e2, east, "DescribeTable", `{"TableName":"rfx"}`), &ea)
	if p := w.Table.DisassociationProtectionEnabled; p == nil || *p {
		t.Errorf("eu-west-1 after the restart: DisassociationProtectionEnabled %v, want false", p)
	}
	if p := ea.Table.DisassociationProtectionEnabled; p == nil || !*p {
		t.Errorf("us-east-1 after the restart: DisassociationProtectionEnabled %v, want true", p)
	}
	for _, d := range []desc{w, ea} {
		if d.Table.MultiRegionConsistency != "" || d.Table.GlobalTableSettingsReplicationMode != "ENABLED_WITH_OVERRIDES" || len(d.Table.Replicas) != 1 {
			t.Fatalf("after the restart: got %+v", d.Table)
		}
	}
	if r := ea.Table.Replicas[0]; r.RegionName != "eu-west-1" || r.ReplicaArn != "" {
		t.Errorf("us-east-1's replica after the restart: got %+v, want eu-west-1 with no ReplicaArn (AWS sets none)", r)
	}
	if err := e2.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestPersistMRSC: an MRSC table's mode and witness survive a restart in
// every member, and so does what it refuses (DeleteTable of a member).
func TestPersistMRSC(t *testing.T) {
	dir := t.TempDir()
	east, ohio := testkit.Auth("persistmrsc", "us-east-1"), testkit.Auth("persistmrsc", "us-east-2")
	mustDo := func(e *Emulator, auth, op, body string, status int) string {
		t.Helper()
		res, out := do(t, e, "DynamoDB_20120810."+op, auth, body)
		if res.StatusCode != status {
			t.Fatalf("%s: %d %s, want %d", op, res.StatusCode, out, status)
		}
		return out
	}
	e := openPersisted(t, dir, Options{})
	mustDo(e, east, "CreateTable", `{"TableName":"mrsc","BillingMode":"PAY_PER_REQUEST",
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}]}`, http.StatusOK)
	mustDo(e, east, "UpdateTable", `{"TableName":"mrsc","MultiRegionConsistency":"STRONG",
		"ReplicaUpdates":[{"Create":{"RegionName":"us-east-2"}}],"GlobalTableWitnessUpdates":[{"Create":{"RegionName":"us-west-2"}}]}`, http.StatusOK)
	e.Lags().DrainReplication()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}

	e2 := openPersisted(t, dir, Options{})
	type desc struct {
		Table struct {
			MultiRegionConsistency string
			GlobalTableWitnesses   []struct{ RegionName, WitnessStatus string }
			Replicas               []struct{ RegionName string }
		}
	}
	mustDo(e2, ohio, "GetItem", `{"TableName":"mrsc","Key":{"pk":{"S":"x"}}}`, http.StatusOK) // loads us-east-2
	for _, auth := range []string{east, ohio} {
		var d desc
		testkit.MustUnmarshal(t, mustDo(e2, auth, "DescribeTable", `{"TableName":"mrsc"}`, http.StatusOK), &d)
		if d.Table.MultiRegionConsistency != "STRONG" || len(d.Table.Replicas) != 1 || len(d.Table.GlobalTableWitnesses) != 1 ||
			d.Table.GlobalTableWitnesses[0].RegionName != "us-west-2" || d.Table.GlobalTableWitnesses[0].WitnessStatus != "ACTIVE" {
			t.Fatalf("after the restart: got %+v", d.Table)
		}
		out := mustDo(e2, auth, "DeleteTable", `{"TableName":"mrsc"}`, http.StatusBadRequest)
		if !strings.Contains(out, "Deletion of only one table replica is not supported") {
			t.Fatalf("DeleteTable after the restart: %s", out)
		}
	}
	if err := e2.Close(); err != nil {
		t.Fatal(err)
	}
}
