package service

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestRecycledScanConcurrent walks the table with Scan pages from several
// goroutines at once, each worker with its own filter, names, values and
// start keys, and checks every page and each walk's items: the maps a
// ScanInput gives back to the decoder (input_recycle.go), the pooled
// ScanInput structs, the page slices and LastEvaluatedKey maps given back
// after the answer (page_pool.go) go from request to request across
// goroutines, so a key, value or item of one worker's request that showed
// in another's page, or a start key that changed under a walk, is caught.
func TestRecycledScanConcurrent(t *testing.T) {
	env := newItemsEnv(t)
	const workers, items = 4, 6
	for g := range workers {
		for s := range items {
			env.mustOK("PutItem", fmt.Sprintf(`{"TableName":"ths","Item":{"pk":{"S":"s%d-%d"},"sk":{"N":"%d"},"v%d":{"S":"w%d-%d"}}}`, g, s, s, g, g, s))
		}
	}
	rounds := 40
	if !testkit.FullSize() {
		rounds = 15
	}
	type page struct {
		Items            []map[string]map[string]string
		Count            int
		LastEvaluatedKey json.RawMessage
	}
	concurrentRounds(workers, rounds, func(g int) func(i int) bool {
		return func(i int) bool {
			var got []string
			esk := ""
			for pages := 0; ; pages++ {
				if pages > 4*workers*items {
					t.Errorf("worker %d round %d: the walk does not end", g, i)
					return false
				}
				body := fmt.Sprintf(`{"TableName":"ths","FilterExpression":"begins_with(#v%d, :w%d)",`+
					`"ExpressionAttributeNames":{"#v%d":"v%d"},"ExpressionAttributeValues":{":w%d":{"S":"w%d-"}},"Limit":%d`,
					g, g, g, g, g, g, 2+i%3)
				if i%2 == 1 { // else whole items: the page's pooled slice
					body = fmt.Sprintf(`%s,"ProjectionExpression":"pk, sk, #v%d"`, body, g)
				}
				if esk != "" {
					body += `,"ExclusiveStartKey":` + esk
				}
				body += "}"
				res, out := testkit.Do(t, env.h, "DynamoDB_20120810.Scan", itemsAuth, body)
				if res.StatusCode != http.StatusOK {
					t.Errorf("worker %d round %d: Scan: status %d, body %s", g, i, res.StatusCode, out)
					return false
				}
				var p page
				if err := json.Unmarshal([]byte(out), &p); err != nil {
					t.Errorf("worker %d round %d: %v in %s", g, i, err, out)
					return false
				}
				for _, it := range p.Items {
					s := it["sk"]["N"]
					if it["pk"]["S"] != fmt.Sprintf("s%d-%s", g, s) || it[fmt.Sprintf("v%d", g)]["S"] != fmt.Sprintf("w%d-%s", g, s) || len(it) != 3 {
						t.Errorf("worker %d round %d: item %v is not the worker's", g, i, it)
						return false
					}
					got = append(got, s)
				}
				if p.LastEvaluatedKey == nil {
					break
				}
				esk = string(p.LastEvaluatedKey)
			}
			sort.Strings(got)
			if want := []string{"0", "1", "2", "3", "4", "5"}; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("worker %d round %d: the walk found items %v, want %v", g, i, got, want)
				return false
			}
			return true
		}
	})
}
