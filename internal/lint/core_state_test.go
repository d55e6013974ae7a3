package lint

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// coreVars are the package-level variables the service core may declare
// beside its pools (a lease.NewPool: recycled zero values, which no
// request or service can tell apart) and its sentinel errors
// (errors.New), each with why it is no state: a table or a value built
// once from constants, read and never written. What a service keeps is
// on its Service, and what it is made of is its Config (its features,
// stages and settings), so that two services of one process share
// nothing and a test builds a core with exactly the parts it wants
// (pebble's Options, etcd's appliers built per server).
var coreVars = map[string]string{
	"valueExprsWrite":  "the expression parameters of PutItem and DeleteItem that may use :values: a lookup table",
	"valueExprsUpdate": "the expression parameters of UpdateItem that may use :values: a lookup table",
	"valueExprsQuery":  "the expression parameters of Query that may use :values: a lookup table",
	"valueExprsScan":   "the expression parameters of Scan that may use :values: a lookup table",
	"txParam":          "each transaction action's member name, for constraint paths: a lookup table",
	"valueLayers":      "the layer of AWS's validation each operation reports a bad value in: built once (sync.OnceValue) from constants",
	"deferredValueOps": "the operations that report a value's error after their other checks: built once (sync.OnceValue) from constants",
	"refusedUse":       "a marker compared by its address (a batch's item a stage refused), never read through",
	"transactWriteCut": "how the edge cuts TransactWriteItems' list as it arrives: numbers and functions, never changed",
	"transactGetCut":   "how the edge cuts TransactGetItems' list as it arrives: numbers and functions, never changed",
	"batchWriteCut":    "how the edge cuts BatchWriteItem's lists as they arrive: numbers and functions, never changed",
	"batchGetCut":      "how the edge cuts BatchGetItem's keys as they arrive: numbers and functions, never changed",
}

// TestCoreHoldsNoState: the service core's non-test files declare no
// package-level variable but pools, sentinel errors and those of
// coreVars; no file of the package, its tests included, writes one
// (assigns it, an element or a field of it, or increments it); and none
// has an init function: nothing registers itself, and nothing is set
// for the process rather than for a service.
func TestCoreHoldsNoState(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(root(t), corePkg, "*.go"))
	require.NoError(t, err)
	fset := token.NewFileSet()
	parsed := map[string]*ast.File{}
	declared := map[string]bool{} // the non-test files' package-level variables
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, 0)
		require.NoError(t, err)
		parsed[f] = file
		for _, d := range file.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == "init" {
				t.Errorf("%s: an init function in the core: what a service is made of goes in its Config", fset.Position(fn.Pos()))
			}
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR || strings.HasSuffix(f, "_test.go") {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					declared[n.Name] = true
					if _, ok := coreVars[n.Name]; ok || i < len(vs.Values) && poolOrError(vs.Values[i]) {
						continue
					}
					t.Errorf("%s: package-level variable %s: keep it on the Service (or in Config), or list it in coreVars with why it is no state",
						fset.Position(n.Pos()), n.Name)
				}
			}
		}
	}
	for name := range coreVars {
		require.Truef(t, declared[name], "coreVars lists %s, which the core no longer declares: remove it", name)
	}
	for f, file := range parsed {
		top := map[*ast.ValueSpec]bool{}
		for _, d := range file.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				for _, spec := range gd.Specs {
					top[spec.(*ast.ValueSpec)] = true
				}
			}
		}
		ast.Inspect(file, func(n ast.Node) bool {
			var targets []ast.Expr
			switch s := n.(type) {
			case *ast.AssignStmt:
				if s.Tok != token.DEFINE {
					targets = s.Lhs
				}
			case *ast.IncDecStmt:
				targets = []ast.Expr{s.X}
			}
			for _, e := range targets {
				if id := rootIdent(e); id != nil && declared[id.Name] && packageLevel(id, top) {
					t.Errorf("%s: %s writes the package-level variable %s", fset.Position(e.Pos()), filepath.Base(f), id.Name)
				}
			}
			return true
		})
	}
}

// poolOrError reports whether e, a variable's initializer, makes a pool
// (lease.NewPool) or a sentinel error (errors.New).
func poolOrError(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := call.Fun
	if ix, ok := fn.(*ast.IndexExpr); ok { // lease.NewPool[T]
		fn = ix.X
	}
	sel, ok := fn.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && (pkg.Name == "lease" && sel.Sel.Name == "NewPool" || pkg.Name == "errors" && sel.Sel.Name == "New")
}

// rootIdent is the variable an assignment's target writes: x of x, x[i],
// x.f, *x (nil: none).
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.IndexExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// packageLevel reports whether id names a package-level variable: one
// the parser did not resolve in its file (declared in another file of the
// package), or resolved to one of top, the file's top-level variable
// declarations (not a local that shadows one).
func packageLevel(id *ast.Ident, top map[*ast.ValueSpec]bool) bool {
	if id.Obj == nil {
		return true
	}
	vs, ok := id.Obj.Decl.(*ast.ValueSpec)
	return ok && top[vs]
}
