package persist

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The crash test: this test binary runs itself as a child (TestCrashChild)
// that opens a store and runs the workload (workload_test.go) on it,
// printing "ack <i>" once op i has returned; the parent kills it with
// SIGKILL at a random point, reopens the store and checks that the DB is
// the model after every acknowledged op, and at most the one in flight,
// whole: nothing acknowledged is lost, nothing is half there
// (transactions, restores and catalog changes included), every index
// equals its table, and the store always opens. Then the next child goes
// on from there. Segments and compactions are small, so kills land in
// rotations and compactions too. Each round picks a durability; a SIGKILL
// leaves the operating system's page cache, so even None keeps every
// acknowledged write (a power cut would not; see doc.go).
//
//	PERSIST_SEED=n       the workload and kill points (printed)
//	PERSIST_CRASH_ROUNDS the number of kills (default 50)

const crashChildEnv = "PERSIST_CRASH_CHILD"

// TestCrashChild is the child's side; it runs only as a child.
func TestCrashChild(t *testing.T) {
	if os.Getenv(crashChildEnv) == "" {
		t.Skip("the crash test's child: runs only when TestCrash starts it")
	}
	seed, _ := strconv.ParseUint(os.Getenv("PERSIST_CRASH_SEED"), 10, 64)
	from, _ := strconv.Atoi(os.Getenv("PERSIST_CRASH_FROM"))
	d, err := ParseDurability(os.Getenv("PERSIST_CRASH_DURABILITY"))
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	s, err := Open(os.Getenv(crashChildEnv), small(d))
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	db, err := s.DB(SharedNamespace)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	fmt.Println("open")
	for i := from; ; i++ {
		if err := runOp(db, genOp(seed, i), i); err != nil {
			fmt.Println("error op", i, err)
			os.Exit(3)
		}
		fmt.Println("ack", i)
	}
}

func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 50 processes")
	}
	seed := testSeed(t)
	rounds := 50
	if s := os.Getenv("PERSIST_CRASH_ROUNDS"); s != "" {
		rounds, _ = strconv.Atoi(s)
	}
	r := rand.New(rand.NewPCG(seed, 0))
	dir := t.TempDir()
	m := newModel() // the model after `applied` ops
	applied := 0
	modes := []Durability{None, None, None, Sync, Group}
	for round := range rounds {
		d := modes[r.IntN(len(modes))]
		acks := r.IntN(40) // acknowledged ops before the kill; 0: during start-up or the first op
		last := crashChild(t, dir, seed, applied, d, acks, r.IntN(3) == 0)
		// The DB holds ops up to last, and perhaps last+1 (in flight).
		for i := applied; i <= last; i++ {
			m.apply(genOp(seed, i), i)
		}
		applied = last + 1
		s, db := mustOpen(t, dir, Options{CompactBytes: -1})
		got := renderDB(db)
		if want := m.render(); got != want {
			next := m.clone()
			next.apply(genOp(seed, applied), applied)
			if got != next.render() {
				t.Fatalf("round %d (%s, %d acks, last ack %d): the DB is neither the model after op %d nor after op %d:\n%s\nwant\n%s",
					round, d, acks, last, last, applied, got, want)
			}
			m, applied = next, applied+1
		}
		checkIndexes(t, db)
		rec, _ := s.Recovery(SharedNamespace)
		if rec.Cut != "" {
			t.Logf("round %d: %s", round, rec.Cut)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d rounds, %d ops", rounds, applied)
}

// crashChild runs a child from op from until it has acknowledged acks
// ops (or, with early, at once after its start), kills it, and returns
// the last op it acknowledged (from-1 for none).
func crashChild(t *testing.T, dir string, seed uint64, from int, d Durability, acks int, early bool) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+dir, fmt.Sprint("PERSIST_CRASH_SEED=", seed),
		fmt.Sprint("PERSIST_CRASH_FROM=", from), "PERSIST_CRASH_DURABILITY="+d.String())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	kill := func() { cmd.Process.Signal(syscall.SIGKILL) }
	if early {
		time.AfterFunc(time.Duration(acks)*time.Millisecond, kill) // anywhere in start-up, loading included
	}
	last, n := from-1, 0
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "ack "):
			last, _ = strconv.Atoi(line[4:])
			if n++; n == acks && !early {
				kill()
			}
		case line == "open":
			if acks == 0 && !early {
				kill()
			}
		case strings.HasPrefix(line, "error"):
			kill()
			cmd.Wait()
			t.Fatalf("child: %s", line)
		}
	}
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("child did not die of SIGKILL: %v", err)
	}
	return last
}
