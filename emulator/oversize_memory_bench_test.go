package emulator

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// oversizeBodies are requests of about 4 MB whose size is one list or map
// member (cmd/dynamoemu's TestOversizedMembers and TestOversizedRequests
// send the same over HTTP to a server of their own).
var oversizeBodies = []struct {
	name, op string
	elem     func(i int) string
	head     string
	tail     string
}{
	{"AttributesToGet", "GetItem", func(i int) string { return fmt.Sprintf(`"a%07d"`, i) },
		`{"TableName":"tab","Key":{"pk":{"S":"a"}},"AttributesToGet":["pk",`, `]}`},
	{"KeyConditions", "Query", func(i int) string {
		return fmt.Sprintf(`"a%07d":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"x"}]}`, i)
	}, `{"TableName":"tab","KeyConditions":{`, `}}`},
	{"ScanFilter", "Scan", func(i int) string {
		return fmt.Sprintf(`"a%07d":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"x"}]}`, i)
	}, `{"TableName":"tab","ScanFilter":{`, `}}`},
	{"QueryFilter", "Query", func(i int) string {
		return fmt.Sprintf(`"a%07d":{"ComparisonOperator":"IN","AttributeValueList":[{"S":"x"},{"S":"y"}]}`, i)
	}, `{"TableName":"tab","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}},"QueryFilter":{`, `}}`},
	{"ExpressionAttributeValues", "Query", func(i int) string { return fmt.Sprintf(`":v%07d":{"S":"x"}`, i) },
		`{"TableName":"tab","KeyConditionExpression":"pk = :a","ExpressionAttributeValues":{":a":{"S":"a"},`, `}}`},
	{"Parameters", "ExecuteStatement", func(i int) string { return fmt.Sprintf(`{"S":"k%07d"}`, i) },
		`{"Statement":"SELECT * FROM \"tab\" WHERE pk = ?","Parameters":[`, `]}`},
	{"WideItem", "PutItem", func(i int) string { return fmt.Sprintf(`"a%07d":{"S":"x"}`, i) },
		`{"TableName":"tab","Item":{"pk":{"S":"b"},`, `}}`},
	{"ItemList", "PutItem", func(i int) string { return fmt.Sprintf(`{"N":"%07d"}`, i) },
		`{"TableName":"tab","Item":{"pk":{"S":"b"},"l":{"L":[`, `]}}}`},
	{"ItemList/BatchWriteItem", "BatchWriteItem", func(i int) string { return fmt.Sprintf(`{"N":"%07d"}`, i) },
		`{"RequestItems":{"tab":[{"PutRequest":{"Item":{"pk":{"S":"b"},"l":{"L":[`, `]}}}}]}}`},
	{"ItemList/TransactWriteItems", "TransactWriteItems", func(i int) string { return fmt.Sprintf(`{"N":"%07d"}`, i) },
		`{"TransactItems":[{"Put":{"TableName":"tab","Item":{"pk":{"S":"b"},"l":{"L":[`, `]}}}}]}`},
	{"BatchGetAttributesToGet", "BatchGetItem", func(i int) string { return fmt.Sprintf(`"a%07d"`, i%1000) },
		`{"RequestItems":{"tab":{"Keys":[{"pk":{"S":"a"}}],"AttributesToGet":[`, `]}}}`},
	{"BatchGetItem", "BatchGetItem", func(i int) string { return fmt.Sprintf(`{"pk":{"S":"k%07d"}}`, i) },
		`{"RequestItems":{"tab":{"Keys":[`, `]}}}`},
	{"BatchWriteItem", "BatchWriteItem", func(i int) string {
		return fmt.Sprintf(`{"PutRequest":{"Item":{"pk":{"S":"k%07d"},"v":{"S":"%s"}}}}`, i, strings.Repeat("x", 300))
	}, `{"RequestItems":{"tab":[`, `]}}`},
	{"TransactWriteItems", "TransactWriteItems", func(i int) string {
		return fmt.Sprintf(`{"Put":{"TableName":"tab","Item":{"pk":{"S":"k%07d"},"v":{"S":"%s"}}}}`, i, strings.Repeat("x", 300))
	}, `{"TransactItems":[`, `]}`},
	{"TransactGetItems", "TransactGetItems", func(i int) string {
		return fmt.Sprintf(`{"Get":{"TableName":"tab","Key":{"pk":{"S":"k%07d"}}}}`, i)
	}, `{"TransactItems":[`, `]}`},
	{"BatchExecuteStatement", "BatchExecuteStatement", func(i int) string {
		return fmt.Sprintf(`{"Statement":"INSERT INTO \"tab\" VALUE {'pk':'k%07d','v':'%s'}"}`, i, strings.Repeat("x", 300))
	}, `{"Statements":[`, `]}`},
	{"ExecuteTransaction", "ExecuteTransaction", func(i int) string {
		return fmt.Sprintf(`{"Statement":"INSERT INTO \"tab\" VALUE {'pk':?,'v':?}","Parameters":[{"S":"k%07d"},{"S":"%s"}]}`, i, strings.Repeat("x", 300))
	}, `{"TransactStatements":[`, `]}`},
}

// BenchmarkOversizeMemory serves each request of oversizeBodies in
// process and reports the bytes it allocates (alloc/body) and the Go
// heap's peak growth (peak/body, sampled every millisecond) over its
// body's bytes; -memprofile says where the bytes go.
func BenchmarkOversizeMemory(b *testing.B) {
	const size = 4 << 20
	for _, bc := range oversizeBodies {
		b.Run(bc.name, func(b *testing.B) {
			var sb strings.Builder
			sb.WriteString(bc.head)
			for i := 0; sb.Len() < size; i++ {
				if i > 0 {
					sb.WriteByte(',')
				}
				sb.WriteString(bc.elem(i))
			}
			sb.WriteString(bc.tail)
			body := sb.String()
			e := newTestEmulator(b, Options{})
			h := e.Handler()
			call := func(op, body string) *httptest.ResponseRecorder {
				req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
				req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
				req.Header.Set("Content-Type", "application/x-amz-json-1.0")
				req.Header.Set("Authorization", testkit.DefaultAuth)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				return rec
			}
			call("CreateTable", `{"TableName":"tab","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`)
			call("PutItem", `{"TableName":"tab","Item":{"pk":{"S":"a"}}}`)
			var peakSum, allocSum uint64
			var code int
			for b.Loop() {
				runtime.GC()
				debug.FreeOSMemory()
				base := goMapped()
				var ms0, ms1 runtime.MemStats
				runtime.ReadMemStats(&ms0)
				stop := make(chan struct{})
				peak := peakMapped(stop)
				rec := call(bc.op, body)
				close(stop)
				runtime.ReadMemStats(&ms1)
				peakSum += <-peak - base
				allocSum += ms1.TotalAlloc - ms0.TotalAlloc
				code = rec.Code
			}
			n := float64(b.N) * float64(len(body))
			b.ReportMetric(float64(allocSum)/n, "alloc/body")
			b.ReportMetric(float64(peakSum)/n, "peak/body")
			b.ReportMetric(float64(code), "status")
		})
	}
}
