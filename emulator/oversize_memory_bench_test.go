package emulator

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// BenchmarkOversizeMemory serves each request of testkit.LargeLists in
// process and reports the bytes it allocates (alloc/body) and the Go
// heap's peak growth (peak/body, sampled every millisecond) over its
// body's bytes; -memprofile says where the bytes go.
func BenchmarkOversizeMemory(b *testing.B) {
	const size = 4 << 20
	for _, bc := range testkit.LargeLists {
		b.Run(bc.Name, func(b *testing.B) {
			body := bc.Body(size)
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
				rec := call(bc.Op, body)
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
