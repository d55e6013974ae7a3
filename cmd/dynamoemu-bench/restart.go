package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The restart run (-restart N): how long a server kept in -dbPath takes
// to come back with N items. For each build of -emulator-bin (a
// comma-separated list; default: built from this module) it starts the
// server with a fresh -dbPath of its own, loads N items (preload.go) and
// stops it (SIGTERM, as a supervisor does); then -runs rounds, the builds
// one after the other in an order that alternates between rounds, so
// that the machine's load falls on both alike: each round starts the
// build on its folder and times from the exec to the first answered
// DescribeTable that finds the table ACTIVE followed by a GetItem that
// finds an item loaded (the server answers nothing before its folder is
// loaded, or answers without the table), and reads the server's CPU time
// to then (user and system, from /proc: what a busy machine moves less
// than the wall time), then stops it. It prints each round and each
// build's medians.

// restartKey is the access key of the restart run: the table is kept in
// its namespace, so every round asks with it.
const restartKey = "AKIARESTARTBENCH0001"

// startServer starts bin on a free port with -dbPath dir and the extra
// flags; its output goes to log.
func startServer(bin, dir string, log io.Writer, extra ...string) (*exec.Cmd, string, error) {
	port, err := freePort()
	if err != nil {
		return nil, "", err
	}
	args := append([]string{"-host", "127.0.0.1", "-port", strconv.Itoa(port), "-logLevel", "error",
		"-ttlSweepInterval", "0", "-dbPath", dir}, extra...)
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	return cmd, "http://127.0.0.1:" + strconv.Itoa(port), nil
}

// stopServer sends cmd SIGTERM and waits for it to exit.
func stopServer(cmd *exec.Cmd) error {
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		return fmt.Errorf("the server did not stop within 2 minutes of SIGTERM")
	}
}

// restartSeed loads n items into a fresh folder dir with bin's server.
func restartSeed(bin, dir string, n int, log io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	cmd, url, err := startServer(bin, dir, log, "-durability", "none")
	if err != nil {
		return err
	}
	if err := waitReady(url, time.Minute); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return err
	}
	cl := newClient(url, restartKey, 4)
	w := &workload{table: "restart"}
	if err := w.create(cl); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return err
	}
	r := preload(cl, w, n, 4, cmd.Process.Pid)
	if r.errors > 0 {
		cmd.Process.Kill()
		cmd.Wait()
		return fmt.Errorf("%d batches failed, first: %v", r.errors, r.firstErr)
	}
	return stopServer(cmd)
}

// restartOnce starts bin on dir and returns the time from its exec to
// the table's first answers, and the server's CPU time to then.
func restartOnce(bin, dir string, log io.Writer) (wall, cpu time.Duration, err error) {
	start := time.Now()
	cmd, url, err := startServer(bin, dir, log)
	if err != nil {
		return 0, 0, err
	}
	defer stopServer(cmd)
	cl := newClient(url, restartKey, 1)
	describe := []byte(`{"TableName":"restart"}`)
	get := []byte(`{"TableName":"restart","Key":{"pk":{"S":"` + pkText(0) + `"},"sk":{"N":"0"}}}`)
	for time.Since(start) < 5*time.Minute {
		if d, err := cl.call("DescribeTable", describe, nil); err == nil && bytes.Contains(d, []byte(`"TableStatus":"ACTIVE"`)) {
			if g, err := cl.call("GetItem", get, nil); err == nil && bytes.Contains(g, []byte(`"Item"`)) {
				return time.Since(start), procCPU(cmd.Process.Pid), nil
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return 0, 0, fmt.Errorf("%s: no answer with the table within 5 minutes", bin)
}

// runRestart is the restart run of c.restart items.
func runRestart(c config, stdout, stderr io.Writer) error {
	tmp, err := os.MkdirTemp("", "dynamoemu-bench-restart-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var bins, abouts []string
	if c.emulatorBin == "" {
		bin, about, err := buildEmulator(filepath.Join(tmp, "dynamoemu"))
		if err != nil {
			return err
		}
		bins, abouts = []string{bin}, []string{about}
	} else {
		bins = strings.Split(c.emulatorBin, ",")
		abouts = bins
	}
	fmt.Fprintf(stdout, "restart of %d items of %d bytes kept in -dbPath; %s\n", c.restart, itemSize, machine())
	for i, bin := range bins {
		if err := restartSeed(bin, filepath.Join(tmp, "db"+strconv.Itoa(i)), c.restart, stderr); err != nil {
			return fmt.Errorf("%s: loading: %w", abouts[i], err)
		}
	}
	times, cpus := make([][]time.Duration, len(bins)), make([][]time.Duration, len(bins))
	for round := range c.runs {
		for k := range bins {
			i := k
			if round%2 == 1 {
				i = len(bins) - 1 - k
			}
			d, cpu, err := restartOnce(bins[i], filepath.Join(tmp, "db"+strconv.Itoa(i)), stderr)
			if err != nil {
				return fmt.Errorf("round %d: %w", round+1, err)
			}
			times[i], cpus[i] = append(times[i], d), append(cpus[i], cpu)
			fmt.Fprintf(stdout, "round %d: %s: %.2fs to the first GetItem, server CPU %.2fs\n", round+1, abouts[i], d.Seconds(), cpu.Seconds())
		}
	}
	for i, t := range times {
		c := cpus[i]
		slices.Sort(t)
		slices.Sort(c)
		fmt.Fprintf(stdout, "%s: median %.2fs (%.2f-%.2fs), server CPU %.2fs (%.2f-%.2fs), of %d\n", abouts[i],
			t[len(t)/2].Seconds(), t[0].Seconds(), t[len(t)-1].Seconds(), c[len(c)/2].Seconds(), c[0].Seconds(), c[len(c)-1].Seconds(), len(t))
	}
	return nil
}
