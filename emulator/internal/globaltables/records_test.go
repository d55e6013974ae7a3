package globaltables

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// streamEvents returns the records of table's latest stream in the
// region of auth, each as "EVENT pk[ +rep]" (+rep: the new image has
// aws:rep:*; ~identity: the record has a userIdentity).
func streamEvents(t *testing.T, e *clockEnv, auth, table string) []string {
	t.Helper()
	call := func(op, body string, out any) {
		t.Helper()
		res, b := doService(t, e.svc, "DynamoDBStreams_20120810."+op, auth, body)
		if res.StatusCode != 200 {
			t.Fatalf("%s: %s", op, b)
		}
		testkit.MustUnmarshal(t, b, out)
	}
	var ls struct{ Streams []struct{ StreamArn string } }
	call("ListStreams", `{"TableName":"`+table+`"}`, &ls)
	if len(ls.Streams) == 0 {
		t.Fatalf("no stream on %s", table)
	}
	arn := ls.Streams[len(ls.Streams)-1].StreamArn
	var ds struct {
		StreamDescription struct{ Shards []struct{ ShardId string } }
	}
	call("DescribeStream", `{"StreamArn":"`+arn+`"}`, &ds)
	var out []string
	for _, sh := range ds.StreamDescription.Shards {
		var it struct{ ShardIterator string }
		call("GetShardIterator", `{"StreamArn":"`+arn+`","ShardId":"`+sh.ShardId+`","ShardIteratorType":"TRIM_HORIZON"}`, &it)
		var gr struct {
			Records []struct {
				EventName    string `json:"eventName"`
				UserIdentity any    `json:"userIdentity"`
				Dynamodb     struct {
					Keys     map[string]map[string]string
					NewImage map[string]map[string]any
					OldImage map[string]map[string]any
				} `json:"dynamodb"`
			}
		}
		call("GetRecords", `{"ShardIterator":"`+it.ShardIterator+`"}`, &gr)
		for _, r := range gr.Records {
			s := r.EventName + " " + r.Dynamodb.Keys["pk"]["S"]
			if _, ok := r.Dynamodb.NewImage[repUpdateRegion]; ok {
				s += " +rep"
			}
			if d, ok := r.Dynamodb.NewImage[repDeleting]; ok && fmt.Sprint(d["BOOL"]) == "true" {
				s += " deleting"
			}
			if r.UserIdentity != nil {
				s += " ~identity"
			}
			out = append(out, s)
		}
	}
	return out
}

// TestReplicatedStreamRecords2019: in version 2019.11.21 the replica's
// stream has one ordinary record per replicated write (no user identity,
// no aws:rep:* attributes), and the source's stream one per local write.
func TestReplicatedStreamRecords2019(t *testing.T) {
	p := newGTPair(t, Config{}, "")
	p.in(p.east, "PutItem", `{"TableName":"gtab","Item":{"pk":{"S":"a"},"v":{"N":"1"}}}`)
	p.in(p.east, "UpdateItem", `{"TableName":"gtab","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET v = :v","ExpressionAttributeValues":{":v":{"N":"2"}}}`)
	p.in(p.east, "DeleteItem", `{"TableName":"gtab","Key":{"pk":{"S":"a"}}}`)
	p.svc.DrainReplication()
	want := []string{"INSERT a", "MODIFY a", "REMOVE a"}
	if got := streamEvents(t, p.clockEnv, p.east, "gtab"); !slices.Equal(got, want) {
		t.Errorf("source stream: got %q, want %q", got, want)
	}
	if got := streamEvents(t, p.clockEnv, p.west, "gtab"); !slices.Equal(got, want) {
		t.Errorf("replica stream: got %q, want %q", got, want)
	}
}

// TestLegacyRepAttributes: a 2017.11.29 global table's items carry
// aws:rep:deleting, aws:rep:updateregion and aws:rep:updatetime, added
// by a second write in the source region (two stream records per write
// there) and carried by the replicated write (one record in the
// replica); a replicated delete marks the item deleting, then deletes it.
func TestLegacyRepAttributes(t *testing.T) {
	e := newClockEnv(t, Config{})
	east, west := testkit.Auth("leg", "us-east-1"), testkit.Auth("leg", "us-west-2")
	for _, auth := range []string{east, west} {
		e.auth = auth
		e.must("CreateTable", `{"TableName":"legacy","BillingMode":"PAY_PER_REQUEST","StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"},
			"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	}
	e.must("CreateGlobalTable", `{"GlobalTableName":"legacy","ReplicationGroup":[{"RegionName":"us-east-1"},{"RegionName":"us-west-2"}]}`)
	e.clock.Advance(1234567 * time.Microsecond)
	e.auth = east
	e.must("PutItem", `{"TableName":"legacy","Item":{"pk":{"S":"k"},"v":{"S":"east"}}}`)
	e.svc.DrainReplication()
	get := func(auth string) map[string]map[string]any {
		t.Helper()
		e.auth = auth
		var out struct{ Item map[string]map[string]any }
		testkit.MustUnmarshal(t, e.must("GetItem", `{"TableName":"legacy","Key":{"pk":{"S":"k"}},"ConsistentRead":true}`), &out)
		return out.Item
	}
	wantTime := fmt.Sprintf("%d.234567", e.clock.Now().Unix())
	for _, auth := range []string{east, west} {
		it := get(auth)
		if it[repUpdateRegion]["S"] != "us-east-1" || it[repUpdateTime]["N"] != wantTime || it[repDeleting]["BOOL"] != false {
			t.Errorf("item in %s: got %v, want aws:rep:* of us-east-1 at %s", auth, it, wantTime)
		}
	}
	if got, want := streamEvents(t, e, east, "legacy"), []string{"INSERT k", "MODIFY k +rep"}; !slices.Equal(got, want) {
		t.Errorf("source stream: got %q, want %q", got, want)
	}
	if got, want := streamEvents(t, e, west, "legacy"), []string{"INSERT k +rep"}; !slices.Equal(got, want) {
		t.Errorf("replica stream: got %q, want %q", got, want)
	}
	e.auth = west
	e.must("DeleteItem", `{"TableName":"legacy","Key":{"pk":{"S":"k"}}}`)
	e.svc.DrainReplication()
	got := streamEvents(t, e, east, "legacy")
	if want := []string{"INSERT k", "MODIFY k +rep", "MODIFY k +rep deleting", "REMOVE k"}; !slices.Equal(got, want) {
		t.Errorf("source stream after a delete in the replica: got %q, want %q", got, want)
	}
	if it := get(east); it != nil {
		t.Errorf("after the replicated delete: got %v, want no item", it)
	}
	if s := repTime(replStamp{at: time.Unix(1602518560, 314000000)}); s != "1602518560.314" {
		t.Errorf("repTime: got %q, want a canonical number", s)
	}
}

// TestReplicationStampsPruned: the per-key write stamps do not grow with
// every key written: once the queue is applied and the clock has moved
// past them, they go, and last writer wins still holds afterwards.
func TestReplicationStampsPruned(t *testing.T) {
	old := pruneMinStamps
	pruneMinStamps = 16
	defer func() { pruneMinStamps = old }()
	p := newGTPair(t, Config{}, "")
	for i := range 200 {
		p.clock.Advance(time.Millisecond)
		p.in(p.east, "PutItem", fmt.Sprintf(`{"TableName":"gtab","Item":{"pk":{"S":"k%d"}}}`, i))
		if i%10 == 0 {
			p.svc.DrainReplication()
		}
	}
	p.clock.Advance(time.Millisecond)
	p.svc.DrainReplication()
	if n := p.svc.StampCount(); n > 2*16+2*10 {
		t.Errorf("stamps after 200 keys: got %d, want them pruned", n)
	}
	// Last writer wins after pruning: the later write wins in both.
	p.in(p.west, "PutItem", `{"TableName":"gtab","Item":{"pk":{"S":"k1"},"v":{"S":"west"}}}`)
	p.clock.Advance(time.Millisecond)
	p.in(p.east, "PutItem", `{"TableName":"gtab","Item":{"pk":{"S":"k1"},"v":{"S":"east"}}}`)
	p.svc.DrainReplication()
	for _, auth := range []string{p.east, p.west} {
		var out struct{ Item map[string]map[string]string }
		testkit.MustUnmarshal(t, p.in(auth, "GetItem", `{"TableName":"gtab","Key":{"pk":{"S":"k1"}}}`), &out)
		if out.Item["v"]["S"] != "east" {
			t.Errorf("%s: got %v, want the later write", strings.Split(auth, "/")[0], out.Item)
		}
	}
}
