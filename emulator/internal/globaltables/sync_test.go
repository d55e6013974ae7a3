package globaltables

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// gtPair is two regions of one access key with a 2019.11.21 global table
// "gt" (pk S, NEW_AND_OLD_IMAGES stream) made in us-east-1 and replicated
// to eu-west-1.
type gtPair struct {
	*clockEnv
	east, west string
}

func newGTPair(t *testing.T, cfg Config, create string) *gtPair {
	t.Helper()
	p := &gtPair{clockEnv: newClockEnv(t, cfg), east: testkit.Auth("gt", "us-east-1"), west: testkit.Auth("gt", "eu-west-1")}
	if create == "" {
		create = `{"TableName":"gtab","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`
	}
	p.in(p.east, "CreateTable", create)
	p.clock.Advance(cfg.TransientDelay) // CREATING until then
	p.in(p.east, "UpdateTable", `{"TableName":"gtab","ReplicaUpdates":[{"Create":{"RegionName":"eu-west-1"}}]}`)
	return p
}

// in sends op in the region of auth and wants a 200.
func (p *gtPair) in(auth, op, body string) string {
	p.t.Helper()
	p.auth = auth
	return p.must(op, body)
}

// describe returns DescribeTable's Table in the region of auth.
func (p *gtPair) describe(auth string) tableView {
	p.t.Helper()
	var d struct{ Table tableView }
	testkit.MustUnmarshal(p.t, p.in(auth, "DescribeTable", `{"TableName":"gtab"}`), &d)
	return d.Table
}

// tableView is the part of DescribeTable's Table the tests read.
type tableView struct {
	TableStatus            string
	GlobalTableVersion     string
	BillingModeSummary     struct{ BillingMode string }
	ProvisionedThroughput  struct{ ReadCapacityUnits, WriteCapacityUnits int }
	TableClassSummary      struct{ TableClass string }
	DeletionProtection     bool `json:"DeletionProtectionEnabled"`
	GlobalSecondaryIndexes []struct{ IndexName, IndexStatus string }
	AttributeDefinitions   []struct{ AttributeName string }
	Replicas               []struct{ RegionName, ReplicaStatus string }
}

func (v tableView) replicas() string {
	var b strings.Builder
	for _, r := range v.Replicas {
		b.WriteString(r.RegionName + ":" + r.ReplicaStatus + " ")
	}
	return strings.TrimSpace(b.String())
}

func (v tableView) gsis() string {
	var b strings.Builder
	for _, g := range v.GlobalSecondaryIndexes {
		b.WriteString(g.IndexName + ":" + g.IndexStatus + " ")
	}
	return strings.TrimSpace(b.String())
}

// TestGlobalTableDefinitionSync: the settings AWS keeps the same across
// replicas (GSIs created and deleted, TTL, billing mode and throughput,
// table class) reach the other replica through the replication queue,
// which shows UPDATING in the source's view for the transient delay;
// regional ones (deletion protection, tags) stay where they were set.
func TestGlobalTableDefinitionSync(t *testing.T) {
	p := newGTPair(t, Config{TransientDelay: time.Second}, "")
	p.clock.Advance(time.Second) // the replica ACTIVE
	p.svc.SetReplicationDelay(time.Second)

	// A GSI created in us-east-1 is built in eu-west-1 too.
	p.in(p.east, "UpdateTable", `{"TableName":"gtab","AttributeDefinitions":[{"AttributeName":"g","AttributeType":"S"}],
		"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}}]}`)
	p.in(p.east, "PutItem", `{"TableName":"gtab","Item":{"pk":{"S":"a"},"g":{"S":"x"}}}`)
	if got := p.describe(p.west).gsis(); got != "" {
		t.Errorf("replica before the delay: got GSIs %q, want none yet", got)
	}
	p.clock.Advance(time.Second)
	if got := p.describe(p.west).gsis(); got != "byG:CREATING" {
		t.Errorf("replica after the delay: got GSIs %q, want byG:CREATING", got)
	}
	if got := p.describe(p.east).replicas(); got != "eu-west-1:UPDATING" {
		t.Errorf("source while the replica takes the change: got %q, want eu-west-1:UPDATING", got)
	}
	p.clock.Advance(time.Second)
	if got, want := p.describe(p.west).gsis(), "byG:ACTIVE"; got != want {
		t.Errorf("replica GSI: got %q, want %q", got, want)
	}
	if got := p.describe(p.east).replicas(); got != "eu-west-1:ACTIVE" {
		t.Errorf("source after the change: got %q, want eu-west-1:ACTIVE", got)
	}
	var q struct{ Count int }
	testkit.MustUnmarshal(t, p.in(p.west, "Query", `{"TableName":"gtab","IndexName":"byG","KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"x"}}}`), &q)
	if q.Count != 1 {
		t.Errorf("replica GSI query: got %d items, want the replicated one", q.Count)
	}

	// Settings changed in eu-west-1 reach us-east-1: TTL, table class,
	// GSI deleted. Deletion protection and tags stay regional.
	p.in(p.west, "UpdateTimeToLive", `{"TableName":"gtab","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"exp"}}`)
	p.in(p.west, "UpdateTable", `{"TableName":"gtab","TableClass":"STANDARD_INFREQUENT_ACCESS"}`)
	p.in(p.west, "UpdateTable", `{"TableName":"gtab","DeletionProtectionEnabled":true}`)
	p.in(p.west, "TagResource", `{"ResourceArn":"arn:aws:dynamodb:eu-west-1:000000000000:table/gtab","Tags":[{"Key":"k","Value":"v"}]}`)
	p.svc.DrainReplication()
	var ttl struct {
		TimeToLiveDescription struct{ TimeToLiveStatus, AttributeName string }
	}
	testkit.MustUnmarshal(t, p.in(p.east, "DescribeTimeToLive", `{"TableName":"gtab"}`), &ttl)
	if d := ttl.TimeToLiveDescription; d.TimeToLiveStatus != "ENABLED" || d.AttributeName != "exp" {
		t.Errorf("source TTL: got %+v, want ENABLED on exp", d)
	}
	d := p.describe(p.east)
	if d.TableClassSummary.TableClass != "STANDARD_INFREQUENT_ACCESS" {
		t.Errorf("source table class: got %q, want the replica's STANDARD_INFREQUENT_ACCESS", d.TableClassSummary.TableClass)
	}
	if d.DeletionProtection {
		t.Errorf("deletion protection reached the source; it is regional")
	}
	var tags struct{ Tags []struct{ Key string } }
	testkit.MustUnmarshal(t, p.in(p.east, "ListTagsOfResource", `{"ResourceArn":"arn:aws:dynamodb:us-east-1:000000000000:table/gtab"}`), &tags)
	if len(tags.Tags) != 0 {
		t.Errorf("tags reached the source: got %+v; they are regional", tags.Tags)
	}
	p.in(p.west, "UpdateTable", `{"TableName":"gtab","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"byG"}}]}`)
	p.svc.DrainReplication()
	p.clock.Advance(time.Second)
	if got := p.describe(p.east).gsis(); got != "" {
		t.Errorf("source after the replica deleted byG: got GSIs %q, want none", got)
	}
	if defs := p.describe(p.east).AttributeDefinitions; len(defs) != 1 {
		t.Errorf("source attribute definitions after the GSI left: got %+v, want pk only", defs)
	}

}

// TestGlobalTableCapacitySync: provisioned throughput set in any replica
// reaches the others (AWS: ack-api-quirks lab notes DDB-TABLE-251), a
// replica's read override stays its own, and a change of billing mode
// reaches every replica.
func TestGlobalTableCapacitySync(t *testing.T) {
	e := newClockEnv(t, Config{})
	p := &gtPair{clockEnv: e, east: testkit.Auth("gt", "us-east-1"), west: testkit.Auth("gt", "eu-west-1")}
	p.in(p.east, "CreateTable", `{"TableName":"gtab",`+provisioned+`,
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
		"GlobalSecondaryIndexes":[{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"},
			"ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":5}}]}`)
	p.in(p.east, "UpdateTableReplicaAutoScaling", `{"TableName":"gtab","ProvisionedWriteCapacityAutoScalingUpdate":{"MinimumUnits":5,"MaximumUnits":10,
		"ScalingPolicyUpdate":{"TargetTrackingScalingPolicyConfiguration":{"TargetValue":70}}}}`)
	p.in(p.east, "UpdateTable", `{"TableName":"gtab","ReplicaUpdates":[{"Create":{"RegionName":"eu-west-1",
		"GlobalSecondaryIndexes":[{"IndexName":"byG","ProvisionedThroughputOverride":{"ReadCapacityUnits":4}},{"IndexName":"nope","ProvisionedThroughputOverride":{"ReadCapacityUnits":9}}]}}]}`)
	gsiTP := func(auth string) string {
		t.Helper()
		var d struct {
			Table struct {
				GlobalSecondaryIndexes []struct {
					ProvisionedThroughput struct{ ReadCapacityUnits, WriteCapacityUnits int }
				}
			}
		}
		testkit.MustUnmarshal(t, p.in(auth, "DescribeTable", `{"TableName":"gtab"}`), &d)
		tp := d.Table.GlobalSecondaryIndexes[0].ProvisionedThroughput
		return fmt.Sprintf("%d/%d", tp.ReadCapacityUnits, tp.WriteCapacityUnits)
	}
	if got := gsiTP(p.west); got != "4/5" {
		t.Errorf("replica GSI with a read override: got %s, want 4/5", got)
	}
	if got := p.in(p.east, "DescribeTable", `{"TableName":"gtab"}`); !strings.Contains(got, `"GlobalSecondaryIndexes":[{"IndexName":"byG","ProvisionedThroughputOverride":{"ReadCapacityUnits":4}}`) {
		t.Errorf("source's view of the replica: got %s, want byG's read override", got)
	}
	p.in(p.east, "UpdateTable", `{"TableName":"gtab","GlobalSecondaryIndexUpdates":[{"Update":{"IndexName":"byG","ProvisionedThroughput":{"ReadCapacityUnits":6,"WriteCapacityUnits":8}}}]}`)
	p.svc.DrainReplication()
	if got := gsiTP(p.west); got != "4/8" {
		t.Errorf("replica GSI after the source's change: got %s, want its own read 4 and the source's write 8", got)
	}
	p.in(p.east, "UpdateTable", `{"TableName":"gtab","ReplicaUpdates":[{"Update":{"RegionName":"eu-west-1","GlobalSecondaryIndexes":[{"IndexName":"byG","ProvisionedThroughputOverride":{"ReadCapacityUnits":2}}]}}]}`)
	if got := gsiTP(p.west); got != "2/8" {
		t.Errorf("replica GSI after Update: got %s, want 2/8", got)
	}
	p.in(p.west, "UpdateTable", `{"TableName":"gtab","ProvisionedThroughput":{"ReadCapacityUnits":7,"WriteCapacityUnits":9}}`)
	p.svc.DrainReplication()
	if tp := p.describe(p.east).ProvisionedThroughput; tp.ReadCapacityUnits != 7 || tp.WriteCapacityUnits != 9 {
		t.Errorf("source after the replica's throughput change: got %+v, want 7/9", tp)
	}
	p.in(p.east, "UpdateTable", `{"TableName":"gtab","ReplicaUpdates":[{"Update":{"RegionName":"eu-west-1","ProvisionedThroughputOverride":{"ReadCapacityUnits":3}}}]}`)
	p.in(p.east, "UpdateTable", `{"TableName":"gtab","ProvisionedThroughput":{"ReadCapacityUnits":8,"WriteCapacityUnits":11}}`)
	p.svc.DrainReplication()
	if tp := p.describe(p.west).ProvisionedThroughput; tp.ReadCapacityUnits != 3 || tp.WriteCapacityUnits != 11 {
		t.Errorf("replica with a read override: got %+v, want its own read 3 and the source's write 11", tp)
	}
	p.in(p.east, "UpdateTable", `{"TableName":"gtab","BillingMode":"PAY_PER_REQUEST"}`)
	p.svc.DrainReplication()
	if w := p.describe(p.west); w.BillingModeSummary.BillingMode != "PAY_PER_REQUEST" || w.ProvisionedThroughput.WriteCapacityUnits != 0 {
		t.Errorf("replica after the source went on demand: got %+v %+v", w.BillingModeSummary, w.ProvisionedThroughput)
	}
}

// TestGlobalTableDeleteTableInReplica: DeleteTable in a replica's region
// takes it out of the others' Replicas (DELETING for the transient delay,
// then gone, and the table is a one-region table again); the region a
// replica was created from cannot go for 24 hours while that replica
// exists; writes no longer go to a deleted replica's region.
func TestGlobalTableDeleteTableInReplica(t *testing.T) {
	p := newGTPair(t, Config{TransientDelay: time.Second}, "")
	p.clock.Advance(time.Second)
	p.auth = p.east
	out := p.refused("DeleteTable", `{"TableName":"gtab"}`, "ValidationException")
	if !strings.Contains(out, "acted as a source region for new replica(s)") {
		t.Errorf("DeleteTable of the source within 24 hours: got %s", out)
	}
	p.auth = p.west
	out = p.refused("UpdateTable", `{"TableName":"gtab","ReplicaUpdates":[{"Delete":{"RegionName":"us-east-1"}}]}`, "ValidationException")
	if !strings.Contains(out, "acted as a source region for new replica(s)") {
		t.Errorf("ReplicaUpdates Delete of the source from the replica: got %s", out)
	}
	p.in(p.west, "DeleteTable", `{"TableName":"gtab"}`)
	p.svc.DrainReplication()
	if got := p.describe(p.east).replicas(); got != "eu-west-1:DELETING" {
		t.Errorf("source after DeleteTable in the replica: got %q, want eu-west-1:DELETING", got)
	}
	p.clock.Advance(time.Second)
	d := p.describe(p.east)
	if d.replicas() != "" || d.GlobalTableVersion != "" {
		t.Errorf("source once the replica is gone: got replicas %q version %q, want neither", d.replicas(), d.GlobalTableVersion)
	}
	// A table of that name made again in eu-west-1 is no replica.
	p.in(p.west, "CreateTable", `{"TableName":"gtab","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	p.clock.Advance(time.Second) // CREATING until then
	p.in(p.east, "PutItem", `{"TableName":"gtab","Item":{"pk":{"S":"after"}}}`)
	if n := p.svc.DrainReplication(); n != 0 {
		t.Errorf("writes after the replica left: drained %d, want none", n)
	}
	p.in(p.west, "DeleteTable", `{"TableName":"gtab"}`)
	p.clock.Advance(time.Second)
	// With its only replica gone, the source may be deleted.
	p.in(p.east, "DeleteTable", `{"TableName":"gtab"}`)

	// Leaf first: a replica made from the source may be deleted at once,
	// then the source; after 24 hours the source may go first.
	q := newGTPair(t, Config{}, "")
	q.auth = q.east
	q.refused("DeleteTable", `{"TableName":"gtab"}`, "ValidationException")
	q.clock.Advance(sourceWindow)
	q.in(q.east, "DeleteTable", `{"TableName":"gtab"}`)
	q.svc.DrainReplication()
	if got := q.describe(q.west).replicas(); got != "" {
		t.Errorf("replica after the source's DeleteTable: got %q, want no replicas", got)
	}
}

// TestReplicaUpdatesMessages: AWS's refusals of ReplicaUpdates, worded as
// AWS words them (apierr/messages_replicas.go gives the sources).
func TestReplicaUpdatesMessages(t *testing.T) {
	p := newGTPair(t, Config{}, "")
	p.auth = p.east
	for _, c := range []struct{ body, want string }{
		{`[{"Create":{"RegionName":"eu-west-1"}}]`, "Failed to create a the new replica of table with name: \u2018gtab\u2019 because one or more replicas already existed as tables."},
		{`[{"Delete":{"RegionName":"ap-south-1"}}]`, "Update global table operation failed because one or more replicas were not part of the global table. Please retry the request without these replicas: [ap-south-1]."},
		{`[{"Update":{"RegionName":"ap-south-1","TableClassOverride":"STANDARD"}}]`, "not part of the global table"},
		{`[{"Create":{"RegionName":"us-east-1"}}]`, "Cannot add or delete the local region through ReplicaUpdates. Use CreateTable, DeleteTable, or UpdateTable as required."},
		{`[{}]`, "There are no actions specified in the Replica Update Action of the request."},
		{`[{"Create":{"RegionName":"ap-south-1"}},{"Create":{"RegionName":"sa-east-1"}}]`, "Update table operation with more than one create or delete replica actions not allowed"},
	} {
		out := p.refused("UpdateTable", `{"TableName":"gtab","ReplicaUpdates":`+c.body+`}`, "ValidationException")
		if !strings.Contains(out, c.want) {
			t.Errorf("ReplicaUpdates %s: got %s, want %q", c.body, out, c.want)
		}
	}
	// A table of that name in the new region.
	p.auth = testkit.Auth("gt", "ap-south-1")
	p.must("CreateTable", `{"TableName":"gtab","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	p.auth = p.east
	out := p.refused("UpdateTable", `{"TableName":"gtab","ReplicaUpdates":[{"Create":{"RegionName":"ap-south-1"}}]}`, "ValidationException")
	if !strings.Contains(out, "already existed as tables") {
		t.Errorf("Create over an existing table: got %s", out)
	}
}

// TestReplicaActionInFlight: a second replica action while the first is
// under way (the transient delay) is ResourceInUseException.
func TestReplicaActionInFlight(t *testing.T) {
	p := newGTPair(t, Config{TransientDelay: time.Second}, "")
	p.auth = p.east
	out := p.refused("UpdateTable", `{"TableName":"gtab","ReplicaUpdates":[{"Create":{"RegionName":"ap-south-1"}}]}`, "ResourceInUseException")
	if !strings.Contains(out, "The resource which you are attempting to change is in use.") {
		t.Errorf("a second replica action during CREATING: got %s", out)
	}
	p.clock.Advance(time.Second)
	p.in(p.east, "UpdateTable", `{"TableName":"gtab","ReplicaUpdates":[{"Create":{"RegionName":"ap-south-1"}}]}`)
	if got := p.describe(p.east).replicas(); got != "ap-south-1:CREATING eu-west-1:ACTIVE" {
		t.Errorf("replicas: got %q", got)
	}
}

// TestGlobalTableConcurrentFirstChanges: a new replica's first change
// (TTL) made while a GSI created in the source is still on its way
// carries only the TTL, so the source keeps its GSI and both end with
// both changes.
func TestGlobalTableConcurrentFirstChanges(t *testing.T) {
	p := newGTPair(t, Config{}, "")
	p.svc.SetReplicationDelay(time.Second)
	p.in(p.east, "UpdateTable", `{"TableName":"gtab","AttributeDefinitions":[{"AttributeName":"g","AttributeType":"S"}],
		"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}}]}`)
	p.in(p.west, "UpdateTimeToLive", `{"TableName":"gtab","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"exp"}}`)
	p.svc.DrainReplication()
	for _, auth := range []string{p.east, p.west} {
		if got := p.describe(auth).gsis(); got != "byG:ACTIVE" {
			t.Errorf("GSIs: got %q, want byG:ACTIVE", got)
		}
		var ttl struct {
			TimeToLiveDescription struct{ TimeToLiveStatus string }
		}
		testkit.MustUnmarshal(t, p.in(auth, "DescribeTimeToLive", `{"TableName":"gtab"}`), &ttl)
		if ttl.TimeToLiveDescription.TimeToLiveStatus != "ENABLED" {
			t.Errorf("TTL: got %q, want ENABLED", ttl.TimeToLiveDescription.TimeToLiveStatus)
		}
	}
}
