package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestCrash is the persistence crash test: the server runs as a child process
// with -dbPath while workers drive conditional puts, updates and deletes,
// batches, transactions across two tables, TTL deletions (the clock moved
// and a sweep forced through the admin endpoints), GSIs added and
// dropped and tables created and deleted; it is killed with SIGKILL at a
// random instant, restarted on the same directory (with a durability
// mode drawn at random: each promises that an acknowledged change
// survives the process being killed), and checked: it starts, every
// acknowledged change is there, every change sent without an answer is
// there whole or not at all (a transaction all or nothing), nothing else
// is, main's GSI holds exactly what a Scan of main says it should
// (Query per GSI partition), and the stream of the table "streamed" is
// continuous (crash_stream_test.go). -dbCompactBytes is small, so the log is
// folded into snapshots while all this goes on.
//
// It kills the server 10 times, 50 with DYNAMOEMU_HEAVY_TESTS (which CI
// sets); DYNAMOEMU_CRASH_KILLS sets the number of kills;
// DYNAMOEMU_CRASH_SEED replays a seed (the choices and the
// instants of the kills; the interleaving of the workers is the
// scheduler's).
func TestCrash(t *testing.T) {
	kills := 10
	if heavyTests() {
		kills = 50
	}
	if s := os.Getenv("DYNAMOEMU_CRASH_KILLS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("DYNAMOEMU_CRASH_KILLS=%q: %v", s, err)
		}
		kills = n
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("DYNAMOEMU_CRASH_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("DYNAMOEMU_CRASH_SEED=%q: %v", s, err)
		}
		seed = v
	}
	t.Logf("seed %d (replay: DYNAMOEMU_CRASH_SEED=%d), %d kills", seed, seed, kills)
	defer func() {
		if t.Failed() {
			t.Logf("seed %d (replay: DYNAMOEMU_CRASH_SEED=%d)", seed, seed)
		}
	}()

	dir := t.TempDir()
	r := rand.New(rand.NewPCG(seed, 0))
	m := newCrashModel()
	sm := &streamModel{}
	ctx := context.Background()
	var total, unanswered int
	for life := 0; life <= kills; life++ {
		durability := []string{"sync", "group", "none"}[r.IntN(3)]
		c, err := tryStartChild(t, "-dbPath", dir, "-durability", durability, "-dbCompactBytes", "32768", "-ttlSweepInterval", "0")
		if err != nil {
			t.Fatalf("life %d: the store did not open: %v", life, err)
		}
		cl := newClient(c.url)
		if life == 0 {
			crashSetup(t, ctx, cl, m)
			if err := streamSetup(ctx, cl, m, sm); err != nil {
				t.Fatal(err)
			}
		} else {
			got, err := readState(ctx, cl)
			if err != nil {
				c.kill()
				t.Fatalf("life %d: reading back: %v\n%s", life, err, c.logs.String())
			}
			bad := m.check(got)
			bad = append(bad, sm.check(ctx, cl, got)...) // stream records are continuous (crash_stream_test.go)
			if len(bad) > 0 {
				c.kill()
				t.Fatalf("life %d (durability %s before): %d discrepancies after the restart:\n%s", life, durability, len(bad), strings.Join(bad[:min(len(bad), 30)], "\n"))
			}
		}
		if life == kills {
			c.stop(t)
			break
		}
		// Work, then kill at a random instant.
		wctx, cancel := context.WithCancel(ctx)
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for w := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- itemWorker(wctx, cl, m, rand.New(rand.NewPCG(seed, uint64(life*16+w+1))), w)
			}()
		}
		wg.Add(3)
		go func() {
			defer wg.Done()
			errs <- streamWorker(wctx, cl, m, sm, rand.New(rand.NewPCG(seed, uint64(life*16+10))))
		}()
		go func() {
			defer wg.Done()
			errs <- ttlWorker(wctx, cl, m, rand.New(rand.NewPCG(seed, uint64(life*16+8))))
		}()
		go func() {
			defer wg.Done()
			errs <- ddlWorker(wctx, cl, m, rand.New(rand.NewPCG(seed, uint64(life*16+9))), life)
		}()
		time.Sleep(time.Duration(20+r.IntN(400)) * time.Millisecond)
		c.kill()
		cancel()
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("life %d: %v\nserver log:\n%s", life, err, c.logs.String())
			}
		}
		total += m.acked
		unanswered += len(m.pending)
	}
	t.Logf("%d kills, %d acknowledged changes, %d unanswered, %d stream records checked after the last restart", kills, total, unanswered, len(sm.seen))
	if total == 0 {
		t.Errorf("no change was acknowledged")
	}
}

// crashSetup creates main (with TTL on exp) and other.
func crashSetup(t *testing.T, ctx context.Context, cl *client, m *crashModel) {
	t.Helper()
	for _, name := range []string{"main", "other"} {
		if err := cl.call(ctx, "CreateTable", `{"TableName":"`+name+`","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`, nil); err != nil {
			t.Fatal(err)
		}
		m.tables[name] = true
	}
	if err := cl.call(ctx, "UpdateTimeToLive", `{"TableName":"main","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"exp"}}`, nil); err != nil {
		t.Fatal(err)
	}
}

// readState reads back every table, its items and main's GSI, checking
// that the GSI holds what main's items say it should.
func readState(ctx context.Context, cl *client) (serverState, error) {
	st := serverState{tables: map[string]bool{}, items: map[string]string{}}
	var lt struct{ TableNames []string }
	if err := cl.call(ctx, "ListTables", `{}`, &lt); err != nil {
		return st, err
	}
	var mainItems []map[string]map[string]any
	for _, name := range lt.TableNames {
		st.tables[name] = true
		items, err := cl.scanAll(ctx, name, "")
		if err != nil {
			return st, err
		}
		for _, it := range items {
			st.items[itemKey(name, it["pk"]["S"].(string))] = fingerprint(it)
		}
		if name == "main" {
			mainItems = items
		}
	}
	var d struct {
		Table struct {
			GlobalSecondaryIndexes []struct{ IndexName, IndexStatus string }
		}
	}
	if err := cl.call(ctx, "DescribeTable", `{"TableName":"main"}`, &d); err != nil {
		return st, err
	}
	for _, x := range d.Table.GlobalSecondaryIndexes {
		if x.IndexStatus != "ACTIVE" {
			continue
		}
		st.gsi = x.IndexName
		// Query each partition of the GSI: it holds each item of main,
		// by g, with the same attributes.
		for _, g := range crashGroups {
			want := map[string]string{}
			for _, it := range mainItems {
				if it["g"]["S"] == g {
					want[it["pk"]["S"].(string)] = fingerprint(it)
				}
			}
			got := map[string]string{}
			var start json.RawMessage
			for {
				req := map[string]any{"TableName": "main", "IndexName": x.IndexName, "KeyConditionExpression": "g = :g",
					"ExpressionAttributeValues": map[string]any{":g": map[string]string{"S": g}}}
				if start != nil {
					req["ExclusiveStartKey"] = start
				}
				b, _ := json.Marshal(req)
				var out struct {
					Items            []map[string]map[string]any
					LastEvaluatedKey json.RawMessage
				}
				if err := cl.call(ctx, "Query", string(b), &out); err != nil {
					return st, err
				}
				for _, it := range out.Items {
					got[it["pk"]["S"].(string)] = fingerprint(it)
				}
				if len(out.LastEvaluatedKey) == 0 || string(out.LastEvaluatedKey) == "null" {
					break
				}
				start = out.LastEvaluatedKey
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				return st, fmt.Errorf("GSI %s, g = %s: got %v, want %v (a Scan of main)", x.IndexName, g, got, want)
			}
		}
	}
	return st, nil
}

var crashGroups = []string{"g0", "g1", "g2", "g3"}

// itemJSON is an item of version v in group g (with exp, an epoch time,
// when not 0) and its fingerprint.
func itemJSON(pk string, v int, g string, exp int64) (string, string) {
	s := fmt.Sprintf(`{"pk":{"S":%q},"v":{"N":"%d"},"g":{"S":%q}`, pk, v, g)
	fp := fmt.Sprintf("v=%d g=%s", v, g)
	if exp != 0 {
		s += fmt.Sprintf(`,"exp":{"N":"%d"}`, exp)
		fp += " exp"
	}
	return s + "}", fp
}

// version is the v of fingerprint fp (0 when absent).
func version(fp string) int {
	if fp == "" {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimPrefix(strings.Fields(fp)[0], "v="))
	return n
}

// condition is the condition that the item is as fp says: absent, or of
// version v.
func condition(fp string) (string, string) {
	if fp == "" {
		return "attribute_not_exists(pk)", ""
	}
	return "v = :prev", fmt.Sprintf(`,"ExpressionAttributeValues":{":prev":{"N":"%d"}}`, version(fp))
}

// settle records the outcome of a change: acknowledged, unanswered (the
// server is gone: the worker stops), or an error (a bug: the test fails).
func settle(m *crashModel, err error, p pendingChange) (stop bool, fail error) {
	switch {
	case err == nil:
		m.ack(p.writes)
		return false, nil
	case isTransport(err):
		m.unanswered(p)
		return true, nil
	}
	return true, fmt.Errorf("%s: %w", p.desc, err)
}

// itemWorker writes the keys w<w>-<i> of main and other until the server is gone.
func itemWorker(ctx context.Context, cl *client, m *crashModel, r *rand.Rand, w int) error {
	key := func() (string, string) {
		return []string{"main", "other"}[r.IntN(2)], fmt.Sprintf("w%d-%d", w, r.IntN(6))
	}
	for ctx.Err() == nil {
		var op, body string
		p := pendingChange{writes: map[string]string{}}
		switch n := r.IntN(20); {
		case n < 6: // conditional put
			tbl, pk := key()
			cur := m.get(itemKey(tbl, pk))
			item, fp := itemJSON(pk, version(cur)+1, crashGroups[r.IntN(4)], 0)
			cond, vals := condition(cur)
			op, body = "PutItem", fmt.Sprintf(`{"TableName":%q,"Item":%s,"ConditionExpression":%q%s}`, tbl, item, cond, vals)
			p.writes[itemKey(tbl, pk)] = fp
		case n < 9: // conditional update
			tbl, pk := key()
			cur := m.get(itemKey(tbl, pk))
			g := crashGroups[r.IntN(4)]
			v := version(cur) + 1
			cond, vals := condition(cur)
			if vals == "" {
				vals = fmt.Sprintf(`,"ExpressionAttributeValues":{":v":{"N":"%d"},":g":{"S":%q}}`, v, g)
			} else {
				vals = strings.TrimSuffix(vals, "}") + fmt.Sprintf(`,":v":{"N":"%d"},":g":{"S":%q}}`, v, g)
			}
			op, body = "UpdateItem", fmt.Sprintf(`{"TableName":%q,"Key":{"pk":{"S":%q}},"UpdateExpression":"SET v = :v, g = :g","ConditionExpression":%q%s}`, tbl, pk, cond, vals)
			p.writes[itemKey(tbl, pk)] = fmt.Sprintf("v=%d g=%s", v, g)
		case n < 11: // conditional delete
			tbl, pk := key()
			cur := m.get(itemKey(tbl, pk))
			cond, vals := condition(cur)
			op, body = "DeleteItem", fmt.Sprintf(`{"TableName":%q,"Key":{"pk":{"S":%q}},"ConditionExpression":%q%s}`, tbl, pk, cond, vals)
			p.writes[itemKey(tbl, pk)] = ""
		case n < 15: // batch
			reqs := map[string][]string{}
			for range 2 + r.IntN(4) {
				tbl, pk := key()
				k := itemKey(tbl, pk)
				if _, dup := p.writes[k]; dup {
					continue
				}
				if r.IntN(4) == 0 {
					reqs[tbl] = append(reqs[tbl], fmt.Sprintf(`{"DeleteRequest":{"Key":{"pk":{"S":%q}}}}`, pk))
					p.writes[k] = ""
				} else {
					item, fp := itemJSON(pk, version(m.get(k))+1, crashGroups[r.IntN(4)], 0)
					reqs[tbl] = append(reqs[tbl], `{"PutRequest":{"Item":`+item+`}}`)
					p.writes[k] = fp
				}
			}
			var parts []string
			for _, tbl := range slices.Sorted(maps.Keys(reqs)) {
				parts = append(parts, fmt.Sprintf(`%q:[%s]`, tbl, strings.Join(reqs[tbl], ",")))
			}
			op, body = "BatchWriteItem", `{"RequestItems":{`+strings.Join(parts, ",")+`}}`
		default: // transaction: all or nothing
			p.atomic = true
			var acts []string
			for range 2 + r.IntN(4) {
				tbl, pk := key()
				k := itemKey(tbl, pk)
				if _, dup := p.writes[k]; dup {
					continue
				}
				cur := m.get(k)
				cond, vals := condition(cur)
				if cur != "" && r.IntN(4) == 0 {
					acts = append(acts, fmt.Sprintf(`{"Delete":{"TableName":%q,"Key":{"pk":{"S":%q}},"ConditionExpression":%q%s}}`, tbl, pk, cond, vals))
					p.writes[k] = ""
				} else {
					item, fp := itemJSON(pk, version(cur)+1, crashGroups[r.IntN(4)], 0)
					acts = append(acts, fmt.Sprintf(`{"Put":{"TableName":%q,"Item":%s,"ConditionExpression":%q%s}}`, tbl, item, cond, vals))
					p.writes[k] = fp
				}
			}
			op, body = "TransactWriteItems", `{"TransactItems":[`+strings.Join(acts, ",")+`]}`
		}
		p.desc = op + " " + body
		var out struct{ UnprocessedItems map[string]any }
		err := cl.call(ctx, op, body, &out)
		if err == nil && len(out.UnprocessedItems) > 0 {
			return fmt.Errorf("%s: unprocessed items %v", p.desc, out.UnprocessedItems)
		}
		if stop, err := settle(m, err, p); stop {
			return err
		}
	}
	return nil
}

// ttlWorker puts the items ttl-<i> of main, expired an hour ago, and now
// and then moves the clock a minute on and forces a sweep, which deletes
// every one of them. The clock moves by minutes so that it stays well
// within the stream retention of the first records over a whole run
// (streamModel expects every record).
func ttlWorker(ctx context.Context, cl *client, m *crashModel, r *rand.Rand) error {
	for ctx.Err() == nil {
		if r.IntN(4) > 0 {
			pk := fmt.Sprintf("ttl-%d", r.IntN(5))
			k := itemKey("main", pk)
			cur := m.get(k)
			item, fp := itemJSON(pk, version(cur)+1, crashGroups[r.IntN(4)], time.Now().Add(-time.Hour).Unix())
			cond, vals := condition(cur)
			body := fmt.Sprintf(`{"TableName":"main","Item":%s,"ConditionExpression":%q%s}`, item, cond, vals)
			if stop, err := settle(m, cl.call(ctx, "PutItem", body, nil), pendingChange{desc: "PutItem " + body, writes: map[string]string{k: fp}}); stop {
				return err
			}
			continue
		}
		if err := cl.admin(ctx, "/dynamoemu/clock", `{"advance":"1m"}`); err != nil {
			if isTransport(err) {
				return nil
			}
			return fmt.Errorf("advancing the clock: %w", err)
		}
		p := pendingChange{desc: "TTL sweep", writes: map[string]string{}}
		for i := range 5 {
			if k := itemKey("main", fmt.Sprintf("ttl-%d", i)); m.get(k) != "" {
				p.writes[k] = ""
			}
		}
		if stop, err := settle(m, cl.admin(ctx, "/dynamoemu/ttl/sweep", `{}`), p); stop {
			return err
		}

	}
	return nil
}

// ddlWorker adds and drops main's GSI and creates, fills and deletes
// churn tables.
func ddlWorker(ctx context.Context, cl *client, m *crashModel, r *rand.Rand, life int) error {
	for n := 0; ctx.Err() == nil; n++ {
		time.Sleep(time.Duration(r.IntN(20)) * time.Millisecond)
		m.mu.Lock()
		gsi := m.gsi
		var churn string
		for name := range m.tables {
			if strings.HasPrefix(name, "churn-") {
				churn = name
			}
		}
		m.mu.Unlock()
		switch {
		case r.IntN(2) == 0 && gsi == "":
			name := fmt.Sprintf("byG-%d-%d", life, n)
			body := `{"TableName":"main","AttributeDefinitions":[{"AttributeName":"g","AttributeType":"S"},{"AttributeName":"pk","AttributeType":"S"}],` +
				`"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"` + name + `","KeySchema":[{"AttributeName":"g","KeyType":"HASH"},{"AttributeName":"pk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}}]}`
			err := cl.call(ctx, "UpdateTable", body, nil)
			if err == nil {
				m.mu.Lock()
				m.gsi = name
				m.mu.Unlock()
			}
			if stop, err := settle(m, err, pendingChange{desc: "UpdateTable add " + name, addGSI: name}); stop {
				return err
			}
		case r.IntN(6) == 0 && gsi != "":
			err := cl.call(ctx, "UpdateTable", `{"TableName":"main","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"`+gsi+`"}}]}`, nil)
			if err == nil {
				m.mu.Lock()
				m.gsi = ""
				m.mu.Unlock()
			}
			if stop, err := settle(m, err, pendingChange{desc: "UpdateTable drop " + gsi, dropGSI: gsi}); stop {
				return err
			}
		case churn != "":
			err := cl.call(ctx, "DeleteTable", `{"TableName":"`+churn+`"}`, nil)
			if err == nil {
				m.mu.Lock()
				delete(m.tables, churn)
				for k := range m.items {
					if strings.HasPrefix(k, churn+"|") {
						delete(m.items, k)
					}
				}
				m.mu.Unlock()
			}
			if stop, err := settle(m, err, pendingChange{desc: "DeleteTable " + churn, dropTable: churn}); stop {
				return err
			}
		default:
			name := fmt.Sprintf("churn-%d-%d", life, n)
			err := cl.call(ctx, "CreateTable", `{"TableName":"`+name+`","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`, nil)
			if err == nil {
				m.mu.Lock()
				m.tables[name] = true
				m.mu.Unlock()
			}
			if stop, err := settle(m, err, pendingChange{desc: "CreateTable " + name, createTable: name}); stop {
				return err
			}
			a, fa := itemJSON("c-0", 1, "g0", 0)
			b, fb := itemJSON("c-1", 1, "g1", 0)
			body := `{"RequestItems":{"` + name + `":[{"PutRequest":{"Item":` + a + `}},{"PutRequest":{"Item":` + b + `}}]}}`
			p := pendingChange{desc: "BatchWriteItem " + body, writes: map[string]string{itemKey(name, "c-0"): fa, itemKey(name, "c-1"): fb}}
			if stop, err := settle(m, cl.call(ctx, "BatchWriteItem", body, nil), p); stop {
				return err
			}
		}
	}
	return nil
}
