package service

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestReadLagEndsFree: a table's read lag set back to lag nothing drops
// its shadow, so a PutItem (and an eventually consistent read) allocates again
// what it did before the lag (each write is applied to the shadow too
// while it lags), and
// the gate handed out still works: set to lag again, eventually
// consistent reads trail again.
func TestReadLagEndsFree(t *testing.T) {
	if testkit.RaceEnabled {
		t.Skip("allocation counts: sync.Pool drops items at random under the race detector")
	}
	s := newTestService(t, Config{})
	const ak, region = "AKIDLAGALLOCS", "us-east-1"
	serve := func(op, body string) []byte {
		t.Helper()
		o, err := s.Lookup(TargetPrefix + op)
		if err != nil {
			t.Fatal(err)
		}
		out, err := s.Serve(o, &Request{Ctx: context.Background(), AccessKey: ak, Region: region, Body: []byte(body)})
		if err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		return out
	}
	serve("CreateTable", `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],`+
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	const n = 2000
	puts, gets := make([]string, n), make([]string, n)
	for i := range puts {
		puts[i] = fmt.Sprintf(`{"TableName":"tbl","Item":{"pk":{"S":"k%05d"},"v":{"S":"a value"}}}`, i)
		gets[i] = fmt.Sprintf(`{"TableName":"tbl","Key":{"pk":{"S":"k%05d"}}}`, i)
		serve("PutItem", fmt.Sprintf(`{"TableName":"tbl","Item":{"pk":{"S":"k%05d"},"v":{"S":"first"}}}`, i))
	}
	// Each run puts a changed item (a put of the same item changes
	// nothing and queues nothing) and reads it back eventually
	// consistently, which applies what the lag shows to the shadow.
	i := 0
	allocs := func() float64 {
		return testing.AllocsPerRun(200, func() {
			serve("PutItem", puts[i%n])
			serve("GetItem", gets[i%n])
			i++
		})
	}
	g, err := s.TableReadLag(ak, region, "tbl")
	if err != nil {
		t.Fatal(err)
	}
	before := allocs()
	g.SetDelay(time.Nanosecond) // on the real clock: each read shows the writes before it
	lagging := allocs()
	if rl := s.namespaceOf(ak, region).getTable("tbl").data.ReadLag(); rl != g {
		t.Fatalf("storage holds %v as the read lag while the gate lags, want the gate", rl)
	}
	g.SetDelay(0)
	after := allocs()
	t.Logf("allocations per PutItem and GetItem: %v without a lag, %v lagging, %v after", before, lagging, after)
	if lagging <= before {
		t.Errorf("got %v allocations per PutItem and GetItem lagging, want more than %v (the shadow's cost; else this test measures nothing)", lagging, before)
	}
	if after != before {
		t.Errorf("got %v allocations per PutItem and GetItem after the lag ended, want %v as before it", after, before)
	}
	if got := s.namespaceOf(ak, region).getTable("tbl").data.ReadLag(); got != nil {
		t.Errorf("storage still holds the read gate after SetDelay(0)")
	}

	// The same gate lags again.
	g.Hold()
	serve("PutItem", `{"TableName":"tbl","Item":{"pk":{"S":"new"}}}`)
	get := `{"TableName":"tbl","Key":{"pk":{"S":"new"}}}`
	if out := string(serve("GetItem", get)); out != "{}" {
		t.Errorf("eventually consistent GetItem of a held write: got %s, want {}", out)
	}
	g.Release()
	if out := string(serve("GetItem", get)); out == "{}" {
		t.Errorf("eventually consistent GetItem after Release: got %s, want the item", out)
	}
}
