package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkDurability measures what each -durability mode costs the
// server: PutItem and BatchWriteItem (25 puts) at 1 and 8 concurrent
// clients, against servers started side by side (no -dbPath, and
// -dbPath with none, sync and group), in interleaved rounds so that
// every mode meets the same machine: each round runs every case for
// -benchtime on each server in turn. Per case and mode it reports the
// median over the rounds of the operations per second (ops/s) and the
// server's CPU time per operation (cpu-us/op, from /proc/<pid>/stat:
// user and system time of every thread); memory-x is the CPU per
// operation against the in-memory server's.
//
//	go test ./cmd/dynamoemu -run '^$' -bench Durability -benchtime 2s
//
// DYNAMOEMU_DURABILITY_ROUNDS sets the rounds (default 5);
// DYNAMOEMU_DURABILITY_MODES the modes, a comma-separated subset of
// memory, none, sync and group (default all). With
// DYNAMOEMU_DURABILITY_BASE_BIN set to another build of the server,
// its sync and group servers ("sync-base", "group-base") run in the same
// rounds: a change measured against the build before it.
func BenchmarkDurability(b *testing.B) {
	bin := os.Getenv("DYNAMOEMU_STARTUP_BIN")
	if bin == "" {
		bin = buildBinary(b, ".", "")
	}
	rounds := 5
	if v, err := strconv.Atoi(os.Getenv("DYNAMOEMU_DURABILITY_ROUNDS")); err == nil && v > 0 {
		rounds = v
	}
	burst := benchTime()
	modes := []string{"memory", "none", "sync", "group"}
	if v := os.Getenv("DYNAMOEMU_DURABILITY_MODES"); v != "" {
		modes = strings.Split(v, ",")
	}
	base := os.Getenv("DYNAMOEMU_DURABILITY_BASE_BIN")
	if base != "" {
		modes = append(modes, "sync-base", "group-base")
	}
	servers := map[string]*child{}
	for _, m := range modes {
		var args []string
		if m != "memory" {
			args = []string{"-dbPath", b.TempDir(), "-durability", strings.TrimSuffix(m, "-base")}
		}
		mbin := bin
		if strings.HasSuffix(m, "-base") {
			mbin = base
		}
		c := startBin(b, mbin, args...)
		defer c.kill()
		if err := newClient(c.url).call(context.Background(), "CreateTable", `{"TableName":"tab","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`, nil); err != nil {
			b.Fatal(err)
		}
		servers[m] = c
	}
	type key struct {
		op   string
		conc int
		mode string
	}
	opsPerSec := map[key][]float64{}
	cpuPerOp := map[key][]float64{}
	cases := []struct {
		op   string
		conc int
	}{{"PutItem", 1}, {"PutItem", 8}, {"BatchWriteItem", 1}, {"BatchWriteItem", 8}}
	var seq atomic.Int64
	for range rounds {
		for _, cs := range cases {
			for _, m := range modes {
				c := servers[m]
				ops, cpu := durabilityBurst(b, c, cs.op, cs.conc, burst, &seq)
				k := key{cs.op, cs.conc, m}
				opsPerSec[k] = append(opsPerSec[k], float64(ops)/burst.Seconds())
				cpuPerOp[k] = append(cpuPerOp[k], float64(cpu.Microseconds())/float64(max(ops, 1)))
			}
		}
	}
	for _, cs := range cases {
		for _, m := range modes {
			k := key{cs.op, cs.conc, m}
			b.Run(fmt.Sprintf("%s/c=%d/%s", cs.op, cs.conc, m), func(b *testing.B) {
				for b.Loop() {
				}
				b.ReportMetric(median(opsPerSec[k]), "ops/s")
				b.ReportMetric(median(cpuPerOp[k]), "cpu-us/op")
				if mem := cpuPerOp[key{cs.op, cs.conc, "memory"}]; mem != nil {
					b.ReportMetric(median(cpuPerOp[k])/median(mem), "memory-x")
				}
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}

// benchTime is -test.benchtime as a duration (1s when it is a count).
func benchTime() time.Duration {
	d := time.Second
	if f := flag.Lookup("test.benchtime"); f != nil {
		if v, err := time.ParseDuration(f.Value.String()); err == nil {
			d = v
		}
	}
	return d
}

// durabilityBurst runs op against c from conc clients for d and returns
// the operations answered and the server's CPU time meanwhile.
func durabilityBurst(b *testing.B, c *child, op string, conc int, d time.Duration, seq *atomic.Int64) (int64, time.Duration) {
	cl := newClient(c.url)
	ctx := context.Background()
	body := func() string {
		if op == "PutItem" {
			return fmt.Sprintf(`{"TableName":"tab","Item":{"pk":{"S":"k%d"},"v":{"S":"%s"}}}`, seq.Add(1), strings.Repeat("x", 200))
		}
		var sb strings.Builder
		sb.WriteString(`{"RequestItems":{"tab":[`)
		for i := range 25 {
			if i > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, `{"PutRequest":{"Item":{"pk":{"S":"k%d"},"v":{"S":"%s"}}}}`, seq.Add(1), strings.Repeat("x", 200))
		}
		sb.WriteString(`]}}`)
		return sb.String()
	}
	cpu0 := processCPU(b, c.cmd.Process.Pid)
	deadline := time.Now().Add(d)
	var ops atomic.Int64
	var wg sync.WaitGroup
	for range conc {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				if err := cl.call(ctx, op, body(), nil); err != nil {
					b.Error(err)
					return
				}
				ops.Add(1)
			}
		})
	}
	wg.Wait()
	return ops.Load(), processCPU(b, c.cmd.Process.Pid) - cpu0
}

// processCPU is the user and system time process pid has used.
func processCPU(b *testing.B, pid int) time.Duration {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		b.Fatal(err)
	}
	// Fields after the command (in parentheses, which may hold spaces):
	// utime and stime are the 14th and 15th fields of the line.
	s := string(raw)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * (time.Second / clockTicks)
}

// clockTicks is the kernel's USER_HZ, the unit of /proc/<pid>/stat's
// times (100 on Linux everywhere).
const clockTicks = 100
