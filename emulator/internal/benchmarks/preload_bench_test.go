package benchmarks

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkPreload is the scale run through the service: it preloads n
// items of 240 bytes (itemSize) into one table by BatchWriteItem (25 items
// a request, through the handler), reports the time the handler took
// (preload-s; building the request bodies is not counted) and the
// process's CPU time while it ran (preload-cpu-s: on a busy machine the
// steadier figure; the garbage collector's work during those calls
// counts, whoever made the garbage), the resident
// memory and the live heap the table added per item once garbage is
// collected (rss-bytes/item, heap-bytes/item; the bar: 350 bytes
// of RSS per item), then deletes the table and reports how much of that
// memory the process still holds 2 s later (1 s more per million items),
// without the benchmark's help
// (rss-after-delete-bytes/item; the emulator hands memory back after a
// large DeleteTable by itself, emulator/limits.go) and how long it took to
// fall under 10% of what the table added (release-ms; -1: it did not).
//
// It runs at 100k items; DYNAMOEMU_BENCH_1M=1 adds 1M and
// DYNAMOEMU_SCALE_10M=1 adds 1M and 10M (about 4 GB and several minutes:
// on demand only, never in CI); DYNAMOEMU_BENCH_PRELOAD_N=n runs n items
// alone:
//
//	DYNAMOEMU_SCALE_10M=1 go test ./emulator/internal/benchmarks -run '^$' -bench Preload -benchtime 1x -timeout 60m
func BenchmarkPreload(b *testing.B) {
	sizes := []int{100_000}
	if os.Getenv("DYNAMOEMU_BENCH_1M") != "" || os.Getenv("DYNAMOEMU_SCALE_10M") != "" {
		sizes = append(sizes, 1_000_000)
	}
	if os.Getenv("DYNAMOEMU_SCALE_10M") != "" {
		sizes = append(sizes, 10_000_000)
	}
	if n, err := strconv.Atoi(os.Getenv("DYNAMOEMU_BENCH_PRELOAD_N")); err == nil && n > 0 {
		sizes = []int{n} // one size of one's choosing instead
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			for b.Loop() {
				preloadOnce(b, n)
			}
		})
	}
}

func preloadOnce(b *testing.B, n int) {
	h, ak := benchTable(b, "pre")
	post := handlerPoster(h, ak)
	settleMemory()
	rss0, heap0 := processRSS(), liveHeap()

	var loading time.Duration
	var loadingCPU int64
	var sb strings.Builder
	r := newRawRequest(ak, "BatchWriteItem", "")
	for i := 0; i < n; i += 25 {
		r.data = []byte(batchPutBody(b, &sb, "pre", i, min(i+25, n)))
		r.req.ContentLength = int64(len(r.data))
		cpu0, _ := processCPU()
		start := time.Now()
		status := r.serve(h)
		loading += time.Since(start)
		cpu1, _ := processCPU()
		loadingCPU += cpu1.user + cpu1.sys - cpu0.user - cpu0.sys
		if status != http.StatusOK || bytes.Contains(r.w.out.Bytes(), []byte(`"PutRequest"`)) {
			b.Fatalf("BatchWriteItem: %d %.300s", status, r.w.out.String())
		}
	}
	settleMemory()
	rss1, heap1 := processRSS(), liveHeap()
	b.ReportMetric(loading.Seconds(), "preload-s")
	b.ReportMetric(float64(loadingCPU)/1e9, "preload-cpu-s")
	b.ReportMetric(float64(rss1-rss0)/float64(n), "rss-bytes/item")
	b.ReportMetric(float64(heap1-heap0)/float64(n), "heap-bytes/item")

	if status, out, _ := post("DescribeTable", `{"TableName":"pre"}`); status != http.StatusOK || !strings.Contains(out, `"ItemCount":`+strconv.Itoa(n)) {
		b.Fatalf("DescribeTable: %d %.300s", status, out)
	}
	deleted := time.Now()
	if status, out, _ := post("DeleteTable", `{"TableName":"pre"}`); status != http.StatusOK {
		b.Fatalf("DeleteTable: %d %s", status, out)
	}
	// The window grows with the table: handing back gigabytes (a full
	// collection, then madvise page by page) takes seconds on a busy
	// machine (at 10M items under load 30, 2 s were not enough).
	window := 2*time.Second + time.Duration(n/1_000_000)*time.Second
	released := -1.0
	for time.Since(deleted) < window {
		if released < 0 && processRSS()-rss0 < (rss1-rss0)/10 {
			released = float64(time.Since(deleted)) / float64(time.Millisecond)
		}
		time.Sleep(5 * time.Millisecond)
	}
	b.ReportMetric(float64(processRSS()-rss0)/float64(n), "rss-after-delete-bytes/item")
	b.ReportMetric(released, "release-ms")
	runtime.KeepAlive(h) // the handler holds the emulator, and so the table
}

// settleMemory collects garbage and returns freed memory to the OS, so
// that what is resident is what is live.
func settleMemory() {
	runtime.GC()
	debug.FreeOSMemory()
}

func liveHeap() int64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// processRSS is the process's resident set size (VmRSS), 0 where /proc is
// missing.
func processRSS() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
