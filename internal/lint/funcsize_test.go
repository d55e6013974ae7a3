package lint

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The bounds of a non-test function: at most maxFuncLines lines, from
// its func keyword to its closing brace, and a cyclomatic complexity
// under maxCyclomatic, counted as gocyclo counts it (funcComplexity). A
// reader holds a function of that size; past it, split it by what its
// parts do.
const (
	maxFuncLines  = 100
	maxCyclomatic = 30
)

// TestFunctionSize: no non-test function of the module is over
// maxFuncLines lines or has a cyclomatic complexity of maxCyclomatic or
// more. There are no exceptions: the last lists of functions waiting to
// be split (the core's, apiserve's, then the MCP server's, the scanners'
// and six others) emptied on 2026-11-28 and went with them.
func TestFunctionSize(t *testing.T) {
	dir := root(t)
	out, err := exec.Command("git", "-C", dir, "ls-files", "*.go").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	fset := token.NewFileSet()
	var over []string
	for _, name := range strings.Fields(string(out)) {
		if strings.HasSuffix(name, "_test.go") || strings.Contains(name, "/testdata/") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		if ast.IsGenerated(f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
			cc := funcComplexity(fd)
			if lines <= maxFuncLines && cc < maxCyclomatic {
				continue
			}
			key := path.Dir(name) + "." + boundedName(fd)
			over = append(over, fmt.Sprintf("%s: %d lines, cyclomatic %d", key, lines, cc))
		}
	}
	slices.Sort(over)
	for _, o := range over {
		t.Errorf("%s: over %d lines or cyclomatic %d; split it by what its parts do", o, maxFuncLines, maxCyclomatic)
	}
}

// boundedName is a function's name as the test's errors write it: Name, or
// (T).Name and (*T).Name for a method.
func boundedName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	star := ""
	if s, ok := typ.(*ast.StarExpr); ok {
		star, typ = "*", s.X
	}
	switch x := typ.(type) {
	case *ast.IndexExpr:
		typ = x.X
	case *ast.IndexListExpr:
		typ = x.X
	}
	id, _ := typ.(*ast.Ident)
	if id == nil {
		return fd.Name.Name
	}
	return "(" + star + id.Name + ")." + fd.Name.Name
}

// funcComplexity is the cyclomatic complexity of fd as gocyclo counts
// it: 1, and 1 for each if, for, range, case but default, select case
// but default, && and ||, function literals inside included.
func funcComplexity(fd *ast.FuncDecl) int {
	n := 1
	ast.Inspect(fd, func(node ast.Node) bool {
		switch x := node.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			n++
		case *ast.CaseClause:
			if x.List != nil {
				n++
			}
		case *ast.CommClause:
			if x.Comm != nil {
				n++
			}
		case *ast.BinaryExpr:
			if x.Op == token.LAND || x.Op == token.LOR {
				n++
			}
		}
		return true
	})
	return n
}
