package benchmarks

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// Streams through the handler (server work only).
//
// BenchmarkStreamPutItem: PutItem on a table without a stream and with
// each view type. The requests alternate between two versions of one
// item, so every write changes it and emits a MODIFY record (a write that
// changes nothing emits none). The two versions have records of equal
// length and the item holds a set, so every write on a stream table also
// decodes the old item to tell a reordered set from a change: the worst
// case. The bound: NEW_AND_OLD_IMAGES at most 1.5x none. Besides ns/op it reports cpu-ns/op, this process's CPU
// time per request (garbage collection included), which a machine shared
// with other work disturbs less than wall time.
//
// BenchmarkStreamGetRecords: one GetRecords of 1000 records of 240-byte
// items (NEW_AND_OLD_IMAGES), encoded to JSON.

const streamsTarget = "DynamoDBStreams_20120810."

func streamTableDef(view string) string {
	def := `{"TableName":"str","BillingMode":"PAY_PER_REQUEST",` +
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],` +
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]`
	if view != "" {
		def += `,"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"` + view + `"}`
	}
	return def + `}`
}

func BenchmarkStreamPutItem(b *testing.B) {
	for _, view := range []string{"", "KEYS_ONLY", "NEW_IMAGE", "NEW_AND_OLD_IMAGES"} {
		name := view
		if name == "" {
			name = "none"
		}
		b.Run("stream="+name, func(b *testing.B) {
			e := newEmulator(b)
			h := e.Handler()
			ak := newAccessKey()
			post := handlerPoster(h, ak)
			if status, out, _ := post("CreateTable", streamTableDef(view)); status != http.StatusOK {
				b.Fatalf("CreateTable: %d %s", status, out)
			}
			for i := range 1000 {
				if status, out, _ := post("PutItem", `{"TableName":"str","Item":`+itemJSON(b, i, i, true)+`}`); status != http.StatusOK {
					b.Fatalf("PutItem: %d %s", status, out)
				}
			}
			a := itemJSON(b, 12, 12, true)
			alt := strings.Replace(a, `"active"`, `"paused"`, 1)
			if alt == a {
				b.Fatal("the second version of the item is the first")
			}
			reqs := [2]*rawRequest{
				newRawRequest(ak, "PutItem", `{"TableName":"str","Item":`+a+`}`),
				newRawRequest(ak, "PutItem", `{"TableName":"str","Item":`+alt+`}`),
			}
			b.ReportAllocs()
			b.ResetTimer()
			before, ok := processCPU()
			i := 0
			for b.Loop() {
				if status := reqs[i&1].serve(h); status != http.StatusOK {
					b.Fatalf("status %d", status)
				}
				i++
			}
			if after, ok2 := processCPU(); ok && ok2 {
				cpu := after.user + after.sys - before.user - before.sys
				b.ReportMetric(float64(cpu)/float64(i), "cpu-ns/op")
			}
		})
	}
}

func BenchmarkStreamGetRecords(b *testing.B) {
	e := newEmulator(b)
	h := e.Handler()
	ak := newAccessKey()
	post := handlerPoster(h, ak)
	if status, out, _ := post("CreateTable", streamTableDef("NEW_AND_OLD_IMAGES")); status != http.StatusOK {
		b.Fatalf("CreateTable: %d %s", status, out)
	}
	for i := range 1000 {
		if status, out, _ := post("PutItem", `{"TableName":"str","Item":`+itemJSON(b, i, i, true)+`}`); status != http.StatusOK {
			b.Fatalf("PutItem: %d %s", status, out)
		}
	}
	_, out, _ := post("DescribeTable", `{"TableName":"str"}`)
	var d struct {
		Table struct{ LatestStreamArn string }
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		b.Fatal(err)
	}
	streams := func(op, body string) (int, string) {
		r := newRawRequest(ak, op, body)
		r.req.Header.Set("X-Amz-Target", streamsTarget+op)
		status := r.serve(h)
		return status, r.w.out.String()
	}
	_, out = streams("DescribeStream", `{"StreamArn":"`+d.Table.LatestStreamArn+`"}`)
	var ds struct {
		StreamDescription struct{ Shards []struct{ ShardId string } }
	}
	if err := json.Unmarshal([]byte(out), &ds); err != nil || len(ds.StreamDescription.Shards) != 1 {
		b.Fatalf("DescribeStream: %s", out)
	}
	_, out = streams("GetShardIterator", fmt.Sprintf(`{"StreamArn":%q,"ShardId":%q,"ShardIteratorType":"TRIM_HORIZON"}`,
		d.Table.LatestStreamArn, ds.StreamDescription.Shards[0].ShardId))
	var it struct{ ShardIterator string }
	if err := json.Unmarshal([]byte(out), &it); err != nil {
		b.Fatal(err)
	}
	r := newRawRequest(ak, "GetRecords", fmt.Sprintf(`{"ShardIterator":%q,"Limit":1000}`, it.ShardIterator))
	r.req.Header.Set("X-Amz-Target", streamsTarget+"GetRecords")
	if status := r.serve(h); status != http.StatusOK || strings.Count(r.w.out.String(), `"eventID"`) != 1000 {
		b.Fatalf("GetRecords: status %d, %d records", status, strings.Count(r.w.out.String(), `"eventID"`))
	}
	b.SetBytes(int64(r.w.out.Len()))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if status := r.serve(h); status != http.StatusOK {
			b.Fatalf("status %d", status)
		}
	}
}
