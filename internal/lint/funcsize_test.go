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

// funcExempt are the functions over the bounds that other work is
// splitting, each with its figures today (lines, cyclomatic): only
// functions of the service core and of apiserve, and the list only
// shrinks. A figure that grows fails the test as an offender would.
var funcExempt = map[string][2]int{}

// funcPending are the functions over the bounds outside the core and
// apiserve not yet split, each with its figures today: the list only
// shrinks, and a figure that grows fails the test.
var funcPending = map[string][2]int{
	"cmd/internal/mcp.(*Server).adminTools":   {115, 12},
	"cmd/internal/mcp.(*Server).insightTools": {138, 21},
	"cmd/internal/mcp.(*Server).usesOf":       {170, 44},
	"cmd/internal/mcp.(*idFinder).step":       {70, 43},
	"cmd/internal/mcp.valueAt":                {94, 32},
}

// TestFunctionSize: no non-test function of the module is over
// maxFuncLines lines or has a cyclomatic complexity of maxCyclomatic or
// more, but those listed, at most at their figures.
func TestFunctionSize(t *testing.T) {
	dir := root(t)
	out, err := exec.Command("git", "-C", dir, "ls-files", "*.go").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	fset := token.NewFileSet()
	seen := map[string]bool{}
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
			seen[key] = true
			limit, ok := funcExempt[key]
			if !ok {
				limit, ok = funcPending[key]
			}
			if ok && lines <= max(limit[0], maxFuncLines) && cc <= max(limit[1], maxCyclomatic-1) {
				continue
			}
			over = append(over, fmt.Sprintf("%s: %d lines, cyclomatic %d", key, lines, cc))
		}
	}
	slices.Sort(over)
	for _, o := range over {
		t.Errorf("%s: over %d lines or cyclomatic %d; split it by what its parts do", o, maxFuncLines, maxCyclomatic)
	}
	for key := range funcExempt {
		if !strings.HasPrefix(key, "emulator/internal/service.") && !strings.HasPrefix(key, "emulator/internal/apiserve.") {
			t.Errorf("%s is exempt but outside the core and apiserve", key)
		}
	}
	for _, list := range []map[string][2]int{funcExempt, funcPending} {
		for key := range list {
			if !seen[key] {
				t.Errorf("%s is listed but within the bounds now (or gone): take it off the list", key)
			}
		}
	}
}

// boundedName is a function's name as the lists write it: Name, or
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
