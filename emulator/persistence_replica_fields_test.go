package emulator

import (
	"net/http"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestPersistReplicaFields: a replica's disassociation protection, set
// off by UpdateTable, survives a restart; the other replica's stays on,
// and both are described with their replica's ARN, the consistency mode
// and the settings replication mode after it.
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
	e.DrainReplication()
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
		if d.Table.MultiRegionConsistency != "EVENTUAL" || d.Table.GlobalTableSettingsReplicationMode != "ENABLED_WITH_OVERRIDES" || len(d.Table.Replicas) != 1 {
			t.Fatalf("after the restart: got %+v", d.Table)
		}
	}
	if got := ea.Table.Replicas[0].ReplicaArn; got != w.Table.TableArn {
		t.Errorf("us-east-1's ReplicaArn: got %q, want eu-west-1's table ARN %q", got, w.Table.TableArn)
	}
	if err := e2.Close(); err != nil {
		t.Fatal(err)
	}
}
