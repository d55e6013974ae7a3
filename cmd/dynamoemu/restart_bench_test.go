package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkRestart measures how long a server with -dbPath takes from
// exec to its first answered request (a ListTables) after a clean stop
// and after kill -9, at 100,000 items (and 1,000,000 with
// DYNAMOEMU_BENCH_1M=1). Before the timed runs, a server fills one table
// (a GSI on it, items of about 250 bytes) through BatchWriteItem with
// the default compaction settings and is killed with SIGKILL at the end:
// that directory is the "kill" state. A server started on a copy of it
// and stopped with SIGTERM leaves the "clean" state. Each iteration
// starts the server on a fresh copy of a state (copied outside the
// timing) and kills it once it has answered; cpu-ms is the CPU time it
// used until then, MiB the state's size on disk, and snaps and segs its
// snapshot and log files.
//
//	DYNAMOEMU_BENCH_1M=1 go test ./cmd/dynamoemu -run '^$' -bench Restart -benchtime 5x
//
// DYNAMOEMU_STARTUP_BIN=path measures that binary instead of building
// this one (fills included: a directory of one build may not be one
// another reads). DYNAMOEMU_RESTART_DIR=path keeps the states in
// path/<items>/ and uses them again when they are there (the fill of a
// million items takes minutes): to compare builds, give each its own.
// emulator/internal/benchmarks BenchmarkLoadDir profiles loading one.
func BenchmarkRestart(b *testing.B) {
	bin := os.Getenv("DYNAMOEMU_STARTUP_BIN")
	if bin == "" {
		bin = buildBinary(b, ".", "")
	}
	sizes := []int{100_000}
	if os.Getenv("DYNAMOEMU_BENCH_1M") != "" {
		sizes = append(sizes, 1_000_000)
	}
	for _, n := range sizes {
		root := b.TempDir()
		states := root
		if keep := os.Getenv("DYNAMOEMU_RESTART_DIR"); keep != "" {
			states = filepath.Join(keep, fmt.Sprint(n))
		}
		kill, clean := filepath.Join(states, "kill"), filepath.Join(states, "clean")
		if _, err := os.Stat(clean); err != nil {
			os.RemoveAll(states)
			if err := os.MkdirAll(states, 0o755); err != nil {
				b.Fatal(err)
			}
			fillAndKill(b, bin, kill, n)
			copyDir(b, kill, clean+".tmp")
			stopAfterStart(b, bin, clean+".tmp")
			if err := os.Rename(clean+".tmp", clean); err != nil {
				b.Fatal(err)
			}
		}
		for _, st := range []struct{ name, dir string }{{"clean", clean}, {"kill", kill}} {
			b.Run(fmt.Sprintf("items=%d/%s", n, st.name), func(b *testing.B) {
				var times, cpus []float64
				work := filepath.Join(root, "work")
				for b.Loop() {
					b.StopTimer()
					os.RemoveAll(work)
					copyDir(b, st.dir, work)
					b.StartTimer()
					d, ru, err := startOnce(bin, "-dbPath", work)
					if err != nil {
						b.Fatal(err)
					}
					times = append(times, float64(d)/float64(time.Millisecond))
					cpus = append(cpus, float64(ru.Utime.Nano()+ru.Stime.Nano())/1e6)
				}
				mib, snaps, segs := dirFigures(st.dir)
				b.ReportMetric(median(times), "ms-to-first-answer")
				b.ReportMetric(median(cpus), "cpu-ms")
				b.ReportMetric(mib, "MiB")
				b.ReportMetric(float64(snaps), "snaps")
				b.ReportMetric(float64(segs), "segs")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}

// restartTable is the benchmark's table: a GSI on city, so that a load
// rebuilds index entries too.
const restartTable = `{"TableName":"users","BillingMode":"PAY_PER_REQUEST",
"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"city","AttributeType":"S"}],
"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
"GlobalSecondaryIndexes":[{"IndexName":"byCity","KeySchema":[{"AttributeName":"city","KeyType":"HASH"},{"AttributeName":"pk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}]}`

// restartItem is item i of the benchmark's table (about 250 bytes).
func restartItem(i int) string {
	return fmt.Sprintf(`{"PutRequest":{"Item":{"pk":{"S":"user#%09d"},"name":{"S":"Name %09d Surname"},"email":{"S":"user%09d@example.com"},`+
		`"city":{"S":"city-%03d"},"age":{"N":"%d"},"balance":{"N":"%d.%02d"},"active":{"BOOL":%t},"bio":{"S":"%s"}}}}`,
		i, i, i, i%500, 18+i%60, i%100000, i%100, i%3 == 0, strings.Repeat("lorem ipsum ", 8))
}

// fillAndKill fills dir with n items through a server of bin and kills
// it with SIGKILL once every write is answered.
func fillAndKill(b *testing.B, bin, dir string, n int) {
	b.Helper()
	c := startBin(b, bin, "-dbPath", dir, "-durability", "none")
	cl := newClient(c.url)
	ctx := context.Background()
	if err := cl.call(ctx, "CreateTable", restartTable, nil); err != nil {
		b.Fatal(err)
	}
	const writers = 4
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for w := range writers {
		wg.Go(func() {
			var sb strings.Builder
			for i := w * 25; i < n; i += writers * 25 {
				sb.Reset()
				sb.WriteString(`{"RequestItems":{"users":[`)
				for j := i; j < min(i+25, n); j++ {
					if j > i {
						sb.WriteByte(',')
					}
					sb.WriteString(restartItem(j))
				}
				sb.WriteString(`]}}`)
				var out struct{ UnprocessedItems map[string][]any }
				if err := cl.call(ctx, "BatchWriteItem", sb.String(), &out); err != nil {
					errs[w] = err
					return
				}
				if len(out.UnprocessedItems) > 0 {
					errs[w] = fmt.Errorf("unprocessed items at %d", i)
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			c.kill()
			b.Fatal(err)
		}
	}
	c.kill()
}

// stopAfterStart starts a server of bin on dir, waits for its answer and
// stops it with SIGTERM.
func stopAfterStart(b *testing.B, bin, dir string) {
	b.Helper()
	c := startBin(b, bin, "-dbPath", dir)
	if err := newClient(c.url).call(context.Background(), "ListTables", `{}`, nil); err != nil {
		c.kill()
		b.Fatal(err)
	}
	c.stop(b)
}

// startBin is startChild of the server binary bin.
func startBin(b *testing.B, bin string, args ...string) *child {
	b.Helper()
	c, err := startBinary(bin, args...)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// copyDir copies the directory from to to (which must not exist) and
// writes the copy out (sync): otherwise the server's first fsync would
// wait for the copy's dirty pages (ext4 commits them with its journal).
func copyDir(b *testing.B, from, to string) {
	b.Helper()
	if out, err := exec.Command("cp", "-a", from, to).CombinedOutput(); err != nil {
		b.Fatalf("cp: %v\n%s", err, out)
	}
	if out, err := exec.Command("sync").CombinedOutput(); err != nil {
		b.Fatalf("sync: %v\n%s", err, out)
	}
}

// dirFigures returns the size of dir in MiB and its count of snapshot
// and log segment files.
func dirFigures(dir string) (mib float64, snaps, segs int) {
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		mib += float64(info.Size()) / (1 << 20)
		switch {
		case strings.HasSuffix(path, ".snap"):
			snaps++
		case strings.HasSuffix(path, ".log"):
			segs++
		}
		return nil
	})
	return mib, snaps, segs
}
