package benchmarks

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Secondary indexes through the handler (server work only): a Query of one
// GSI partition of 10 items on tables of 10k and 1M items (a seek: the
// table's size should not matter), and PutItem on a table with 0 and 5
// GSIs (each index adds its entry's upkeep to the write).

// indexedItemJSON is benchItem (p, s) with a group attribute that puts ten
// consecutive items in one GSI partition.
func indexedItemJSON(tb testing.TB, i int) string {
	it := benchItem(tb, i/10, i%10, true)
	it["grp"] = storage.S(fmt.Sprintf("g%07d", i/10))
	return string(wire.AppendItem(nil, it))
}

func BenchmarkIndexQuery(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			e := newEmulator(b)
			h := e.Handler()
			ak := newAccessKey()
			post := handlerPoster(h, ak)
			must := func(op, body string) {
				if status, out, _ := post(op, body); status != http.StatusOK {
					b.Fatalf("%s: %d %s", op, status, out)
				}
			}
			must("CreateTable", `{"TableName":"idx","BillingMode":"PAY_PER_REQUEST",`+
				`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},{"AttributeName":"grp","AttributeType":"S"}],`+
				`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],`+
				`"GlobalSecondaryIndexes":[{"IndexName":"byGroup","KeySchema":[{"AttributeName":"grp","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}]}`)
			var batch []string
			flush := func() {
				if len(batch) > 0 {
					must("BatchWriteItem", `{"RequestItems":{"idx":[`+strings.Join(batch, ",")+`]}}`)
					batch = batch[:0]
				}
			}
			for i := range n {
				batch = append(batch, `{"PutRequest":{"Item":`+indexedItemJSON(b, i)+`}}`)
				if len(batch) == 25 {
					flush()
				}
			}
			flush()
			r := newRawRequest(ak, "Query", fmt.Sprintf(`{"TableName":"idx","IndexName":"byGroup","KeyConditionExpression":"grp = :g",`+
				`"ExpressionAttributeValues":{":g":{"S":"g%07d"}}}`, n/20))
			if status := r.serve(h); status != http.StatusOK || !bytes.Contains(r.w.out.Bytes(), []byte(`"Count":10,`)) {
				b.Fatalf("status %d: %.200s", status, r.w.out.String())
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if status := r.serve(h); status != http.StatusOK {
					b.Fatalf("status %d", status)
				}
			}
		})
	}
}

func BenchmarkIndexPutItem(b *testing.B) {
	gsis := []string{
		`{"IndexName":"byStatus","KeySchema":[{"AttributeName":"status","KeyType":"HASH"},{"AttributeName":"count","KeyType":"RANGE"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}`,
		`{"IndexName":"byEmail","KeySchema":[{"AttributeName":"email","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}`,
		`{"IndexName":"byPrice","KeySchema":[{"AttributeName":"price","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["tags"]}}`,
		`{"IndexName":"byCount","KeySchema":[{"AttributeName":"count","KeyType":"HASH"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}`,
		`{"IndexName":"byGroup","KeySchema":[{"AttributeName":"grp","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}`,
	}
	for _, k := range []int{0, 5} {
		b.Run(fmt.Sprintf("gsis=%d", k), func(b *testing.B) {
			e := newEmulator(b)
			h := e.Handler()
			ak := newAccessKey()
			post := handlerPoster(h, ak)
			def := `{"TableName":"idx","BillingMode":"PAY_PER_REQUEST",` +
				`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}`
			if k > 0 {
				def += `,{"AttributeName":"status","AttributeType":"S"},{"AttributeName":"count","AttributeType":"N"},{"AttributeName":"email","AttributeType":"S"},` +
					`{"AttributeName":"price","AttributeType":"N"},{"AttributeName":"grp","AttributeType":"S"}`
			}
			def += `],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]`
			if k > 0 {
				def += `,"GlobalSecondaryIndexes":[` + strings.Join(gsis[:k], ",") + `]`
			}
			def += `}`
			if status, out, _ := post("CreateTable", def); status != http.StatusOK {
				b.Fatalf("CreateTable: %d %s", status, out)
			}
			for i := range 1000 {
				if status, out, _ := post("PutItem", `{"TableName":"idx","Item":`+indexedItemJSON(b, i)+`}`); status != http.StatusOK {
					b.Fatalf("PutItem: %d %s", status, out)
				}
			}
			r := newRawRequest(ak, "PutItem", `{"TableName":"idx","Item":`+indexedItemJSON(b, 12)+`}`)
			if status := r.serve(h); status != http.StatusOK {
				b.Fatalf("status %d: %s", status, r.w.out.String())
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if status := r.serve(h); status != http.StatusOK {
					b.Fatalf("status %d", status)
				}
			}
		})
	}
}
