package service

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/catalog"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestRecycledQueryConcurrent sends Query requests from several goroutines
// at once, each worker with its own partition, names, values and start
// key, and checks every page: the maps a QueryInput gives back to the
// decoder (input_recycle.go), the pooled QueryInput structs and the page
// slices given back after the answer go from request to request across
// goroutines, so a key, value, parameter or item of one worker's request
// that showed in another's page is caught.
func TestRecycledQueryConcurrent(t *testing.T) {
	env := newItemsEnv(t)
	const workers, items = 4, 6
	for g := range workers {
		for s := range items {
			env.mustOK("PutItem", fmt.Sprintf(`{"TableName":"ths","Item":{"pk":{"S":"q%d"},"sk":{"N":"%d"},"v%d":{"S":"w%d-%d"}}}`, g, s, g, g, s))
		}
	}
	rounds := 150
	if !testkit.FullSize() {
		rounds = 60
	}
	type page struct {
		Items            []map[string]map[string]string
		Count            int
		LastEvaluatedKey map[string]map[string]string
	}
	concurrentRounds(workers, rounds, func(g int) func(i int) bool {
		return func(i int) bool {
			lo := i % 3       // sk >= lo
			esk := i%2 == 1   // start after sk = lo
			limit := i%4 == 0 // Limit 2
			body := fmt.Sprintf(`{"TableName":"ths","KeyConditionExpression":"#p%d = :p%d AND sk >= :lo%d",`+
				`"FilterExpression":"begins_with(#v%d, :w%d)",`+
				`"ExpressionAttributeNames":{"#p%d":"pk","#v%d":"v%d"},`+
				`"ExpressionAttributeValues":{":p%d":{"S":"q%d"},":lo%d":{"N":"%d"},":w%d":{"S":"w%d-"}}`,
				g, g, g, g, g, g, g, g, g, g, g, lo, g, g)
			if i%5 < 2 { // else whole items: the page's pooled slice (page_pool.go)
				body += fmt.Sprintf(`,"ProjectionExpression":"#p%d, sk, #v%d"`, g, g)
			}
			if esk {
				body += fmt.Sprintf(`,"ExclusiveStartKey":{"pk":{"S":"q%d"},"sk":{"N":"%d"}}`, g, lo)
			}
			if limit {
				body += `,"Limit":2`
			}
			body += "}"
			res, out := testkit.Do(t, env.h, "DynamoDB_20120810.Query", itemsAuth, body)
			if res.StatusCode != http.StatusOK {
				t.Errorf("worker %d round %d: Query: status %d, body %s", g, i, res.StatusCode, out)
				return false
			}
			var got page
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Errorf("worker %d round %d: %v in %s", g, i, err, out)
				return false
			}
			first := lo
			if esk {
				first++
			}
			want := items - first
			if limit {
				want = min(want, 2)
			}
			if got.Count != want || len(got.Items) != want {
				t.Errorf("worker %d round %d: Count %d, %d items, want %d: %s", g, i, got.Count, len(got.Items), want, out)
				return false
			}
			for k, it := range got.Items {
				s := first + k
				if it["pk"]["S"] != fmt.Sprintf("q%d", g) || it["sk"]["N"] != fmt.Sprint(s) ||
					it[fmt.Sprintf("v%d", g)]["S"] != fmt.Sprintf("w%d-%d", g, s) || len(it) != 3 {
					t.Errorf("worker %d round %d: item %d is %v, want q%d/%d/w%d-%d", g, i, k, it, g, s, g, s)
					return false
				}
			}
			if lek := got.LastEvaluatedKey; lek != nil && lek["pk"]["S"] != fmt.Sprintf("q%d", g) {
				t.Errorf("worker %d round %d: LastEvaluatedKey %v", g, i, lek)
				return false
			}
			return true
		}
	})
}

// TestRecycledIndexQueryConcurrent: Query of two indexes whose keys have
// other attributes (byA: a and sk, ALL; byB: b alone, KEYS_ONLY) from
// several goroutines at once, a page of 2 each: a request's indexRead and
// key names live in the pooled readRequest (setIndex), so a page whose
// items or LastEvaluatedKey show another index's attributes is caught.
func TestRecycledIndexQueryConcurrent(t *testing.T) {
	env := newItemsEnv(t)
	env.mustOK("CreateTable", `{"TableName":"tix","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},
			{"AttributeName":"a","AttributeType":"S"},{"AttributeName":"b","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"GlobalSecondaryIndexes":[
			{"IndexName":"byA","KeySchema":[{"AttributeName":"a","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}},
			{"IndexName":"byB","KeySchema":[{"AttributeName":"b","KeyType":"HASH"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}]}`)
	const workers, items = 4, 5
	for g := range workers {
		for s := range items {
			env.mustOK("PutItem", fmt.Sprintf(`{"TableName":"tix","Item":{"pk":{"S":"p%d-%d"},"sk":{"N":"%d"},"a":{"S":"a%d"},"b":{"S":"b%d"},"v":{"S":"x"}}}`, g, s, s, g, g))
		}
	}
	rounds := 150
	if !testkit.FullSize() {
		rounds = 60
	}
	concurrentRounds(workers, rounds, func(g int) func(i int) bool {
		index, attr := "byA", "a"
		// byA's pages: the whole item; its LastEvaluatedKey a, sk and pk.
		wantItem := []string{"a", "b", "pk", "sk", "v"}
		wantKey := []string{"a", "pk", "sk"}
		if g%2 == 1 {
			// byB's: the index and table keys, the same in its LastEvaluatedKey.
			index, attr = "byB", "b"
			wantItem = []string{"b", "pk", "sk"}
			wantKey = wantItem
		}
		body := fmt.Sprintf(`{"TableName":"tix","IndexName":%q,"KeyConditionExpression":"%s = :v","ExpressionAttributeValues":{":v":{"S":"%s%d"}},"Limit":2}`, index, attr, attr, g)
		return func(i int) bool {
			res, out := testkit.Do(t, env.h, "DynamoDB_20120810.Query", itemsAuth, body)
			if res.StatusCode != http.StatusOK {
				t.Errorf("worker %d round %d: status %d, body %s", g, i, res.StatusCode, out)
				return false
			}
			var got struct {
				Items            []map[string]map[string]string
				LastEvaluatedKey map[string]map[string]string
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Errorf("worker %d round %d: %v in %s", g, i, err, out)
				return false
			}
			if len(got.Items) != 2 || got.LastEvaluatedKey == nil {
				t.Errorf("worker %d round %d: want 2 items and a LastEvaluatedKey: %s", g, i, out)
				return false
			}
			for _, it := range append(got.Items, got.LastEvaluatedKey) {
				want := wantItem
				if len(it) != len(want) && len(it) == len(wantKey) {
					want = wantKey
				}
				if len(it) != len(want) || it[attr]["S"] != fmt.Sprintf("%s%d", attr, g) {
					t.Errorf("worker %d round %d: %v, want the attributes %v with %s %s%d: %s", g, i, it, want, attr, attr, g, out)
					return false
				}
				for _, n := range want {
					if _, ok := it[n]; !ok {
						t.Errorf("worker %d round %d: %v lacks %s: %s", g, i, it, n, out)
						return false
					}
				}
			}
			if lek := got.LastEvaluatedKey; len(lek) != len(wantKey) {
				t.Errorf("worker %d round %d: LastEvaluatedKey %v, want the attributes %v", g, i, lek, wantKey)
				return false
			}
			return true
		}
	})
}

// TestIndexProjectionCache: an index's own projection is compiled once
// per index definition and table (table.indexProjection): the same
// definition gets the same projection again, another definition of the
// same name (an index deleted and created anew) its own. What the
// projections keep is checked end to end (TestRecycledIndexQueryConcurrent,
// the conformance suite's index projections).
func TestIndexProjectionCache(t *testing.T) {
	env := newItemsEnv(t)
	env.mustOK("CreateTable", `{"TableName":"tpc","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
		"GlobalSecondaryIndexes":[{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}]}`)
	tb := env.emu.get(catalog.Key{AccessKey: "ITEMS", Region: "us-east-1"}).getTable("tpc")
	x := tb.meta.Load().GSIs[0]
	keysOnly := &indexRead{x: x, keep: x.Projected(tb.schema)}
	p := tb.indexProjection(keysOnly)
	if p == nil || tb.indexProjection(&indexRead{x: x, keep: x.Projected(tb.schema)}) != p {
		t.Fatalf("the same index definition compiled twice (or not at all): %p", p)
	}
	other := *x
	other.Projection = tablespec.IndexProjection{Type: tablespec.ProjectionInclude, NonKey: []string{"v"}}
	if q := tb.indexProjection(&indexRead{x: &other, keep: other.Projected(tb.schema)}); q == nil || q == p {
		t.Fatalf("another definition of the index: %p, the first's %p", q, p)
	}
}
