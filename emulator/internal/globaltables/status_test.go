package globaltables

import (
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestReplicaInFlightRefusals: while a replica is being created or
// deleted the source table shows UPDATING, and UpdateTable changing its
// table class or deletion protection is ResourceInUseException with AWS's
// message, while tags and TTL stay admitted (ack-api-quirks DDB-TABLE-227,
// -228); once the replica settled the table is ACTIVE and both changes
// are accepted.
func TestReplicaInFlightRefusals(t *testing.T) {
	p := newGTPair(t, Config{TransientDelay: time.Second}, "") // eu-west-1 CREATING for a second
	const inUse = `{"__type":"com.amazonaws.dynamodb.v20120810#ResourceInUseException","message":"The resource which you are attempting to change is in use."}`
	refusedBoth := func(when string) {
		t.Helper()
		p.auth = p.east
		for _, body := range []string{
			`{"TableName":"gtab","TableClass":"STANDARD_INFREQUENT_ACCESS"}`,
			`{"TableName":"gtab","DeletionProtectionEnabled":true}`,
		} {
			if out := p.refused("UpdateTable", body, "ResourceInUseException"); out != inUse {
				t.Errorf("%s: UpdateTable %s: got %s, want %s", when, body, out, inUse)
			}
		}
		if got, want := p.describe(p.east).TableStatus, "UPDATING"; got != want {
			t.Errorf("%s: source TableStatus: got %s, want %s", when, got, want)
		}
		var as struct{ TableAutoScalingDescription struct{ TableStatus string } }
		testkit.MustUnmarshal(t, p.in(p.east, "DescribeTableReplicaAutoScaling", `{"TableName":"gtab"}`), &as)
		if got, want := as.TableAutoScalingDescription.TableStatus, "UPDATING"; got != want {
			t.Errorf("%s: DescribeTableReplicaAutoScaling TableStatus: got %s, want %s (as DescribeTable)", when, got, want)
		}
	}
	if got, want := p.describe(p.east).replicas(), "eu-west-1:CREATING"; got != want {
		t.Fatalf("after the Create: got replicas %q, want %q", got, want)
	}
	refusedBoth("replica CREATING")
	p.in(p.east, "TagResource", `{"ResourceArn":"arn:aws:dynamodb:us-east-1:000000000000:table/gtab","Tags":[{"Key":"k","Value":"v"}]}`)
	p.in(p.east, "UpdateTimeToLive", `{"TableName":"gtab","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"ttl"}}`)

	p.clock.Advance(time.Second)
	p.describe(p.east) // the replica ACTIVE takes the TTL change (UPDATING for the delay)
	p.clock.Advance(time.Second)
	if d := p.describe(p.east); d.TableStatus != "ACTIVE" || d.replicas() != "eu-west-1:ACTIVE" {
		t.Fatalf("settled: got %s %q, want ACTIVE with eu-west-1:ACTIVE", d.TableStatus, d.replicas())
	}
	p.in(p.east, "UpdateTable", `{"TableName":"gtab","DeletionProtectionEnabled":false}`)

	p.in(p.east, "UpdateTable", `{"TableName":"gtab","ReplicaUpdates":[{"Delete":{"RegionName":"eu-west-1"}}]}`)
	if got, want := p.describe(p.east).replicas(), "eu-west-1:DELETING"; got != want {
		t.Fatalf("after the Delete: got replicas %q, want %q", got, want)
	}
	refusedBoth("replica DELETING")

	p.clock.Advance(time.Second)
	if d := p.describe(p.east); d.TableStatus != "ACTIVE" || d.replicas() != "" {
		t.Fatalf("deleted: got %s %q, want ACTIVE with no replica", d.TableStatus, d.replicas())
	}
	p.in(p.east, "UpdateTable", `{"TableName":"gtab","TableClass":"STANDARD_INFREQUENT_ACCESS"}`)
	p.in(p.east, "UpdateTable", `{"TableName":"gtab","DeletionProtectionEnabled":true}`)
}
