package storage

import (
	"bufio"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// Scale benchmarks: memory per item and the cost of Get, Put, Query and an
// index Query as a table grows. They run at 10k, 100k and 1M items; set
// DYNAMOEMU_SCALE_10M=1 to add 10M (about 4 GB of memory and several
// minutes; never in CI). Run them with
//
//	go test ./storage -run '^$' -bench 'BenchmarkScale' -benchtime 1x     (memory)
//	go test ./storage -run '^$' -bench 'BenchmarkScaleOps' -benchmem        (operations)

// scaleEnv adds the 10M-item size to the scale benchmarks;
// scaleSizesEnv replaces the sizes (comma-separated item counts).
const (
	scaleEnv      = "DYNAMOEMU_SCALE_10M"
	scaleSizesEnv = "DYNAMOEMU_SCALE_SIZES"
)

// scaleSizes are the table sizes the scale benchmarks sweep.
func scaleSizes(withSmall bool) []int {
	if env := os.Getenv(scaleSizesEnv); env != "" {
		var sizes []int
		for _, f := range strings.Split(env, ",") {
			if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil && n > 0 {
				sizes = append(sizes, n)
			}
		}
		return sizes
	}
	sizes := []int{1_000_000}
	if withSmall {
		sizes = []int{10_000, 100_000, 1_000_000}
	}
	if os.Getenv(scaleEnv) != "" {
		sizes = append(sizes, 10_000_000)
	}
	return sizes
}

// scaleItem is benchItem without testing.TB and fmt, so that filling a
// table of 10M items costs little besides the table: a 10-attribute item
// of exactly 240 bytes.
func scaleItem(ks KeySchema, p, s int) Item {
	it := make(Item, 10)
	it["pk"] = S(pkText(p))
	if ks.HasSort() {
		it["sk"] = N(Number(strconv.Itoa(s)))
	}
	it["status"] = S("active")
	it["count"] = N(Number(strconv.Itoa(p*31 + s)))
	it["price"] = N("1234.5")
	it["flag"] = Bool(s%2 == 0)
	it["tags"] = SS([]string{"red", "green"})
	it["email"] = S("someone." + strconv.Itoa(p*1000+s) + "@example.com")
	for i := 0; len(it) < 10; i++ {
		it["f"+strconv.Itoa(i)] = S("")
	}
	pad := benchItemSize - ItemSize(it)
	it["f0"] = S(strings.Repeat("x", max(pad, 0)))
	return it
}

func pkText(p int) string {
	s := strconv.Itoa(p)
	return "user#" + strings.Repeat("0", max(0, 7-len(s))) + s
}

// scaleGSI is the index of the "with-gsi" cases: by email (unique per
// item), every attribute projected.
var scaleGSI = IndexDef{
	Name:       "byEmail",
	Schema:     IndexSchema{Partition: []KeyAttr{{Name: "email", Kind: KindS}}},
	Projection: Projection{All: true},
}

// scaleCase is one table shape of the scale benchmarks.
type scaleCase struct {
	name         string
	ks           KeySchema
	perPartition int
	gsi          bool
}

var scaleCases = []scaleCase{
	{"hash-only", schemaS, 1, false},
	{"hash-only/with-gsi", schemaS, 1, true},
	{"composite/1-per-partition", schemaSN, 1, false},
	{"composite/100-per-partition", schemaSN, 100, false},
}

// fillScale stores n scale items in a new table of shape c, through Put.
func fillScale(tb testing.TB, c scaleCase, n int) *Table {
	tbl := newTable(tb, c.ks)
	if c.gsi {
		if err := tbl.AddIndex(scaleGSI); err != nil {
			tb.Fatal(err)
		}
	}
	for i := range n {
		it := scaleItem(c.ks, i/c.perPartition, i%c.perPartition)
		if _, err := tbl.Put(c.ks.KeyOf(it), it); err != nil {
			tb.Fatal(err)
		}
	}
	return tbl
}

// settle collects garbage and returns freed memory to the OS, so that what
// is resident is what is live (plus the runtime's own overhead).
func settle() {
	runtime.GC()
	debug.FreeOSMemory()
}

// rssBytes is the process's resident set size (VmRSS), 0 where /proc is missing.
func rssBytes() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// BenchmarkScaleMemory fills a table with 240-byte items and reports, per
// item, the live heap (heap-bytes/item) and the resident memory
// (rss-bytes/item) the table adds once garbage is collected and freed
// memory returned to the OS; then it drops the table and reports the
// resident memory left behind (rss-after-drop-bytes/item).
func BenchmarkScaleMemory(b *testing.B) {
	for _, n := range scaleSizes(false) {
		for _, c := range scaleCases {
			b.Run(fmt.Sprintf("%s/%d", c.name, n), func(b *testing.B) {
				var heap, rss, left float64
				for b.Loop() {
					var before, after runtime.MemStats
					settle()
					runtime.ReadMemStats(&before)
					rss0 := rssBytes()
					tbl := fillScale(b, c, n)
					settle()
					runtime.ReadMemStats(&after)
					rss1 := rssBytes()
					heap = float64(after.HeapAlloc-before.HeapAlloc) / float64(n)
					rss = (float64(rss1) - float64(rss0)) / float64(n)
					runtime.KeepAlive(tbl)
					tbl = nil
					settle()
					left = (float64(rssBytes()) - float64(rss0)) / float64(n)
				}
				b.ReportMetric(heap, "heap-bytes/item")
				b.ReportMetric(rss, "rss-bytes/item")
				b.ReportMetric(left, "rss-after-drop-bytes/item")
			})
		}
	}
}

// scaleOpsGSI is the index of BenchmarkScaleOps: 1000 index partitions
// (group), sorted by the table's sort key.
var scaleOpsGSI = IndexDef{
	Name: "byGroup",
	Schema: IndexSchema{
		Partition: []KeyAttr{{Name: "group", Kind: KindS}},
		Sort:      []KeyAttr{{Name: "sk", Kind: KindN}},
	},
	Projection: Projection{All: true},
}

// scaleOpsItem is scaleItem with the attribute the index keys on.
func scaleOpsItem(p, s int) Item {
	it := scaleItem(schemaSN, p, s)
	it["group"] = S("group#" + strconv.Itoa(p%1000))
	return it
}

// BenchmarkScaleOps measures Get, Put (replacing an item with the same
// item), PutChanged (replacing it with a changed one of the same size and
// index key, then back), Query of one
// partition (10 items) and an index Query (the first 10 entries of one of
// 1000 index partitions) on tables of growing size (10 items a partition,
// one index), at random keys: the cost of an operation should not grow
// with the table (within 1.3x from 10k to 10M items).
func BenchmarkScaleOps(b *testing.B) {
	const per = 10
	for _, n := range scaleSizes(true) {
		tbl := newTable(b, schemaSN)
		if err := tbl.AddIndex(scaleOpsGSI); err != nil {
			b.Fatal(err)
		}
		for i := range n {
			it := scaleOpsItem(i/per, i%per)
			if _, err := tbl.Put(schemaSN.KeyOf(it), it); err != nil {
				b.Fatal(err)
			}
		}
		parts := n / per
		r := rand.New(rand.NewPCG(uint64(n), 1))
		keys := make([]Key, 4096)
		items := make([]Item, len(keys))
		for i := range keys {
			p, s := r.IntN(parts), r.IntN(per)
			items[i] = scaleOpsItem(p, s)
			keys[i] = schemaSN.KeyOf(items[i])
		}
		b.Run(fmt.Sprintf("%d/Get", n), func(b *testing.B) {
			defer reportCPU(b)()
			i := 0
			for b.Loop() {
				if _, ok := tbl.GetEncoded(keys[i%len(keys)]); !ok {
					b.Fatal("missing")
				}
				i++
			}
		})
		b.Run(fmt.Sprintf("%d/Put", n), func(b *testing.B) {
			defer reportCPU(b)()
			i := 0
			for b.Loop() {
				if _, err := tbl.Put(keys[i%len(keys)], items[i%len(items)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		changed := make([]Item, len(items))
		for i, it := range items {
			changed[i] = maps.Clone(it)
			changed[i]["status"] = S("paused") // as long as "active"
		}
		b.Run(fmt.Sprintf("%d/PutChanged", n), func(b *testing.B) {
			defer reportCPU(b)()
			i := 0
			for b.Loop() {
				it := items[i%len(items)]
				if (i/len(items))%2 == 0 {
					it = changed[i%len(items)]
				}
				if _, err := tbl.Put(keys[i%len(keys)], it); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		b.Run(fmt.Sprintf("%d/Query", n), func(b *testing.B) {
			defer reportCPU(b)()
			i := 0
			for b.Loop() {
				got := 0
				tbl.QueryEncoded(QueryRange{Partition: keys[i%len(keys)].Partition, Forward: true}, func(EncodedItem) bool { got++; return true })
				if got != per {
					b.Fatalf("got %d items", got)
				}
				i++
			}
		})
		b.Run(fmt.Sprintf("%d/IndexQuery", n), func(b *testing.B) {
			defer reportCPU(b)()
			i := 0
			for b.Loop() {
				got := 0
				q := IndexQuery{Partition: []Value{S("group#" + strconv.Itoa(i%1000))}, Forward: true}
				if err := tbl.QueryIndex("byGroup", q, func(EncodedItem) bool { got++; return got < 10 }); err != nil {
					b.Fatal(err)
				}
				if got != min(10, n/1000) {
					b.Fatalf("got %d entries", got)
				}
				i++
			}
		})
		runtime.KeepAlive(tbl)
	}
}

// reportCPU, deferred at the start of a benchmark, reports the process's
// CPU time per operation (cpu-ns/op, garbage collection included), which
// a busy machine disturbs less than the wall clock.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

// cpuTime is the process's user and system time in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
