package service

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestRecycledWritesConcurrent sends conditional PutItem and DeleteItem
// requests and TransactGetItems with projections from several goroutines
// at once, each worker with its own keys, names and values, and checks
// every answer: the maps these inputs give back to the decoder
// (input_recycle.go) go from request to request across goroutines, so a
// key, name or value of one worker's request that showed in another's
// answer, or changed its condition, is caught.
func TestRecycledWritesConcurrent(t *testing.T) {
	env := newItemsEnv(t)
	const workers = 4
	rounds := 100
	if !testkit.FullSize() {
		rounds = 40
	}
	concurrentRounds(workers, rounds, func(g int) func(i int) bool {
		do := func(op, body string) (int, string) {
			res, out := testkit.Do(t, env.h, "DynamoDB_20120810."+op, itemsAuth, body)
			return res.StatusCode, out
		}
		return func(i int) bool {
			for s := range 2 {
				put := fmt.Sprintf(`{"TableName":"ths","Item":{"pk":{"S":"d%d"},"sk":{"N":"%d"},"v%d":{"S":"x%d-%d-%d"}},`+
					`"ConditionExpression":"attribute_not_exists(#k%d) OR #v%d <> :v%d",`+
					`"ExpressionAttributeNames":{"#k%d":"pk","#v%d":"v%d"},"ExpressionAttributeValues":{":v%d":{"S":"x%d-%d-%d"}}}`,
					g, s, g, g, i, s, g, g, g, g, g, g, g, g, i, s)
				if status, out := do("PutItem", put); status != http.StatusOK {
					t.Errorf("worker %d round %d: PutItem: status %d, body %s", g, i, status, out)
					return false
				}
			}
			get := fmt.Sprintf(`{"TransactItems":[`+
				`{"Get":{"TableName":"ths","Key":{"pk":{"S":"d%d"},"sk":{"N":"0"}},"ProjectionExpression":"#v%d","ExpressionAttributeNames":{"#v%d":"v%d"}}},`+
				`{"Get":{"TableName":"ths","Key":{"pk":{"S":"d%d"},"sk":{"N":"1"}}}}]}`, g, g, g, g, g)
			status, out := do("TransactGetItems", get)
			want := fmt.Sprintf(`{"Responses":[{"Item":{"v%d":{"S":"x%d-%d-0"}}},{"Item":{"pk":{"S":"d%d"},"sk":{"N":"1"},"v%d":{"S":"x%d-%d-1"}}}]}`, g, g, i, g, g, g, i)
			if status != http.StatusOK || !sameItemJSON(t, out, want) {
				t.Errorf("worker %d round %d: TransactGetItems: status %d, got %s, want %s", g, i, status, out, want)
				return false
			}
			del := fmt.Sprintf(`{"TableName":"ths","Key":{"pk":{"S":"d%d"},"sk":{"N":"%d"}},"ConditionExpression":"#v%d = :v%d",`+
				`"ExpressionAttributeNames":{"#v%d":"v%d"},"ExpressionAttributeValues":{":v%d":{"S":"x%d-%d-%d"}},"ReturnValues":"ALL_OLD"}`,
				g, i%2, g, g, g, g, g, g, i, i%2)
			status, out = do("DeleteItem", del)
			if want := fmt.Sprintf(`"v%d":{"S":"x%d-%d-%d"}`, g, g, i, i%2); status != http.StatusOK || !strings.Contains(out, want) {
				t.Errorf("worker %d round %d: DeleteItem: status %d, body %s, want %s", g, i, status, out, want)
				return false
			}
			return true
		}
	})
}
