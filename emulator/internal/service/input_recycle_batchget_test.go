package service

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestRecycledBatchGetConcurrent sends BatchGetItem requests from several
// goroutines at once, each worker with its own keys and projection names,
// and checks every answer: the Keys and names maps the input gives back
// to the decoder (op_batch_get_encode.go) go from request to request
// across goroutines, so a key or name of one worker's request that showed
// in another's answer is caught.
func TestRecycledBatchGetConcurrent(t *testing.T) {
	env := newItemsEnv(t)
	const workers, items = 4, 5
	for g := range workers {
		for s := range items {
			env.mustOK("PutItem", fmt.Sprintf(`{"TableName":"ths","Item":{"pk":{"S":"b%d"},"sk":{"N":"%d"},"v%d":{"S":"w%d-%d"},"o":{"S":"other"}}}`, g, s, g, g, s))
		}
	}
	rounds := 100
	if !testkit.FullSize() {
		rounds = 40
	}
	concurrentRounds(workers, rounds, func(g int) func(i int) bool {
		return func(i int) bool {
			var keys []string
			for s := range items {
				keys = append(keys, fmt.Sprintf(`{"pk":{"S":"b%d"},"sk":{"N":"%d"}}`, g, s))
			}
			keys = append(keys, fmt.Sprintf(`{"pk":{"S":"b%d"},"sk":{"N":"99"}}`, g)) // none
			proj := ""
			if i%2 == 1 {
				proj = fmt.Sprintf(`,"ProjectionExpression":"#k%d, sk, #v%d","ExpressionAttributeNames":{"#k%d":"pk","#v%d":"v%d"}`, g, g, g, g, g)
			}
			body := fmt.Sprintf(`{"RequestItems":{"ths":{"Keys":[%s]%s}}}`, strings.Join(keys, ","), proj)
			res, out := testkit.Do(t, env.h, "DynamoDB_20120810.BatchGetItem", itemsAuth, body)
			if res.StatusCode != http.StatusOK {
				t.Errorf("worker %d round %d: BatchGetItem: status %d, body %s", g, i, res.StatusCode, out)
				return false
			}
			var got struct {
				Responses       map[string][]map[string]map[string]string
				UnprocessedKeys map[string]any
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Errorf("worker %d round %d: %v in %s", g, i, err, out)
				return false
			}
			its := got.Responses["ths"]
			if len(its) != items || len(got.UnprocessedKeys) != 0 {
				t.Errorf("worker %d round %d: got %d items, unprocessed %v, want %d and none: %s", g, i, len(its), got.UnprocessedKeys, items, out)
				return false
			}
			seen := map[string]bool{}
			for _, it := range its {
				s := it["sk"]["N"]
				want := 4
				if proj != "" {
					want = 3
				}
				if it["pk"]["S"] != fmt.Sprintf("b%d", g) || it[fmt.Sprintf("v%d", g)]["S"] != fmt.Sprintf("w%d-%s", g, s) || len(it) != want || seen[s] {
					t.Errorf("worker %d round %d: item %v, want the worker's with %d attributes", g, i, it, want)
					return false
				}
				seen[s] = true
			}
			return true
		}
	})
}
