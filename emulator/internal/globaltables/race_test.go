package globaltables

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestGlobalTableConcurrency: writes in two regions, drains, and a
// replica created and deleted again and again, all at once, hold the
// lock order of replication.go (run with -race; a deadlock hangs
// the test) and leave the replicas equal once drained.
func TestGlobalTableConcurrency(t *testing.T) {
	e := newClockEnv(t, Config{})
	east, west := testkit.Auth("race", "us-east-1"), testkit.Auth("race", "eu-west-1")
	send := func(auth, op, body string) (int, string) {
		res, out := doService(t, e.svc, "DynamoDB_20120810."+op, auth, body)
		return res.StatusCode, out
	}
	if st, out := send(east, "CreateTable", `{"TableName":"race","BillingMode":"PAY_PER_REQUEST","StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"},
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`); st != http.StatusOK {
		t.Fatal(out)
	}
	const rounds = 20
	var wg sync.WaitGroup
	for w, auth := range []string{east, west} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds * 5 {
				send(auth, "PutItem", fmt.Sprintf(`{"TableName":"race","Item":{"pk":{"S":"k%d"},"v":{"N":"%d"}}}`, i%7, w))
			}
		}()
	}
	wg.Add(2)
	go func() {
		defer wg.Done()
		for range rounds {
			send(east, "UpdateTable", `{"TableName":"race","ReplicaUpdates":[{"Create":{"RegionName":"eu-west-1"}}]}`)
			send(east, "UpdateTable", `{"TableName":"race","ReplicaUpdates":[{"Delete":{"RegionName":"eu-west-1"}}]}`)
		}
		send(east, "UpdateTable", `{"TableName":"race","ReplicaUpdates":[{"Create":{"RegionName":"eu-west-1"}}]}`)
	}()
	go func() {
		defer wg.Done()
		for range rounds * 5 {
			e.svc.DrainReplication()
		}
	}()
	testkit.WaitOrDump(t, &wg)
	e.svc.DrainReplication()
	scan := func(auth string) []string {
		st, out := send(auth, "Scan", `{"TableName":"race","ConsistentRead":true}`)
		if st != http.StatusOK {
			t.Fatalf("Scan: %s", out)
		}
		e.auth = auth
		return scanItems(t, e, "race")
	}
	ge, gw := scan(east), scan(west)
	if fmt.Sprint(ge) != fmt.Sprint(gw) {
		t.Errorf("replicas differ after the drain:\neast %v\nwest %v", ge, gw)
	}
}

// TestGlobalTableConcurrentDefinitions: writes in two regions, drains,
// GSIs created and deleted in us-east-1 and the table class changed in
// eu-west-1, all at once, hold the lock order (replicator.drainMu before
// table.mu; run with -race) and leave the replicas with the same items
// and the same synchronized settings once drained: each member carries
// only what changed, so the two changes do not undo each other.
func TestGlobalTableConcurrentDefinitions(t *testing.T) {
	p := newGTPair(t, Config{}, "")
	send := func(auth, op, body string) (int, string) {
		res, out := doService(t, p.svc, "DynamoDB_20120810."+op, auth, body)
		return res.StatusCode, out
	}
	const rounds = 20
	var wg sync.WaitGroup
	for w, auth := range []string{p.east, p.west} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds * 5 {
				send(auth, "PutItem", fmt.Sprintf(`{"TableName":"gtab","Item":{"pk":{"S":"k%d"},"g":{"S":"v%d"}}}`, i%7, w))
			}
		}()
	}
	wg.Add(3)
	go func() {
		defer wg.Done()
		for range rounds {
			send(p.east, "UpdateTable", `{"TableName":"gtab","AttributeDefinitions":[{"AttributeName":"g","AttributeType":"S"}],
				"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}}]}`)
			send(p.east, "UpdateTable", `{"TableName":"gtab","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"byG"}}]}`)
		}
		send(p.east, "UpdateTable", `{"TableName":"gtab","AttributeDefinitions":[{"AttributeName":"g","AttributeType":"S"}],
			"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}}]}`)
	}()
	go func() {
		defer wg.Done()
		for i := range rounds {
			class := []string{"STANDARD", "STANDARD_INFREQUENT_ACCESS"}[i%2]
			send(p.west, "UpdateTable", `{"TableName":"gtab","TableClass":"`+class+`"}`)
		}
	}()
	go func() {
		defer wg.Done()
		for range rounds * 5 {
			p.svc.DrainReplication()
		}
	}()
	testkit.WaitOrDump(t, &wg)
	p.svc.DrainReplication()
	p.svc.DrainReplication() // what the first drain's definition changes queued
	e, w := p.describe(p.east), p.describe(p.west)
	if e.gsis() != "byG:ACTIVE" || w.gsis() != "byG:ACTIVE" {
		t.Errorf("GSIs after the drain: east %q, west %q, want byG in both", e.gsis(), w.gsis())
	}
	if e.TableClassSummary != w.TableClassSummary {
		t.Errorf("table class after the drain: east %+v, west %+v", e.TableClassSummary, w.TableClassSummary)
	}
	p.auth = p.east
	ge := scanItems(t, p.clockEnv, "gtab")
	p.auth = p.west
	gw := scanItems(t, p.clockEnv, "gtab")
	if fmt.Sprint(ge) != fmt.Sprint(gw) {
		t.Errorf("replicas differ after the drain:\neast %v\nwest %v", ge, gw)
	}
	var q struct{ Count int }
	testkit.MustUnmarshal(t, p.in(p.west, "Query", `{"TableName":"gtab","IndexName":"byG","KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"v0"}}}`), &q)
	var qe struct{ Count int }
	testkit.MustUnmarshal(t, p.in(p.east, "Query", `{"TableName":"gtab","IndexName":"byG","KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"v0"}}}`), &qe)
	if q.Count != qe.Count {
		t.Errorf("GSI byG: east has %d items of v0, west %d", qe.Count, q.Count)
	}
}
