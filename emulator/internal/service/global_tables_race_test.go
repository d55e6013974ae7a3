package service

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestGlobalTableConcurrency: writes in two regions, drains, and a
// replica created and deleted again and again, all at once, hold the
// lock order of global_tables_repl.go (run with -race; a deadlock hangs
// the test) and leave the replicas equal once drained.
func TestGlobalTableConcurrency(t *testing.T) {
	e := newAPI27Env(t, Config{})
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
