package service

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
)

// TestReadLagHoldOrdered: writers write their own items, versions 1, 2,
// 3, ..., while a table's read gate is held. A write made once the gate
// says it is held (Settings) is hidden from eventually consistent reads
// until Release, and a write done before Hold was called is seen: the
// hold and the shadow start at one point of the table's commits
// (fx_lag_switch.go). Then the gate is set back to lag nothing and held
// again, each round. Run under -race with -count.
func TestReadLagHoldOrdered(t *testing.T) {
	s := newTestService(t, Config{})
	const ak, region = "AKIDLAGSWITCH", "us-east-1"
	serve := func(op, body string) (string, error) {
		o, err := s.Lookup(TargetPrefix + op)
		if err != nil {
			return "", err
		}
		out, err := s.Serve(o, &Request{Ctx: context.Background(), AccessKey: ak, Region: region, Body: []byte(body)})
		return string(out), err
	}
	if _, err := serve("CreateTable", `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],`+
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`); err != nil {
		t.Fatal(err)
	}
	g, err := s.TableReadLag(ak, region, "tbl")
	if err != nil {
		t.Fatal(err)
	}
	version := regexp.MustCompile(`"v":\{"N":"(\d+)"\}`)
	read := func(w int) int { // the version an eventually consistent read sees (0: none)
		out, err := serve("GetItem", fmt.Sprintf(`{"TableName":"tbl","Key":{"pk":{"S":"w%d"}}}`, w))
		if err != nil {
			t.Fatal(err)
		}
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
	s := newTestService(t, Config{})
	const ak, region = "AKIDLAGIDLE", "us-east-1"
	serve := func(op, body string) {
		t.Helper()
		o, err := s.Lookup(TargetPrefix + op)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Serve(o, &Request{Ctx: context.Background(), AccessKey: ak, Region: region, Body: []byte(body)}); err != nil {
			t.Fatalf("%s: %v", op, err)
		}
	}
	serve("CreateTable", `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}],`+
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"GlobalSecondaryIndexes":[{"IndexName":"byG",`+
		`"KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`)
	g, err := s.IndexLag(ak, region, "tbl", "byG")
	if err != nil {
		t.Fatal(err)
	}
	data := s.namespaceOf(ak, region).getTable("tbl").data
	for i := range 10 {
		serve("PutItem", fmt.Sprintf(`{"TableName":"tbl","Item":{"pk":{"S":"k%d"},"g":{"S":"x"}}}`, i))
	}
	if n := data.IndexLagPending("byG"); n != 0 || g.Last() != 0 {
		t.Errorf("idle gate: got %d writes queued, %d numbered; want none", n, g.Last())
	}
	g.Hold()
	serve("PutItem", `{"TableName":"tbl","Item":{"pk":{"S":"held"},"g":{"S":"x"}}}`)
	if n := data.IndexLagPending("byG"); n != 1 {
		t.Errorf("held gate: got %d writes queued, want 1", n)
	}
	g.SetDelay(0)
	serve("PutItem", `{"TableName":"tbl","Item":{"pk":{"S":"after"},"g":{"S":"x"}}}`)
	if n := data.IndexLagPending("byG"); n != 0 {
		t.Errorf("idle again: got %d writes queued, want none", n)
	}
}
