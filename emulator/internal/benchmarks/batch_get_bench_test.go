package benchmarks

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// BenchmarkBatchGet is one BatchGetItem of 25 keys of 240-byte items
// (itemJSON) through the handler, whole items and projected ones.
// Allocations (allocs/op, B/op) are per request and do not depend on the
// machine's load; cpu-ns/op is the process's CPU time per request, the
// garbage collector's work included.
//
//	go test ./emulator/internal/benchmarks -run '^$' -bench BatchGet -benchtime 20000x -benchmem
func BenchmarkBatchGet(b *testing.B) {
	h, ak := benchTable(b, "bget")
	post := handlerPoster(h, ak)
	var sb strings.Builder
	if status, out, _ := post("BatchWriteItem", batchPutBody(b, &sb, "bget", 0, 25)); status != http.StatusOK {
		b.Fatalf("BatchWriteItem: %d %s", status, out)
	}
	keys := make([]string, 25)
	for j := range keys {
		keys[j] = fmt.Sprintf(`{"pk":{"S":"user#%07d"},"sk":{"N":"%d"}}`, j/10, j%10)
	}
	for _, tc := range []struct{ name, extra string }{
		{"whole", ``},
		{"projected", `,"ProjectionExpression":"pk, sk, #s, price","ExpressionAttributeNames":{"#s":"status"}`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			r := newRawRequest(ak, "BatchGetItem", `{"RequestItems":{"bget":{"Keys":[`+strings.Join(keys, ",")+`]`+tc.extra+`}}}`)
			b.ReportAllocs()
			cpu0, _ := processCPU()
			b.ResetTimer()
			for range b.N {
				if status := r.serve(h); status != http.StatusOK || bytes.Count(r.w.out.Bytes(), []byte(`"sk":`)) != 25 {
					b.Fatalf("BatchGetItem: %d %.300s", status, r.w.out.String())
				}
			}
			b.StopTimer()
			if cpu1, ok := processCPU(); ok {
				b.ReportMetric(float64(cpu1.user+cpu1.sys-cpu0.user-cpu0.sys)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}
