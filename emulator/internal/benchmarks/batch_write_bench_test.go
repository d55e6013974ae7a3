package benchmarks

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
)

// BenchmarkBatchWrite is one BatchWriteItem of 25 new 240-byte items
// through the handler, as BenchmarkPreload sends them, at a size that
// runs in seconds: the preload's cost per item without the 1M run.
// Allocations (allocs/op, B/op: per batch) do not depend on the machine's
// load; cpu-ns/item is the process's CPU time (the garbage collector's
// work included) per item written.
//
//	go test ./emulator/internal/benchmarks -run '^$' -bench BatchWrite -benchtime 4000x -count 3 -benchmem
func BenchmarkBatchWrite(b *testing.B) {
	h, ak := benchTable(b, "pre")
	bodies := make([][]byte, b.N)
	var sb strings.Builder
	for i := range bodies {
		bodies[i] = []byte(batchPutBody(b, &sb, "pre", i*25, i*25+25))
	}
	r := newRawRequest(ak, "BatchWriteItem", "")
	b.ReportAllocs()
	cpu0, _ := processCPU()
	b.ResetTimer()
	for i := range b.N {
		r.data = bodies[i]
		r.req.ContentLength = int64(len(r.data))
		if status := r.serve(h); status != http.StatusOK || bytes.Contains(r.w.out.Bytes(), []byte(`"PutRequest"`)) {
			b.Fatalf("BatchWriteItem: %d %.300s", status, r.w.out.String())
		}
	}
	b.StopTimer()
	if cpu1, ok := processCPU(); ok {
		b.ReportMetric(float64(cpu1.user+cpu1.sys-cpu0.user-cpu0.sys)/float64(b.N*25), "cpu-ns/item")
	}
}

// BenchmarkBatchOverwrite is one BatchWriteItem of 25 puts over items
// the table holds, as the HTTP benchmark's batch row sends them: the
// decoder's and the commit's cost of replacing, with a table that does
// not grow under the run (BenchmarkBatchWrite's does).
//
//	go test ./emulator/internal/benchmarks -run '^$' -bench BatchOverwrite -count 6 -benchmem
func BenchmarkBatchOverwrite(b *testing.B) {
	h, ak := benchTable(b, "pre")
	bodies := make([][]byte, 400)
	var sb strings.Builder
	for i := range bodies {
		bodies[i] = []byte(batchPutBody(b, &sb, "pre", i*25, i*25+25))
	}
	r := newRawRequest(ak, "BatchWriteItem", "")
	write := func(body []byte) {
		r.data = body
		r.req.ContentLength = int64(len(body))
		if status := r.serve(h); status != http.StatusOK || bytes.Contains(r.w.out.Bytes(), []byte(`"PutRequest"`)) {
			b.Fatalf("BatchWriteItem: %d %.300s", status, r.w.out.String())
		}
	}
	for _, body := range bodies { // the items the timed writes replace
		write(body)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		write(bodies[i%len(bodies)])
	}
}

// batchPutBody is a BatchWriteItem body putting the bench items from to
// to-1 (itemJSON: ten to a partition) into table, built in sb.
func batchPutBody(tb testing.TB, sb *strings.Builder, table string, from, to int) string {
	sb.Reset()
	sb.WriteString(`{"RequestItems":{"` + table + `":[`)
	for j := from; j < to; j++ {
		if j > from {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"PutRequest":{"Item":`)
		sb.WriteString(itemJSON(tb, j/10, j%10, true))
		sb.WriteString(`}}`)
	}
	sb.WriteString(`]}}`)
	return sb.String()
}

// benchTable starts an emulator with table (pk S, sk N, on demand), and
// returns its handler and the access key that made the table.
func benchTable(b *testing.B, table string) (http.Handler, string) {
	h := newEmulator(b).Handler()
	ak := newAccessKey()
	post := handlerPoster(h, ak)
	if status, out, _ := post("CreateTable", `{"TableName":"`+table+`","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],`+
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}`); status != http.StatusOK {
		b.Fatalf("CreateTable: %d %s", status, out)
	}
	return h, ak
}
