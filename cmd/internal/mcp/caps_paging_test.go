package mcp

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPagingUnderCaps: under byte caps of 1, 7 and 64 KB, paging a
// 1,000-item table (300 without DYNAMOEMU_HEAVY_TESTS: still four
// partitions, six items over the 1 KB cap and three BatchGetItem calls
// of 100 keys) through Query, Scan, PartiQL and BatchGetItem returns
// each item exactly once; an item over the cap comes whole, alone, with
// a note, and every other answer is within the cap and parses. Each page
// is a tool call; under -race the 1,000 items' pages were most of the
// package's CPU.
func TestPagingUnderCaps(t *testing.T) {
	n := 300
	if os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "" {
		n = 1000
	}
	for _, capKB := range []int{1, 7, 64} {
		t.Run(fmt.Sprintf("%dKB", capKB), func(t *testing.T) {
			maxBytes := capKB << 10
			f := newFixture(t, "memory", Options{MaxBytes: maxBytes})
			f.ok("create_table", `{"TableName":"Tab","BillingMode":"PAY_PER_REQUEST",
				"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
				"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}]}`)
			var keys []string
			for i := range n {
				size := 10 + i*37%120
				if i%50 == 7 {
					size = 1500 // over the 1 KB cap by itself
				}
				key := fmt.Sprintf(`{"pk":{"S":"p%d"},"sk":{"S":"%04d"}}`, i%4, i)
				keys = append(keys, key)
				item := strings.TrimSuffix(key, "}") + fmt.Sprintf(`,"blob":{"S":"%s"}}`, strings.Repeat("x", size))
				_, err := f.srv.eng.call(testCtx(t), apiDynamoDB, "PutItem", []byte(`{"TableName":"Tab","Item":`+item+`}`))
				require.NoError(t, err)
			}
			// page checks one answer and returns its items' sort keys.
			page := func(text, member string) (sks []string, ans map[string]json.RawMessage) {
				require.NoError(t, json.Unmarshal([]byte(text), &ans), "an answer that does not parse: %.200s", text)
				var items []map[string]struct{ S string }
				require.NoError(t, json.Unmarshal(ans[member], &items))
				if len(text) > maxBytes {
					require.Len(t, items, 1, "an answer over the cap holds more than one item")
					require.Contains(t, string(ans[notesMember]), "returned whole")
				}
				for _, it := range items {
					sks = append(sks, it["sk"].S)
				}
				return sks, ans
			}
			once := func(what string, seen []string) {
				t.Helper()
				count := map[string]int{}
				for _, sk := range seen {
					count[sk]++
				}
				for i := range n {
					require.Equal(t, 1, count[fmt.Sprintf("%04d", i)], "%s: item %04d returned %d times", what, i, count[fmt.Sprintf("%04d", i)])
				}
				require.Len(t, seen, n, what)
			}

			var seen []string
			for p := range 4 {
				start := ""
				for calls := 0; ; calls++ {
					require.Less(t, calls, 2*n, "Query paging does not end")
					text := f.ok("query", fmt.Sprintf(`{"TableName":"Tab","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"p%d"}}%s}`, p, start))
					sks, ans := page(text, "Items")
					seen = append(seen, sks...)
					if ans["LastEvaluatedKey"] == nil {
						break
					}
					start = `,"ExclusiveStartKey":` + string(ans["LastEvaluatedKey"])
				}
			}
			once("Query", seen)

			seen, start := nil, ""
			for calls := 0; ; calls++ {
				require.Less(t, calls, 2*n, "Scan paging does not end")
				sks, ans := page(f.ok("scan", `{"TableName":"Tab"`+start+`}`), "Items")
				seen = append(seen, sks...)
				if ans["LastEvaluatedKey"] == nil {
					break
				}
				start = `,"ExclusiveStartKey":` + string(ans["LastEvaluatedKey"])
			}
			once("Scan", seen)

			seen, start = nil, ""
			for calls := 0; ; calls++ {
				require.Less(t, calls, 2*n, "PartiQL paging does not end")
				sks, ans := page(f.ok("execute_statement", `{"Statement":"SELECT * FROM \"Tab\""`+start+`}`), "Items")
				seen = append(seen, sks...)
				if ans["NextToken"] == nil {
					break
				}
				start = `,"NextToken":` + string(ans["NextToken"])
			}
			once("PartiQL", seen)

			seen = nil
			for lo := 0; lo < n; lo += 100 {
				pending := keys[lo : lo+100]
				for calls := 0; len(pending) > 0; calls++ {
					require.Less(t, calls, 2*n, "BatchGetItem does not end")
					text := f.ok("batch_get_item", `{"RequestItems":{"Tab":{"Keys":[`+strings.Join(pending, ",")+`]}}}`)
					var ans struct {
						Responses       map[string][]map[string]struct{ S string }
						UnprocessedKeys map[string]struct{ Keys []json.RawMessage }
					}
					require.NoError(t, json.Unmarshal([]byte(text), &ans))
					if len(text) > maxBytes {
						require.Len(t, ans.Responses["Tab"], 1, "an answer over the cap holds more than one item")
					}
					for _, it := range ans.Responses["Tab"] {
						seen = append(seen, it["sk"].S)
					}
					pending = nil
					for _, k := range ans.UnprocessedKeys["Tab"].Keys {
						pending = append(pending, string(k))
					}
				}
			}
			once("BatchGetItem", seen)

			// GetItem of an item over the cap: whole, with a note.
			text := f.ok("get_item", `{"TableName":"Tab","Key":`+keys[7]+`}`)
			var got map[string]json.RawMessage
			require.NoError(t, json.Unmarshal([]byte(text), &got), "get_item answered JSON that does not parse")
			require.Contains(t, string(got["Item"]), strings.Repeat("x", 1500))
		})
	}
}
