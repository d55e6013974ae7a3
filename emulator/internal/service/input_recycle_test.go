package service

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestRecycledInputsConcurrent sends UpdateItem and GetItem requests from
// several goroutines at once, each with its own names, values and keys,
// and checks every answer: the maps their inputs give back to the decoder
// (input_recycle.go) go from request to request across goroutines, so
// anything of one request that showed in another would be caught here.
func TestRecycledInputsConcurrent(t *testing.T) {
	env := newItemsEnv(t)
	const workers = 4
	rounds := 150
	if !testkit.FullSize() {
		rounds = 60
	}
	concurrentRounds(workers, rounds, func(g int) func(i int) bool {
		return func(i int) bool {
			key := fmt.Sprintf(`{"pk":{"S":"w%d"},"sk":{"N":"%d"}}`, g, i%3)
			upd := fmt.Sprintf(`{"TableName":"ths","Key":%s,"UpdateExpression":"SET #a%d = :v%d ADD #n :one",`+
				`"ConditionExpression":"attribute_not_exists(#a%d) OR #a%d <> :v%d",`+
				`"ExpressionAttributeNames":{"#a%d":"attr%d","#n":"n"},`+
				`"ExpressionAttributeValues":{":v%d":{"S":"value%d-%d"},":one":{"N":"1"}},"ReturnValues":"UPDATED_NEW"}`,
				key, g, g, g, g, g, g, g, g, g, i)
			res, out := testkit.Do(t, env.h, "DynamoDB_20120810.UpdateItem", itemsAuth, upd)
			if res.StatusCode != http.StatusOK {
				t.Errorf("worker %d round %d: UpdateItem: status %d, body %s", g, i, res.StatusCode, out)
				return false
			}
			want := fmt.Sprintf(`"attr%d":{"S":"value%d-%d"}`, g, g, i)
			if !strings.Contains(out, want) || strings.Count(out, `"attr`) != 1 {
				t.Errorf("worker %d round %d: UpdateItem answered %s, want %s and no other attr", g, i, out, want)
				return false
			}
			get := fmt.Sprintf(`{"TableName":"ths","Key":%s,"ProjectionExpression":"#a%d, #n","ExpressionAttributeNames":{"#a%d":"attr%d","#n":"n"}}`,
				key, g, g, g)
			res, out = testkit.Do(t, env.h, "DynamoDB_20120810.GetItem", itemsAuth, get)
			if res.StatusCode != http.StatusOK || !strings.Contains(out, want) || !strings.Contains(out, `"n":{"N":"`) || strings.Count(out, `"attr`) != 1 {
				t.Errorf("worker %d round %d: GetItem: status %d, body %s, want %s and n", g, i, res.StatusCode, out, want)
				return false
			}
			return true
		}
	})
}

// concurrentRounds runs workers goroutines at once, worker g calling the
// round function that worker(g) returns (its set-up done) for i from 0 to
// rounds-1, until one returns false (having reported why); it returns once
// all are done. The recycled-input tests' skeleton.
func concurrentRounds(workers, rounds int, worker func(g int) func(i int) bool) {
	var wg sync.WaitGroup
	for g := range workers {
		wg.Go(func() {
			round := worker(g)
			for i := range rounds {
				if !round(i) {
					return
				}
			}
		})
	}
	wg.Wait()
}

// The pooled inputs: a zeroInput renamed or dropped would end the pooling
// silently (register pools only a pooledInput), so the compiler checks.
var _ = []pooledInput{(*GetItemInput)(nil), (*PutItemInput)(nil), (*QueryInput)(nil), (*ScanInput)(nil)}
