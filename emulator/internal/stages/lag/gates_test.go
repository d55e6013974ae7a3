package lag_test

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/lag"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

var testStages = []service.Stage{lag.Stage{}}

// newService starts a service on the real clock, closed when the test
// ends, and returns a function that sends one operation to namespace
// ak in us-east-1.
func newService(t *testing.T, ak string) (*service.Service, func(op, body string) (string, error)) {
	t.Helper()
	s, err := service.New(service.Config{Stages: testStages})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, func(op, body string) (string, error) {
		o, err := s.Lookup(service.TargetPrefix + op)
		if err != nil {
			return "", err
		}
		out, err := s.Serve(o, &service.Request{Ctx: context.Background(), AccessKey: ak, Region: region, Body: []byte(body)})
		return string(out), err
	}
}

const region = "us-east-1"

// must sends op through serve and fails the test on an error.
func must(t *testing.T, serve func(op, body string) (string, error), op, body string) string {
	t.Helper()
	out, err := serve(op, body)
	if err != nil {
		t.Fatalf("%s: %v", op, err)
	}
	return out
}

// storageOf is table name's storage table in namespace ak.
func storageOf(t *testing.T, s *service.Service, ak, name string) *storage.Table {
	t.Helper()
	tbl, ok := s.SpaceFor(ak, region).Table(name)
	if !ok {
		t.Fatalf("no table %s", name)
	}
	return tbl.Storage()
}

// TestReadLagHoldOrdered: writers write their own items, versions 1, 2,
// 3, ..., while a table's read gate is held. A write made once the gate
// says it is held (Settings) is hidden from eventually consistent reads
// until Release, and a write done before Hold was called is seen: the
// hold and the shadow start at one point of the table's commits
// (switchRead). Then the gate is set back to lag nothing and held again,
// each round. Run under -race with -count.
func TestReadLagHoldOrdered(t *testing.T) {
	const ak = "AKIDLAGSWITCH"
	s, serve := newService(t, ak)
	must(t, serve, "CreateTable", `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],`+
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	g, err := lag.TableReadLag(s, ak, region, "tbl")
	if err != nil {
		t.Fatal(err)
	}
	version := regexp.MustCompile(`"v":\{"N":"(\d+)"\}`)
	read := func(w int) int { // the version an eventually consistent read sees (0: none)
		out := must(t, serve, "GetItem", fmt.Sprintf(`{"TableName":"tbl","Key":{"pk":{"S":"w%d"}}}`, w))
		m := version.FindStringSubmatch(out)
		if m == nil {
			return 0
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	const writers, rounds, perRound = 4, 20, 40
	var next [writers]int // each writer's next version
	for round := range rounds {
		var (
			holding   atomic.Bool
			done      atomic.Int64 // writes done this round
			wg        sync.WaitGroup
			firstHeld [writers]int // the first version written once Settings said held (0: none)
			doneFirst [writers]int // the last version done before Hold was called
		)
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range perRound {
					next[w]++
					v := next[w]
					if _, held := g.Settings(); held && firstHeld[w] == 0 {
						firstHeld[w] = v
					}
					if _, err := serve("PutItem", fmt.Sprintf(`{"TableName":"tbl","Item":{"pk":{"S":"w%d"},"v":{"N":"%d"}}}`, w, v)); err != nil {
						t.Error(err)
						return
					}
					if !holding.Load() {
						doneFirst[w] = v
					}
					done.Add(1)
				}
			}()
		}
		for done.Load() < writers*perRound/4 {
			// let the writers start
		}
		holding.Store(true)
		g.Hold()
		wg.Wait()
		for w := range writers {
			got := read(w)
			if firstHeld[w] != 0 && got >= firstHeld[w] {
				t.Fatalf("round %d, writer %d: an eventually consistent read sees version %d, want one before %d (written once the gate was held)",
					round, w, got, firstHeld[w])
			}
			if got < doneFirst[w] {
				t.Fatalf("round %d, writer %d: an eventually consistent read sees version %d, want at least %d (done before Hold)",
					round, w, got, doneFirst[w])
			}
		}
		g.Release()
		for w := range writers {
			if got := read(w); got != next[w] {
				t.Fatalf("round %d, writer %d: after Release got version %d, want %d", round, w, got, next[w])
			}
		}
		g.SetDelay(0) // storage drops the shadow; the next Hold starts another
	}
}

// TestIndexLagIdlePassesThrough: a GSI's gate at delay 0 and not held
// queues nothing: each write goes straight to the index (storage's
// lag_switch.go); held, writes queue until Release.
func TestIndexLagIdlePassesThrough(t *testing.T) {
	const ak = "AKIDLAGIDLE"
	s, serve := newService(t, ak)
	must(t, serve, "CreateTable", `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}],`+
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"GlobalSecondaryIndexes":[{"IndexName":"byG",`+
		`"KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`)
	g, err := lag.IndexLag(s, ak, region, "tbl", "byG")
	if err != nil {
		t.Fatal(err)
	}
	data := storageOf(t, s, ak, "tbl")
	for i := range 10 {
		must(t, serve, "PutItem", fmt.Sprintf(`{"TableName":"tbl","Item":{"pk":{"S":"k%d"},"g":{"S":"x"}}}`, i))
	}
	if n := data.IndexLagPending("byG"); n != 0 || g.Last() != 0 {
		t.Errorf("idle gate: got %d writes queued, %d numbered; want none", n, g.Last())
	}
	g.Hold()
	must(t, serve, "PutItem", `{"TableName":"tbl","Item":{"pk":{"S":"held"},"g":{"S":"x"}}}`)
	if n := data.IndexLagPending("byG"); n != 1 {
		t.Errorf("held gate: got %d writes queued, want 1", n)
	}
	g.SetDelay(0)
	must(t, serve, "PutItem", `{"TableName":"tbl","Item":{"pk":{"S":"after"},"g":{"S":"x"}}}`)
	if n := data.IndexLagPending("byG"); n != 0 {
		t.Errorf("idle again: got %d writes queued, want none", n)
	}
}

// TestReadLagEndsFree: a table's read lag set back to lag nothing drops
// its shadow, so a PutItem (and an eventually consistent read) allocates
// again what it did before the lag (each write is applied to the shadow
// too while it lags), and the gate handed out still works: set to lag
// again, eventually consistent reads trail again.
func TestReadLagEndsFree(t *testing.T) {
	if testkit.RaceEnabled {
		t.Skip("allocation counts: sync.Pool drops items at random under the race detector")
	}
	const ak = "AKIDLAGALLOCS"
	s, serve := newService(t, ak)
	must(t, serve, "CreateTable", `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],`+
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	const n = 2000
	puts, gets := make([]string, n), make([]string, n)
	for i := range puts {
		puts[i] = fmt.Sprintf(`{"TableName":"tbl","Item":{"pk":{"S":"k%05d"},"v":{"S":"a value"}}}`, i)
		gets[i] = fmt.Sprintf(`{"TableName":"tbl","Key":{"pk":{"S":"k%05d"}}}`, i)
		must(t, serve, "PutItem", fmt.Sprintf(`{"TableName":"tbl","Item":{"pk":{"S":"k%05d"},"v":{"S":"first"}}}`, i))
	}
	// Each run puts a changed item (a put of the same item changes
	// nothing and queues nothing) and reads it back eventually
	// consistently, which applies what the lag shows to the shadow.
	i := 0
	allocs := func() float64 {
		return testing.AllocsPerRun(200, func() {
			must(t, serve, "PutItem", puts[i%n])
			must(t, serve, "GetItem", gets[i%n])
			i++
		})
	}
	g, err := lag.TableReadLag(s, ak, region, "tbl")
	if err != nil {
		t.Fatal(err)
	}
	data := storageOf(t, s, ak, "tbl")
	before := allocs()
	g.SetDelay(time.Nanosecond) // on the real clock: each read shows the writes before it
	lagging := allocs()
	if rl := data.ReadLag(); rl != storage.Lag(g) {
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
	if got := data.ReadLag(); got != nil {
		t.Errorf("storage still holds the read gate after SetDelay(0)")
	}

	// The same gate lags again.
	g.Hold()
	must(t, serve, "PutItem", `{"TableName":"tbl","Item":{"pk":{"S":"new"}}}`)
	get := `{"TableName":"tbl","Key":{"pk":{"S":"new"}}}`
	if out := must(t, serve, "GetItem", get); out != "{}" {
		t.Errorf("eventually consistent GetItem of a held write: got %s, want {}", out)
	}
	g.Release()
	if out := must(t, serve, "GetItem", get); out == "{}" {
		t.Errorf("eventually consistent GetItem after Release: got %s, want the item", out)
	}
}
