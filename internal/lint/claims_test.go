package lint

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Performance claims in comments are checkable ones: what the compiler
// does is said with a //gcassert directive, which TestCompilerClaims
// checks against the compiler's own reports (pebble's lint runs
// github.com/jordanlewis/gcassert for the same directives); what a change
// gained in time or bytes names the benchmark that shows it. An
// instruction count (a callgrind run's) cannot be checked and goes stale,
// so TestNoInstructionCounts keeps comments free of them.

// instructionCount is a comment that counts instructions or names the
// tools that count them: "about 150 instructions", "95M instructions",
// "a fifth more instructions", "callgrind". The MCP server's
// instructions (its handshake's text) are not a count.
var instructionCount = regexp.MustCompile(`(?i)\b(callgrind|cachegrind|valgrind)\b|instructions\.sh|` +
	`(\d|\b(few|hundreds?|thousands?|fewer|more|less|fifth|half|twice)\b)[^.;:()]{0,24}?\binstructions?\b`)

// TestNoInstructionCounts: no comment of a non-test Go file counts
// instructions; name the benchmark instead (BenchmarkOps/GetItem/handler).
func TestNoInstructionCounts(t *testing.T) {
	r := root(t)
	for _, path := range sourceFiles(t, r) {
		src, err := os.ReadFile(filepath.Join(r, path))
		require.NoError(t, err)
		for _, c := range comments(path, src) {
			if m := instructionCount.FindString(c.text); m != "" {
				t.Errorf("%s:%d: a comment counts instructions (%q): name the benchmark that shows the gain instead", path, c.line, m)
			}
		}
	}
}

// TestInstructionCountsFound: the pattern finds the counts the tree held
// and leaves the MCP server's instructions alone.
func TestInstructionCountsFound(t *testing.T) {
	for _, s := range []string{"cost 146 instructions a request", "95M instructions of 623M",
		"about 60 instructions fewer", "a few hundred instructions a header", "a fifth more instructions",
		"(callgrind, BenchmarkOps)", "took 14,566M instructions deferring", "benchmarks/instructions.sh PutItem"} {
		require.Regexp(t, instructionCount, s)
	}
	for _, s := range []string{"the instructions name the tools listed only", "in the order the instructions list them",
		"for the instructions, which groups the server lists", "instructions go into every conversation"} {
		require.NotRegexp(t, instructionCount, s)
	}
}

// comment is a comment group's text, joined into one line, and the line
// it starts on.
type comment struct {
	line int
	text string
}

// comments returns the comment groups of a Go source file (runs of line
// comments on consecutive lines, or a block comment).
func comments(path string, src []byte) []comment {
	fset := token.NewFileSet()
	f := fset.AddFile(path, -1, len(src))
	var s scanner.Scanner
	s.Init(f, src, nil, scanner.ScanComments)
	var out []comment
	last := -2
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok != token.COMMENT {
			continue
		}
		line := f.Line(pos)
		text := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(strings.TrimSuffix(lit, "*/"), "/*"), "//"))
		if line == last+1 && len(out) > 0 {
			out[len(out)-1].text += " " + text
		} else {
			out = append(out, comment{line: line, text: text})
		}
		last = line + strings.Count(lit, "\n")
	}
}

// sourceFiles returns the non-test Go files of the module at r, relative
// to it.
func sourceFiles(t *testing.T, r string) []string {
	var out []string
	require.NoError(t, filepath.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != r && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules" || n == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			rel, _ := filepath.Rel(r, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	}))
	return out
}

// gcassertKinds are the directives TestCompilerClaims checks.
var gcassertKinds = map[string]bool{"inline": true, "bce": true, "noescape": true}

// claim is one //gcassert directive: its kind, where it is, and what it
// is about: a function (fn, its declaration's line) or a line of code.
type claim struct {
	kind, file string
	at, line   int    // the directive's line; the line it is about
	fn         string // a function's inline claim: its name
	calls      int    // calls on the line (an inline claim about a line)
	indexes    bool   // the line indexes or slices something (a bce claim)
}

// TestCompilerClaims: every //gcassert directive in the module's non-test
// Go files holds, by the compiler's reports for the packages holding
// them (go build -gcflags='-m -d=ssa/check_bce/debug=1'):
//
//   - inline in a function's doc comment: the compiler can inline it;
//   - inline on a line (after its code, or alone on the line above it):
//     every call on the line is inlined;
//   - bce on a line: no bounds check is left on it;
//   - noescape on a line: nothing declared or made on it escapes to the
//     heap.
//
// Files the build leaves out (another GOARCH's) are not checked.
func TestCompilerClaims(t *testing.T) {
	r := root(t)
	var claims []claim
	var pkgs []string
	for _, p := range goList(t, "./...") {
		n := len(claims)
		for _, name := range p.GoFiles {
			rel, err := filepath.Rel(r, filepath.Join(p.Dir, name))
			require.NoError(t, err)
			cs, err := gcassertClaims(filepath.ToSlash(rel), filepath.Join(p.Dir, name))
			require.NoError(t, err)
			claims = append(claims, cs...)
		}
		if len(claims) > n {
			pkgs = append(pkgs, p.ImportPath)
		}
	}
	require.NotEmpty(t, claims, "no //gcassert directive in the module: the test tests nothing")
	reports := compilerReports(t, pkgs)
	held := 0
	for _, c := range claims {
		if err := c.check(reports[fmt.Sprintf("%s:%d", c.file, c.line)]); err != nil {
			t.Errorf("%s:%d: //gcassert:%s does not hold: %v", c.file, c.at, c.kind, err)
			continue
		}
		held++
	}
	t.Logf("%d of %d //gcassert claims in %d packages hold", held, len(claims), len(pkgs))
}

// check judges c by the compiler's reports about its line.
func (c claim) check(reports []string) error {
	count := func(substr ...string) int {
		n := 0
		for _, r := range reports {
			if slices.ContainsFunc(substr, func(s string) bool { return strings.Contains(r, s) }) {
				n++
			}
		}
		return n
	}
	switch {
	case c.kind == "inline" && c.fn != "":
		if count("can inline ") == 0 {
			return fmt.Errorf("the compiler cannot inline %s (go build -gcflags=-m=2 says why)", c.fn)
		}
	case c.kind == "inline":
		if c.calls == 0 {
			return fmt.Errorf("no call on line %d", c.line)
		}
		if n := count("inlining call to "); n < c.calls {
			return fmt.Errorf("%d of the %d calls on line %d inlined", n, c.calls, c.line)
		}
	case c.kind == "bce":
		if !c.indexes {
			return fmt.Errorf("line %d indexes nothing", c.line)
		}
		if n := count("Found IsInBounds", "Found IsSliceInBounds"); n > 0 {
			return fmt.Errorf("%d bounds checks left on line %d", n, c.line)
		}
	case c.kind == "noescape":
		if n := count("escapes to heap", "moved to heap"); n > 0 {
			return fmt.Errorf("%d values escape to the heap on line %d", n, c.line)
		}
	}
	return nil
}

// gcassertClaims returns the //gcassert directives of the Go file at
// path, named rel in the reports.
func gcassertClaims(rel, path string) ([]claim, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if !bytes.Contains(src, []byte("//gcassert:")) {
		return nil, nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	docs := map[*ast.CommentGroup]*ast.FuncDecl{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil {
			docs[fd.Doc] = fd
		}
	}
	lines := bytes.Split(src, []byte("\n"))
	var out []claim
	for _, g := range f.Comments {
		for _, cm := range g.List {
			kinds, ok := strings.CutPrefix(cm.Text, "//gcassert:")
			if !ok {
				continue
			}
			pos := fset.Position(cm.Pos())
			for _, kind := range strings.Split(strings.TrimSpace(kinds), ",") {
				c := claim{kind: kind, file: rel, at: pos.Line}
				if !gcassertKinds[kind] {
					return nil, fmt.Errorf("%s:%d: unknown directive //gcassert:%s", rel, pos.Line, kind)
				}
				if fd := docs[g]; fd != nil {
					if kind != "inline" {
						return nil, fmt.Errorf("%s:%d: //gcassert:%s on a function: only inline is", rel, pos.Line, kind)
					}
					c.fn, c.line = fd.Name.Name, fset.Position(fd.Name.Pos()).Line
					out = append(out, c)
					continue
				}
				c.line = pos.Line // after the code on its line
				if len(bytes.TrimSpace(lines[pos.Line-1][:pos.Column-1])) == 0 {
					c.line = pos.Line + 1 // alone on its line: about the next
				}
				c.calls, c.indexes = lineCode(fset, f, c.line)
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// notCalls are the predeclared names a call expression may name that the
// compiler does not call: built-in functions and conversions.
var notCalls = map[string]bool{"len": true, "cap": true, "append": true, "copy": true, "make": true, "new": true,
	"min": true, "max": true, "clear": true, "delete": true, "panic": true, "print": true, "println": true,
	"string": true, "byte": true, "rune": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"float32": true, "float64": true, "bool": true}

// lineCode returns the calls on line (built-ins and conversions to
// predeclared types left out) and whether it indexes or slices.
func lineCode(fset *token.FileSet, f *ast.File, line int) (calls int, indexes bool) {
	on := func(p token.Pos) bool { return fset.Position(p).Line == line }
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); on(n.Lparen) && (!ok || !notCalls[id.Name]) {
				calls++
			}
		case *ast.IndexExpr:
			indexes = indexes || on(n.Lbrack)
		case *ast.SliceExpr:
			indexes = indexes || on(n.Lbrack)
		}
		return true
	})
	return calls, indexes
}

// compilerReports builds pkgs with the compiler's inlining, escape and
// bounds-check reports and returns them by "file:line" (the file
// relative to the module's root).
func compilerReports(t *testing.T, pkgs []string) map[string][]string {
	cmd := exec.Command("go", append([]string{"build", "-gcflags=-m -d=ssa/check_bce/debug=1"}, pkgs...)...)
	cmd.Dir = root(t)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build -gcflags='-m -d=ssa/check_bce/debug=1': %s", out)
	reports := map[string][]string{}
	report := regexp.MustCompile(`^(?:\./)?([^\s:]+\.go):(\d+):\d+: (.*)$`)
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if m := report.FindStringSubmatch(sc.Text()); m != nil {
			line, _ := strconv.Atoi(m[2])
			key := fmt.Sprintf("%s:%d", m[1], line)
			reports[key] = append(reports[key], m[3])
		}
	}
	require.NoError(t, sc.Err())
	return reports
}
