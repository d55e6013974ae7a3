package lint

import (
	"bufio"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The performance budget (docs/architecture.md, "Performance budget"):
// the machinery kept for speed or memory may not grow. Each file that
// holds some has a row in the budget's table with its counts and the
// benchmark that keeps it; the totals may not pass budgetMost.

// budgetMost are the most uses of each kind the code may hold: today's
// counts. Lower one when a use goes; never raise one without the
// benchmark and figure that pay for it (and a review).
var budgetMost = budgetCounts{unsafe: 47, pools: 21, asm: 2, alloc: 1}

// budgetMostUnsafeLines is the most lines that may hold a use of unsafe:
// the count the budget was first written in (lines naming unsafe. in
// non-test Go files), held beside the uses, so that a count can fall
// only by a use going, not by two uses joined onto one line. Both rose
// by one for a large body's short strings (wire_decode.go's keepText).
const budgetMostUnsafeLines = 32

// budgetCounts are the uses of one file, or of all.
type budgetCounts struct {
	unsafe int // uses of package unsafe (unsafe.X)
	pools  int // pools made (lease.NewPool, sync.Pool outside internal/lease)
	asm    int // assembly files
	alloc  int // calls for memory from the OS (madvise, mmap): a custom allocator's
}

func (c *budgetCounts) add(o budgetCounts) {
	c.unsafe += o.unsafe
	c.pools += o.pools
	c.asm += o.asm
	c.alloc += o.alloc
}

// allocIdents are the names of the OS memory calls a custom allocator makes.
var allocIdents = map[string]bool{"SYS_MADVISE": true, "SYS_MMAP": true, "Madvise": true, "Mmap": true}

// measureBudget counts the uses of every non-test file of the module,
// and the lines that hold a use of unsafe.
func measureBudget(t *testing.T) (map[string]budgetCounts, int) {
	dir := root(t)
	out := map[string]budgetCounts{}
	unsafeLines := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if path != dir && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, ".s") {
			out[rel] = budgetCounts{asm: 1}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var c budgetCounts
		var s scanner.Scanner
		file := token.NewFileSet().AddFile(rel, -1, len(src))
		s.Init(file, src, nil, 0) // comments skipped
		var prev, prev2 string
		lastLine := 0
		for {
			pos, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok == token.IDENT {
				switch {
				case prev == "." && prev2 == "unsafe":
					c.unsafe++
					if line := file.Line(pos); line != lastLine {
						unsafeLines++
						lastLine = line
					}
				case prev == "." && prev2 == "lease" && lit == "NewPool",
					prev == "." && prev2 == "sync" && lit == "Pool" && !strings.HasPrefix(rel, "internal/lease/"):
					c.pools++
				case prev == "." && allocIdents[lit]:
					c.alloc++
				}
			}
			prev2, prev = prev, lit
			if tok == token.PERIOD {
				prev = "."
			}
		}
		if c != (budgetCounts{}) {
			out[rel] = c
		}
		return nil
	})
	require.NoError(t, err)
	return out, unsafeLines
}

// budgetRow is a row of the budget's table: | `file` | unsafe | pools | asm | alloc | kept by | figure |
var budgetRow = regexp.MustCompile("^\\| `([^`]+)` \\| (\\d+) \\| (\\d+) \\| (\\d+) \\| (\\d+) \\| ([^|]+) \\| ([^|]*) \\|$")

// keeper is what keeps a use: a benchmark, or "required:" and why it
// is no choice of speed.
var keeper = regexp.MustCompile(`^(Benchmark[A-Za-z0-9_]+)(/[^ ]*)?\b|^required: \S`)

// TestPerformanceBudget: every file that uses unsafe, makes a pool, is
// assembly or asks the OS for memory has its row in docs/architecture.md's
// "Performance budget" with exactly its counts and the benchmark that
// keeps it (a benchmark of the module), no row names a file that holds
// none, and the totals stay within budgetMost.
func TestPerformanceBudget(t *testing.T) {
	measured, unsafeLines := measureBudget(t)
	f, err := os.Open(filepath.Join(root(t), "docs", "architecture.md"))
	require.NoError(t, err)
	defer f.Close()
	rows := map[string]budgetCounts{}
	keepers := map[string]string{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = line == "## Performance budget"
			continue
		}
		if !in {
			continue
		}
		m := budgetRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
		rows[m[1]] = budgetCounts{unsafe: n(2), pools: n(3), asm: n(4), alloc: n(5)}
		keepers[m[1]] = strings.TrimSpace(m[6])
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, rows, `docs/architecture.md has no "## Performance budget" table`)
	benchmarks := moduleBenchmarks(t)
	var total budgetCounts
	for file, got := range measured {
		total.add(got)
		row, ok := rows[file]
		if !ok {
			t.Errorf("%s holds %+v and has no row in docs/architecture.md's performance budget: name the benchmark and figure that keep it", file, got)
			continue
		}
		if row != got {
			t.Errorf("%s holds %+v, its budget row says %+v: make the row true", file, got, row)
		}
		k := keeper.FindStringSubmatch(keepers[file])
		switch {
		case k == nil:
			t.Errorf("%s: its budget row names no benchmark (BenchmarkX) nor why it is required (required: ...): %q", file, keepers[file])
		case k[1] != "" && !benchmarks[k[1]]:
			t.Errorf("%s: its budget row names %s, which no test of the module declares", file, k[1])
		}
	}
	for file := range rows {
		if _, ok := measured[file]; !ok {
			t.Errorf("the performance budget has a row for %s, which holds none: drop the row (and lower budgetMost)", file)
		}
	}
	for _, c := range []struct {
		what      string
		got, most int
	}{
		{"uses of unsafe", total.unsafe, budgetMost.unsafe},
		{"lines with a use of unsafe", unsafeLines, budgetMostUnsafeLines},
		{"pools", total.pools, budgetMost.pools},
		{"assembly files", total.asm, budgetMost.asm},
		{"OS memory calls (custom allocators)", total.alloc, budgetMost.alloc},
	} {
		require.LessOrEqualf(t, c.got, c.most, "the code holds %d %s, more than the budget's %d", c.got, c.what, c.most)
		if c.got < c.most {
			t.Errorf("the code holds %d %s, fewer than the budget's %d: lower budgetMost", c.got, c.what, c.most)
		}
	}
}

// moduleBenchmarks are the names of the benchmarks the module's tests declare.
func moduleBenchmarks(t *testing.T) map[string]bool {
	dir := root(t)
	out := map[string]bool{}
	decl := regexp.MustCompile(`(?m)^func (Benchmark[A-Za-z0-9_]*)\(`)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != dir && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range decl.FindAllSubmatch(src, -1) {
			out[string(m[1])] = true
		}
		return nil
	})
	require.NoError(t, err)
	return out
}
