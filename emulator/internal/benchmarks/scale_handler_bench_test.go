package benchmarks

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// BenchmarkScaleHandler is the scale flatness check through the handler
// (the edge and the service, as a request meets them): GetItem, PutItem
// (replacing an item with the same item, which storage keeps as it is),
// PutItemChanged (replacing an item with a changed one, whose index key
// stays), Query of one partition (10 items) and Query of a
// global secondary index (10 entries) at random keys of a table of n items
// of 240 bytes (10 a partition, one GSI), for n = 10k and 1M, and 10M with
// DYNAMOEMU_SCALE_10M=1 (about 7 GB and minutes to load: on demand only).
// The table is loaded by BatchWriteItem through the handler, untimed, and
// the collection the load started is finished before the operations run.
// storage's BenchmarkScaleOps measures the same operations on the bare
// table, where a random key's cache and TLB misses are all there is.
//
//	DYNAMOEMU_SCALE_10M=1 go test ./emulator/internal/benchmarks -run '^$' -bench ScaleHandler -benchtime 20000x -timeout 60m
//
// DYNAMOEMU_SCALE_PROFILE=dir writes a CPU profile of each operation's
// loop alone (not the load) to dir/scale-<items>-<op>.pprof, the last
// round's when there are several: the difference between two sizes'
// profiles is where the growth goes.
//
// DYNAMOEMU_SCALE_SIZES (comma-separated item counts) replaces the sizes;
// DYNAMOEMU_SCALE_ROUNDS=k runs the operations k times in turn on each
// table (sub-benchmarks .../round=i), for a busy machine's noise.
// DYNAMOEMU_SCALE_PREFETCH_AB=1 runs each op twice in a round, with
// storage's prefetching on and then off (.../prefetch=on|off), on the
// same table.
func BenchmarkScaleHandler(b *testing.B) {
	sizes := []int{10_000, 1_000_000}
	if os.Getenv("DYNAMOEMU_SCALE_10M") != "" {
		sizes = append(sizes, 10_000_000)
	}
	if env := os.Getenv("DYNAMOEMU_SCALE_SIZES"); env != "" {
		sizes = envInts(env)
	}
	rounds := 1
	if env := os.Getenv("DYNAMOEMU_SCALE_ROUNDS"); env != "" {
		rounds = max(1, envInts(env)[0])
	}
	for _, n := range sizes {
		e := newEmulator(b)
		h := e.Handler()
		ak := newAccessKey()
		loadScaleTable(b, h, ak, n)
		// The load leaves a collection of a heap of n items under way:
		// finished here, so that the rounds measure the operations, not
		// the end of the load. (Not debug.FreeOSMemory: the pages it gives
		// back would fault in again as the operations allocate, which a
		// server that loaded its table a while ago does not pay.)
		runtime.GC()
		parts := n / 10
		ops := []struct {
			name, op string
			body     func(r *rand.Rand) string
		}{
			{"GetItem", "GetItem", func(r *rand.Rand) string {
				p := r.IntN(parts)
				return fmt.Sprintf(`{"TableName":"scale","Key":{"pk":{"S":"user#%07d"},"sk":{"N":"%d"}}}`, p, r.IntN(10))
			}},
			{"PutItem", "PutItem", func(r *rand.Rand) string {
				return `{"TableName":"scale","Item":` + itemJSON(b, r.IntN(parts), r.IntN(10), true) + `}`
			}},
			{"PutItemChanged", "PutItem", nil}, // changedPuts: every write changes its item
			{"Query", "Query", func(r *rand.Rand) string {
				return fmt.Sprintf(`{"TableName":"scale","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"user#%07d"}}}`, r.IntN(parts))
			}},
			{"IndexQuery", "Query", func(r *rand.Rand) string {
				return fmt.Sprintf(`{"TableName":"scale","IndexName":"byEmail","KeyConditionExpression":"email = :e","ExpressionAttributeValues":{":e":{"S":"someone.%d@example.com"}}}`, r.IntN(parts))
			}},
		}
		modes := []string{""}
		if os.Getenv("DYNAMOEMU_SCALE_PREFETCH_AB") != "" {
			modes = []string{"on", "off"}
		}
		for round := range rounds * len(ops) * len(modes) {
			mode := modes[round%len(modes)]
			o := ops[round/len(modes)%len(ops)]
			name := fmt.Sprintf("items=%d/%s", n, o.name)
			if rounds > 1 {
				name += fmt.Sprintf("/round=%d", round/len(modes)/len(ops))
			}
			if mode != "" {
				name += "/prefetch=" + mode
			}
			storage.SetPrefetching(mode != "off")
			b.Run(name, func(b *testing.B) {
				r := rand.New(rand.NewPCG(uint64(n), 7))
				var bodies [][]byte
				if o.body == nil {
					bodies = changedPuts(b, r, parts)
				} else {
					bodies = make([][]byte, 4096)
					for i := range bodies {
						bodies[i] = []byte(o.body(r))
					}
				}
				// One request, its body swapped each time, as a server
				// reads each request into its connection's buffer: 4096
				// requests of their own (http.Request, header maps,
				// response buffers) would be about 10 MB that a server
				// does not touch, missing the caches beside the table's
				// own misses at 10M items, not at 10k.
				req := newRawRequest(ak, o.op, "")
				want := []byte(`"Count":10,`)
				stop := scaleProfile(b, fmt.Sprintf("%d-%s", n, o.name))
				cpu0, _ := processCPU()
				i := 0
				for b.Loop() {
					req.data = bodies[i%len(bodies)]
					req.req.ContentLength = int64(len(req.data))
					i++
					if status := req.serve(h); status != http.StatusOK {
						b.Fatalf("%s: %d %.300s", o.name, status, req.w.out.String())
					}
					if o.op == "Query" && !bytes.Contains(req.w.out.Bytes(), want) {
						b.Fatalf("%s: %.300s, want 10 items", o.name, req.w.out.String())
					}
				}
				cpu1, _ := processCPU()
				stop()
				b.ReportMetric(float64(cpu1.user+cpu1.sys-cpu0.user-cpu0.sys)/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(cpu1.faults-cpu0.faults)/float64(b.N), "faults/op")
			})
		}
		if status, out, _ := handlerPoster(h, ak)("DeleteTable", `{"TableName":"scale"}`); status != http.StatusOK {
			b.Fatalf("DeleteTable: %d %s", status, out)
		}
		e.Close()
		settleMemory()
	}
}

// scaleProfile starts a CPU profile of one operation's loop when
// DYNAMOEMU_SCALE_PROFILE names a directory, and returns what stops it.
func scaleProfile(b *testing.B, name string) func() {
	dir := os.Getenv("DYNAMOEMU_SCALE_PROFILE")
	if dir == "" {
		return func() {}
	}
	f, err := os.Create(filepath.Join(dir, "scale-"+name+".pprof"))
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		b.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// envInts parses a comma-separated list of positive integers (others are
// skipped).
func envInts(env string) []int {
	var out []int
	for _, f := range strings.Split(env, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil && n > 0 {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		out = append(out, 1)
	}
	return out
}

// changedPuts returns the bodies of PutItem requests of 2048 distinct random items (at
// most half the table's) of
// BenchmarkScaleHandler's table, with "status" "paused", then the same
// items with "status" "active" (as loaded, and as long): cycled, every
// write changes its item, but neither its size nor its index key.
func changedPuts(b *testing.B, r *rand.Rand, parts int) [][]byte {
	n := min(2048, parts*10/2)
	type key struct{ p, s int }
	seen := make(map[key]bool, n)
	keys := make([]key, 0, n)
	for len(keys) < n {
		k := key{r.IntN(parts), r.IntN(10)}
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	bodies := make([][]byte, 0, 2*n)
	for _, status := range []string{"paused", "active"} {
		for _, k := range keys {
			it := benchItem(b, k.p, k.s, true)
			it["status"] = storage.S(status)
			bodies = append(bodies, []byte(`{"TableName":"scale","Item":`+string(wire.AppendItem(nil, it))+`}`))
		}
	}
	return bodies
}

// loadScaleTable creates BenchmarkScaleHandler's table and writes n items
// into it, 25 to a BatchWriteItem.
func loadScaleTable(b *testing.B, h http.Handler, ak string, n int) {
	post := handlerPoster(h, ak)
	if status, out, _ := post("CreateTable", `{"TableName":"scale","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},{"AttributeName":"email","AttributeType":"S"}],`+
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],`+
		`"GlobalSecondaryIndexes":[{"IndexName":"byEmail","KeySchema":[{"AttributeName":"email","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}]}`); status != http.StatusOK {
		b.Fatalf("CreateTable: %d %s", status, out)
	}
	var sb strings.Builder
	r := newRawRequest(ak, "BatchWriteItem", "")
	for i := 0; i < n; i += 25 {
		r.data = []byte(batchPutBody(b, &sb, "scale", i, min(i+25, n)))
		r.req.ContentLength = int64(len(r.data))
		if status := r.serve(h); status != http.StatusOK || bytes.Contains(r.w.out.Bytes(), []byte(`"PutRequest"`)) {
			b.Fatalf("BatchWriteItem: %d %.300s", status, r.w.out.String())
		}
	}
	if status, out, _ := post("DescribeTable", `{"TableName":"scale"}`); status != http.StatusOK || !strings.Contains(out, `"ItemCount":`+strconv.Itoa(n)) {
		b.Fatalf("DescribeTable: %d %.300s", status, out)
	}
}
