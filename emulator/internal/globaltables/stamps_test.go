package globaltables

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestGlobalTableLocalWriteWins: on a clock that does not move, a write
// in eu-west-1 over an item replicated from us-east-1 at the same instant
// is the later write and reaches us-east-1 (before, the replicated
// write's stamp won the tie by region name there while the local write
// stood in eu-west-1: the replicas differed; TestGlobalTableConcurrency
// caught it once).
func TestGlobalTableLocalWriteWins(t *testing.T) {
	e := newClockEnv(t, Config{})
	east, west := testkit.Auth("stamp", "us-east-1"), testkit.Auth("stamp", "eu-west-1")
	do := func(auth, op, body string) string {
		t.Helper()
		e.auth = auth
		return e.must(op, body)
	}
	get := func(auth string) string {
		t.Helper()
		var out struct{ Item map[string]map[string]string }
		testkit.MustUnmarshal(t, do(auth, "GetItem", `{"TableName":"stamps","Key":{"pk":{"S":"k"}},"ConsistentRead":true}`), &out)
		return out.Item["v"]["S"]
	}
	do(east, "CreateTable", `{"TableName":"stamps","BillingMode":"PAY_PER_REQUEST","StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"},
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	do(east, "UpdateTable", `{"TableName":"stamps","ReplicaUpdates":[{"Create":{"RegionName":"eu-west-1"}}]}`)
	do(east, "PutItem", `{"TableName":"stamps","Item":{"pk":{"S":"k"},"v":{"S":"east"}}}`)
	e.svc.DrainReplication()
	if got := get(west); got != "east" {
		t.Fatalf("replica after the drain: got %q, want east", got)
	}
	do(west, "PutItem", `{"TableName":"stamps","Item":{"pk":{"S":"k"},"v":{"S":"west"}}}`)
	e.svc.DrainReplication()
	if ge, gw := get(east), get(west); ge != "west" || gw != "west" {
		t.Errorf("after the local write and a drain: east %q, west %q, want west in both", ge, gw)
	}
}
