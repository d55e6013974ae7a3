package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"time"
)

// runMatrix starts the servers of c.targets, measures them all and
// stops them.
func runMatrix(c config, stdout, stderr io.Writer) error {
	tmp, err := os.MkdirTemp("", "dynamoemu-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var targets []*target
	defer func() {
		for _, t := range targets {
			t.stop()
		}
	}()
	for _, name := range c.targets {
		fmt.Fprintf(stderr, "starting %s\n", name)
		var t *target
		switch name {
		case "dynamoemu":
			t, err = startEmulator(c.emulatorBin, tmp, stderr)
		case "dynamodb-local":
			t, err = startDynamoDBLocal(c.ddbLocal, tmp, stderr)
		case "dynalite":
			t, err = startDynalite(c.dynaliteDir, stderr)
		case "floor":
			t, err = startFloor(stderr)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		targets = append(targets, t)
	}
	return measure(c, targets, stdout, stderr)
}

// measure loads the workload's table into every target, runs every
// operation at every concurrency against every target (interleaved:
// for each operation, the targets one after the other, so that a busy
// machine disturbs them alike), prints the table and deletes the tables.
func measure(c config, targets []*target, stdout, stderr io.Writer) error {
	if c.preload > 0 {
		return runPreload(c, targets, stdout, stderr)
	}
	suffix := fmt.Sprintf("%08x", rand.Uint32())
	type prepared struct {
		t *target
		c *client
		w *workload
	}
	var ps []prepared
	maxConc := 1
	for _, n := range c.concurrency {
		maxConc = max(maxConc, n)
	}
	for _, t := range targets {
		key := c.accessKey
		if key == "" {
			key = "AKIABENCH" + suffix
		}
		cl := newClient(t.url, key, maxConc)
		w := &workload{table: "bench_" + suffix, partitions: c.partitions}
		fmt.Fprintf(stderr, "loading %d items into %s\n", c.partitions*itemsPerPartition, t.name)
		if err := w.setup(cl); err != nil {
			return fmt.Errorf("%s: %w", t.name, err)
		}
		defer w.teardown(cl)
		ps = append(ps, prepared{t, cl, w})
	}
	results := make(map[*target][]result)
	for _, conc := range c.concurrency {
		for _, op := range c.ops {
			for _, p := range ps {
				r := run(p.c, p.w, runConfig{op: op, concurrency: conc, duration: c.duration, warmup: c.warmup, requests: c.requests,
					strict: p.t.strict && c.strict, pid: p.t.pid})
				fmt.Fprintf(stderr, "%-14s %-10s x%-3d %s\n", p.t.name, op, conc, r.summary())
				results[p.t] = append(results[p.t], r)
				p.c.http.CloseIdleConnections()
			}
		}
	}
	table := formatTable(c, targets, results)
	fmt.Fprint(stdout, table)
	if c.out != "" {
		return os.WriteFile(c.out, []byte(table), 0o644)
	}
	return nil
}

// summary is one line of progress.
func (r result) summary() string {
	s := fmt.Sprintf("%8.0f/s  p50 %-9s p99 %-9s", r.opsPerSec(), ms(r.p50), ms(r.p99))
	if r.serverCPU > 0 {
		s += fmt.Sprintf("  server %s/req", us(r.perOp(r.serverCPU)))
	}
	s += fmt.Sprintf("  client %s/req", us(r.perOp(r.clientCPU)))
	if r.errors > 0 {
		s += fmt.Sprintf("  %d ERRORS, first: %v", r.errors, r.firstErr)
	}
	return s
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond)) }
func us(d time.Duration) string { return fmt.Sprintf("%.0fµs", float64(d)/float64(time.Microsecond)) }

// formatTable renders the results as Markdown: a caption naming the
// machine and the servers, then per concurrency a table of operations by
// servers; each cell requests per second, median and 99th percentile
// latency, and the server's CPU time per request.
func formatTable(c config, targets []*target, results map[*target][]result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Measured %s by `dynamoemu-bench", time.Now().UTC().Format("2006-01-02 15:04 MST"))
	if c.matrix {
		b.WriteString(" -matrix")
	}
	fmt.Fprintf(&b, " -duration %s -concurrency %s`.\n\n", c.duration, joinInts(c.concurrency))
	fmt.Fprintf(&b, "- Machine: %s.\n", machine())
	for _, t := range targets {
		fmt.Fprintf(&b, "- %s: %s.\n", t.name, t.about)
	}
	fmt.Fprintf(&b, "- Workload: one table (pk S, sk N) of %d items of %d bytes (%d partitions of %d), loaded first; "+
		"each cell %s after %s of warm-up, clients over keep-alive HTTP/1.1 on loopback, every answer checked.\n",
		c.partitions*itemsPerPartition, itemSize, c.partitions, itemsPerPartition, c.duration, c.warmup)
	b.WriteString("- Cells: requests/s · p50 / p99 latency · server CPU per request (user + system, from /proc). " +
		"put: PutItem; get: GetItem; query: Query of 10 items; update: UpdateItem with a condition; " +
		"scan: Scan of 100 items; scanfilter: Scan of 500 items, FilterExpression count = 0 (one in ten as loaded); " +
		"batch: BatchWriteItem of 25 puts; mixed: get 50%, put 25%, query 15%, update 10%.\n")
	idx := 0
	for _, conc := range c.concurrency {
		fmt.Fprintf(&b, "\nConcurrency %d:\n\n| operation |", conc)
		for _, t := range targets {
			fmt.Fprintf(&b, " %s |", t.name)
		}
		b.WriteString("\n|---|")
		for range targets {
			b.WriteString("---|")
		}
		b.WriteString("\n")
		for _, op := range c.ops {
			fmt.Fprintf(&b, "| %s |", op)
			for _, t := range targets {
				r := results[t][idx]
				fmt.Fprintf(&b, " %s |", cell(r))
			}
			b.WriteString("\n")
			idx++
		}
	}
	b.WriteString("\nClient CPU per request (this tool's own cost, by server; larger answers cost more to check): ")
	var parts []string
	for _, t := range targets {
		var cpu time.Duration
		var ops int
		for _, r := range results[t] {
			cpu += r.clientCPU
			ops += r.ops
		}
		if ops > 0 {
			parts = append(parts, fmt.Sprintf("%s %s", t.name, us(cpu/time.Duration(ops))))
		}
	}
	b.WriteString(strings.Join(parts, ", ") + ".\n")
	return b.String()
}

func cell(r result) string {
	s := fmt.Sprintf("%s/s · %s / %s", thousands(r.opsPerSec()), shortMs(r.p50), shortMs(r.p99))
	if r.serverCPU > 0 {
		s += " · " + us(r.perOp(r.serverCPU))
	}
	if r.errors > 0 {
		s += fmt.Sprintf(" · **%d errors**", r.errors)
	}
	return s
}

func shortMs(d time.Duration) string {
	v := float64(d) / float64(time.Millisecond)
	switch {
	case v < 1:
		return fmt.Sprintf("%.2f ms", v)
	case v < 10:
		return fmt.Sprintf("%.1f ms", v)
	}
	return fmt.Sprintf("%.0f ms", v)
}

func thousands(v float64) string {
	s := fmt.Sprintf("%.0f", v)
	var b strings.Builder
	for i, ch := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(ch)
	}
	return b.String()
}

func joinInts(ns []int) string {
	var parts []string
	for _, n := range ns {
		parts = append(parts, fmt.Sprint(n))
	}
	return strings.Join(parts, ",")
}
