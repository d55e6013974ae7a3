package vectorsearch

import (
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// BenchmarkSearchVectorsDecode decodes SearchVectors' request, a strict
// one, with a 128-dimension search vector: the wire's strict reading,
// what every SearchVectors pays before its checks.
func BenchmarkSearchVectorsDecode(b *testing.B) {
	body := []byte(`{"TableName":"vec","IndexName":"vix","TopK":10,"ProjectionExpression":"#a, b",` +
		`"ExpressionAttributeNames":{"#a":"a"},"SearchVector":[` + strings.Repeat(`{"N":"0.125"},`, 127) + `{"N":"1"}]}`)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var in SearchVectorsInput
		if err := wire.DecodeRequest(body, &in); err != nil {
			b.Fatal(err)
		}
	}
}
