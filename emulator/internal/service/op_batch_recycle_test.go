package service

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// recycleItemJSON is item j of worker g's round i: twelve attributes (an
// item map of the decoder's item pool), every value naming g, i and j.
func recycleItemJSON(g, i, j int) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, `{"pk":{"S":"w%d"},"sk":{"N":"%d"},"g":{"S":"gw%d"}`, g, i*100+j, g)
	for a := range 9 {
		fmt.Fprintf(&sb, `,"a%d":{"S":"v%d-%d-%d-%d"}`, a, g, i, j, a)
	}
	fmt.Fprintf(&sb, `,"ss":{"SS":["x%d","y%d-%d"]}}`, g, i, j)
	return sb.String()
}

// TestRecycledBatchWritesConcurrent sends BatchWriteItem and PutItem
// requests of items of twelve attributes from several goroutines at once,
// to a table with a GSI, and reads every item back: the item maps the
// writes give back to the decoder (op_batch_recycle.go) go from request to
// request across goroutines, so an item stored, indexed or answered with
// another request's attributes would be caught here.
func TestRecycledBatchWritesConcurrent(t *testing.T) {
	env := newItemsEnv(t)
	env.mustOK("CreateTable", `{"TableName":"tgs","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},{"AttributeName":"g","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"GlobalSecondaryIndexes":[{"IndexName":"byg","KeySchema":[{"AttributeName":"g","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}]}`)
	const workers, perBatch = 4, 6
	rounds := 40
	if !testkit.FullSize() {
		rounds = 15
	}
	concurrentRounds(workers, rounds, func(g int) func(i int) bool {
		return func(i int) bool {
			table := []string{"ths", "tgs"}[i%2]
			var sb strings.Builder
			fmt.Fprintf(&sb, `{"RequestItems":{"%s":[`, table)
			for j := range perBatch {
				if j > 0 {
					sb.WriteByte(',')
				}
				fmt.Fprintf(&sb, `{"PutRequest":{"Item":%s}}`, recycleItemJSON(g, i, j))
			}
			sb.WriteString(`]}}`)
			res, out := testkit.Do(t, env.h, "DynamoDB_20120810.BatchWriteItem", itemsAuth, sb.String())
			if res.StatusCode != http.StatusOK || out != `{"UnprocessedItems":{}}` {
				t.Errorf("worker %d round %d: BatchWriteItem: status %d, body %s", g, i, res.StatusCode, out)
				return false
			}
			put := fmt.Sprintf(`{"TableName":"%s","Item":%s,"ReturnConsumedCapacity":"INDEXES"}`, table, recycleItemJSON(g, i, perBatch))
			res, out = testkit.Do(t, env.h, "DynamoDB_20120810.PutItem", itemsAuth, put)
			if res.StatusCode != http.StatusOK || table == "tgs" && !strings.Contains(out, `"GlobalSecondaryIndexes":{"byg":{"CapacityUnits":1}}`) {
				t.Errorf("worker %d round %d: PutItem: status %d, body %s, want the GSI's unit", g, i, res.StatusCode, out)
				return false
			}
			for j := range perBatch + 1 {
				get := fmt.Sprintf(`{"TableName":"%s","Key":{"pk":{"S":"w%d"},"sk":{"N":"%d"}}}`, table, g, i*100+j)
				res, out := testkit.Do(t, env.h, "DynamoDB_20120810.GetItem", itemsAuth, get)
				if want := `{"Item":` + recycleItemJSON(g, i, j) + `}`; res.StatusCode != http.StatusOK || !sameItemJSON(t, out, want) {
					t.Errorf("worker %d round %d item %d: GetItem: status %d, got %s, want %s", g, i, j, res.StatusCode, out, want)
					return false
				}
			}
			return true
		}
	})
	// Each worker's items in the GSI: every odd round's, whole.
	for g := range workers {
		q := fmt.Sprintf(`{"TableName":"tgs","IndexName":"byg","KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"gw%d"}}}`, g)
		out := env.mustOK("Query", q)
		for i := 1; i < rounds; i += 2 {
			for j := range perBatch + 1 {
				if want := fmt.Sprintf(`"a8":{"S":"v%d-%d-%d-8"}`, g, i, j); !strings.Contains(out, want) {
					t.Errorf("worker %d: GSI Query lacks %s: %.300s", g, want, out)
				}
			}
		}
		if got, want := strings.Count(out, `"a0":`), (rounds/2)*(perBatch+1); got != want {
			t.Errorf("worker %d: GSI Query answered %d items, want %d", g, got, want)
		}
	}
}

// sameItemJSON reports whether two JSON texts hold the same value, whatever
// the order of their object members.
func sameItemJSON(t *testing.T, got, want string) bool {
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		return false
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want %s: %v", want, err)
	}
	return reflect.DeepEqual(g, w)
}
