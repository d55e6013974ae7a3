package benchmarks

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/internal/persist"
)

// Persistence (-dbPath) through the handler (server work only).
//
// BenchmarkPersistPutItem: PutItem of a 240-byte item in memory only
// (no -dbPath: the write path without persistence) and with -dbPath in
// each durability mode: none (one write to the OS per commit), group
// (one fdatasync shared by the commits within -groupCommitWindow) and
// sync (one fdatasync per commit, shared by the commits that wait at the
// same time). serial is one request at a time; parallel is 16 goroutines,
// where group commit shares fsyncs. The figures depend on the disk's
// flush latency above all.
//
// BenchmarkPersistStartup: emulator.New on a -dbPath holding one table of
// 240-byte items (100k; 1M with DYNAMOEMU_BENCH_1M=1), as the log wrote
// them (log: the items replayed from the log) and folded into a snapshot
// (snapshot: read from it), then Close.

func persistEmulator(tb testing.TB, durability string) *emulator.Emulator {
	tb.Helper()
	opts := emulator.Options{}
	if durability != "memory" {
		d, err := emulator.ParseDurability(durability)
		if err != nil {
			tb.Fatal(err)
		}
		opts.DataDir = tb.TempDir()
		opts.Persist = emulator.PersistOptions{Durability: d}
	}
	e, err := emulator.New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { e.Close() })
	return e
}

func BenchmarkPersistPutItem(b *testing.B) {
	for _, mode := range []string{"memory", "none", "group", "sync"} {
		b.Run(mode+"/serial", func(b *testing.B) {
			e := persistEmulator(b, mode)
			h := e.Handler()
			ak := newAccessKey()
			post := handlerPoster(h, ak)
			if status, out, _ := post("CreateTable", streamTableDef("")); status != http.StatusOK {
				b.Fatalf("CreateTable: %d %s", status, out)
			}
			a := itemJSON(b, 12, 12, true)
			reqs := [2]*rawRequest{
				newRawRequest(ak, "PutItem", `{"TableName":"str","Item":`+a+`}`),
				newRawRequest(ak, "PutItem", `{"TableName":"str","Item":`+strings.Replace(a, `"active"`, `"paused"`, 1)+`}`),
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if status := reqs[i&1].serve(h); status != http.StatusOK {
					b.Fatalf("status %d", status)
				}
				i++
			}
		})
		b.Run(mode+"/parallel", func(b *testing.B) {
			e := persistEmulator(b, mode)
			h := e.Handler()
			ak := newAccessKey()
			post := handlerPoster(h, ak)
			if status, out, _ := post("CreateTable", streamTableDef("")); status != http.StatusOK {
				b.Fatalf("CreateTable: %d %s", status, out)
			}
			var next atomic.Int64
			b.ReportAllocs()
			b.SetParallelism(max(1, 16/runtime.GOMAXPROCS(0))) // about 16 goroutines
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				g := int(next.Add(1))
				a := itemJSON(b, 1000+g, g, true)
				reqs := [2]*rawRequest{
					newRawRequest(ak, "PutItem", `{"TableName":"str","Item":`+a+`}`),
					newRawRequest(ak, "PutItem", `{"TableName":"str","Item":`+strings.Replace(a, `"active"`, `"paused"`, 1)+`}`),
				}
				i := 0
				for pb.Next() {
					if status := reqs[i&1].serve(h); status != http.StatusOK {
						b.Errorf("status %d", status)
						return
					}
					i++
				}
			})
		})
	}
}

func BenchmarkPersistStartup(b *testing.B) {
	sizes := []int{100_000}
	if os.Getenv("DYNAMOEMU_BENCH_1M") != "" {
		sizes = append(sizes, 1_000_000)
	}
	for _, n := range sizes {
		dir := b.TempDir()
		fillPersisted(b, dir, n)
		b.Run(fmt.Sprintf("items=%d/log", n), func(b *testing.B) { benchStartup(b, dir, n) })
		compactAll(b, dir)
		b.Run(fmt.Sprintf("items=%d/snapshot", n), func(b *testing.B) { benchStartup(b, dir, n) })
	}
}

// fillPersisted writes n items into one table of a namespace of dir.
func fillPersisted(b testing.TB, dir string, n int) {
	b.Helper()
	e, err := emulator.New(emulator.Options{DataDir: dir, Persist: emulator.PersistOptions{Durability: emulator.DurabilityNone, CompactBytes: -1}})
	if err != nil {
		b.Fatal(err)
	}
	post := handlerPoster(e.Handler(), "AKIABENCHSTART")
	if status, out, _ := post("CreateTable", streamTableDef("")); status != http.StatusOK {
		b.Fatalf("CreateTable: %d %s", status, out)
	}
	var sb strings.Builder
	for i := 0; i < n; i += 25 {
		if status, out, _ := post("BatchWriteItem", batchPutBody(b, &sb, "str", i, min(i+25, n))); status != http.StatusOK {
			b.Fatalf("BatchWriteItem: %d %s", status, out)
		}
	}
	if err := e.Close(); err != nil {
		b.Fatal(err)
	}
}

// compactAll folds every namespace's log in dir into a snapshot.
func compactAll(b testing.TB, dir string) {
	b.Helper()
	st, err := persist.Open(dir, persist.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	names, err := st.Namespaces()
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range names {
		if _, err := st.DB(name); err != nil {
			b.Fatal(err)
		}
		if err := st.Compact(name); err != nil {
			b.Fatal(err)
		}
	}
}

func benchStartup(b *testing.B, dir string, n int) {
	var bytes int64
	filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			bytes += info.Size()
		}
		return nil
	})
	for b.Loop() {
		// Compaction off: the log variant replays the log every time.
		e, err := emulator.New(emulator.Options{DataDir: dir, Persist: emulator.PersistOptions{CompactBytes: -1}})
		if err != nil {
			b.Fatal(err)
		}
		if err := e.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n), "items")
	b.ReportMetric(float64(bytes)/(1<<20), "MiB-on-disk")
}

// BenchmarkLoadDir loads a copy of the data directory
// $DYNAMOEMU_LOAD_DIR (skipped without it) with emulator.New, as the
// server does at start-up, and closes it: for profiling a load (such as
// cmd/dynamoemu BenchmarkRestart's states, kept with
// DYNAMOEMU_RESTART_DIR) with -cpuprofile (-focus openNamespace or
// RebuildCatalog: Close, outside the timing, may write a snapshot). The
// copy is made outside the timing.
//
//	DYNAMOEMU_LOAD_DIR=/tmp/states/1000000/kill go test ./emulator/internal/benchmarks \
//	    -run XXX -bench LoadDir -benchtime 3x -cpuprofile cpu.out
func BenchmarkLoadDir(b *testing.B) {
	src := os.Getenv("DYNAMOEMU_LOAD_DIR")
	if src == "" {
		b.Skip("DYNAMOEMU_LOAD_DIR not set")
	}
	work := filepath.Join(b.TempDir(), "work")
	var cpu int64 // the loads' CPU time: steadier than their time on a shared machine
	for b.Loop() {
		b.StopTimer()
		os.RemoveAll(work)
		if out, err := exec.Command("cp", "-a", src, work).CombinedOutput(); err != nil {
			b.Fatalf("cp: %v\n%s", err, out)
		}
		c0, _ := processCPU()
		b.StartTimer()
		e, err := emulator.New(emulator.Options{DataDir: work})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		c1, _ := processCPU()
		cpu += c1.user + c1.sys - c0.user - c0.sys
		if err := e.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu)/1e6/float64(b.N), "cpu-ms/op")
}
