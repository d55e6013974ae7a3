package benchmarks

import "testing"

// BenchmarkScanSizeFilter is BenchmarkOps/ScanFiltered/handler with a
// size() filter: each of the page's 500 items gives size() a number of
// three digits, which the filter compares (the performance budget's
// figure for internal/expr/eval_encoded.go, docs/architecture.md).
func BenchmarkScanSizeFilter(b *testing.B) {
	benchHandler(b, op{name: "ScanSizeFiltered", target: "Scan", body: func(testing.TB) string {
		return `{"TableName":"scan","FilterExpression":"size(f0) < :z",` +
			`"ExpressionAttributeValues":{":z":{"N":"0"}},"Limit":500}`
	}})
}
