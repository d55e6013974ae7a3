package storage

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// Scale benchmarks: memory per item and the cost of Get, Put, Query and an
// index Query as a table grows. They run at 10k, 100k and 1M items; set
// DYNAMOEMU_SCALE_10M=1 to add 10M (about 4 GB of memory and several
// minutes; never in CI). Run them with
//
//	go test ./storage -run '^$' -bench 'BenchmarkScale' -benchtime 1x     (memory)
//	go test ./storage -run '^$' -bench 'BenchmarkScaleOps' -benchmem        (operations)

// scaleEnv adds the 10M-item size to the scale benchmarks.
const scaleEnv = "DYNAMOEMU_SCALE_10M"

// scaleSizes are the table sizes the scale benchmarks sweep.
func scaleSizes(withSmall bool) []int {
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
	tbl := NewTable(c.ks)
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
