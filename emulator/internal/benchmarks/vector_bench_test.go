package benchmarks

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Vector indexes through the handler (server work only): SearchVectors
// with TopK 10 over a whole index of 10k and 100k vectors of 128 and 768
// dimensions (1M with DYNAMOEMU_BENCH_VECTOR_1M=1: several GB), exact
// search, Projection KEYS_ONLY; and PutItem of an item with a vector on a
// table with one vector index and with none.

// vectorJSON is a random vector of dims numbers with two decimals, as a
// DynamoDB list.
func vectorJSON(r *rand.Rand, dims int) string {
	var b strings.Builder
	b.Grow(dims * 14)
	b.WriteString(`{"L":[`)
	for i := range dims {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"N":"`)
		b.WriteString(strconv.FormatFloat(float64(r.IntN(199)-99)/100, 'f', -1, 64))
		b.WriteString(`"}`)
	}
	b.WriteString(`]}`)
	return b.String()
}

// vectorTable is a CreateTable body: pk (S) and, with index, one vector
// index on v of dims dimensions.
func vectorTable(dims int, index bool) string {
	def := `{"TableName":"vec","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],` +
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]`
	if index {
		def += `,"VectorIndexes":[{"IndexName":"byV","VectorAttribute":{"AttributeName":"v"},"Dimensions":` + strconv.Itoa(dims) +
			`,"DistanceFunction":"COSINE","Projection":{"ProjectionType":"KEYS_ONLY"}}]`
	}
	return def + `}`
}

func BenchmarkSearchVectors(b *testing.B) {
	sizes := []int{10_000, 100_000}
	if os.Getenv("DYNAMOEMU_BENCH_VECTOR_1M") != "" {
		sizes = append(sizes, 1_000_000)
	}
	for _, dims := range []int{128, 768} {
		for _, n := range sizes {
			b.Run(fmt.Sprintf("dims=%d/vectors=%d", dims, n), func(b *testing.B) {
				e := newEmulator(b)
				h := e.Handler()
				ak := newAccessKey()
				post := handlerPoster(h, ak)
				must := func(op, body string) {
					if status, out, _ := post(op, body); status != http.StatusOK {
						b.Fatalf("%s: %d %.300s", op, status, out)
					}
				}
				must("CreateTable", vectorTable(dims, true))
				r := rand.New(rand.NewPCG(1, uint64(dims)))
				batch := make([]string, 0, 25)
				for i := range n {
					batch = append(batch, `{"PutRequest":{"Item":{"pk":{"S":"k`+strconv.Itoa(i)+`"},"v":`+vectorJSON(r, dims)+`}}}`)
					if len(batch) == 25 || i == n-1 {
						must("BatchWriteItem", `{"RequestItems":{"vec":[`+strings.Join(batch, ",")+`]}}`)
						batch = batch[:0]
					}
				}
				q := vectorJSON(r, dims)
				req := newRawRequest(ak, "SearchVectors", `{"TableName":"vec","IndexName":"byV","TopK":10,"SearchVector":`+
					strings.TrimSuffix(strings.TrimPrefix(q, `{"L":`), `}`)+`}`)
				if status := req.serve(h); status != http.StatusOK || strings.Count(req.w.out.String(), `"Score"`) != 10 {
					b.Fatalf("status %d: %.300s", status, req.w.out.String())
				}
				b.ReportAllocs()
				b.ResetTimer()
				before, _ := processCPU()
				for b.Loop() {
					if status := req.serve(h); status != http.StatusOK {
						b.Fatalf("status %d", status)
					}
				}
				reportCPU(b, before)
			})
		}
	}
}

func BenchmarkVectorPutItem(b *testing.B) {
	for _, dims := range []int{128, 768} {
		for _, index := range []bool{false, true} {
			b.Run(fmt.Sprintf("dims=%d/vectorIndex=%v", dims, index), func(b *testing.B) {
				e := newEmulator(b)
				h := e.Handler()
				ak := newAccessKey()
				post := handlerPoster(h, ak)
				if status, out, _ := post("CreateTable", vectorTable(dims, index)); status != http.StatusOK {
					b.Fatalf("CreateTable: %d %s", status, out)
				}
				r := rand.New(rand.NewPCG(2, uint64(dims)))
				for i := range 1000 {
					if status, out, _ := post("PutItem", `{"TableName":"vec","Item":{"pk":{"S":"k`+strconv.Itoa(i)+`"},"v":`+vectorJSON(r, dims)+`}}`); status != http.StatusOK {
						b.Fatalf("PutItem: %d %s", status, out)
					}
				}
				// Two items under one key, written in turn: each write
				// replaces a vector with another.
				reqs := [2]*rawRequest{}
				for i := range reqs {
					reqs[i] = newRawRequest(ak, "PutItem", `{"TableName":"vec","Item":{"pk":{"S":"k12"},"v":`+vectorJSON(r, dims)+`}}`)
					if status := reqs[i].serve(h); status != http.StatusOK {
						b.Fatalf("status %d: %s", status, reqs[i].w.out.String())
					}
				}
				b.ReportAllocs()
				b.ResetTimer()
				i := 0
				before, _ := processCPU()
				for b.Loop() {
					if status := reqs[i&1].serve(h); status != http.StatusOK {
						b.Fatalf("status %d", status)
					}
					i++
				}
				reportCPU(b, before)
			})
		}
	}
}

// reportCPU reports the process's CPU time per operation since before
// (user and system, all goroutines: steadier than wall time on a shared
// machine, though it counts the search's parallel workers in full).
func reportCPU(b *testing.B, before cpuTime) {
	after, ok := processCPU()
	if !ok || b.N == 0 {
		return
	}
	b.ReportMetric(float64(after.user+after.sys-before.user-before.sys)/float64(b.N), "cpu-ns/op")
}
