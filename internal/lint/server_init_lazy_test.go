package lint

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// initAllowed are the package-level variables of the server's packages
// that TestServerInitLazy lets build a map at start-up, each with why it
// cannot wait: what the first request (or every request) reads.
var initAllowed = map[string]string{
	"internal/expr.conditionKeywords": "the scanner's keywords of conditions, read for every identifier of every expression",
	"internal/expr.updateKeywords":    "the scanner's keywords of update expressions, read for every identifier",
}

// initHeavyCalls are the calls whose work TestServerInitLazy keeps out of
// package-level variables: compiled patterns and computed tables.
var initHeavyCalls = []string{"regexp.MustCompile", "regexp.Compile", "crc32.MakeTable", "strings.NewReplacer", "template.Must"}

// TestServerInitLazy: the packages of ours that the server links build no
// map and compile no pattern in package-level variables, except those of
// initAllowed. Every start of the server pays for its packages'
// initialisation before it answers anything (start-up time); a table
// only some requests read is built at its first use (sync.OnceValue) or
// is a switch. TestServerWithoutHeavyInit keeps whole packages out.
func TestServerInitLazy(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-json=ImportPath,Dir,GoFiles", "./cmd/dynamoemu")
	cmd.Dir = root(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./cmd/dynamoemu: %v", err)
	}
	var seen []string
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p struct {
			ImportPath, Dir string
			GoFiles         []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		rel, ok := strings.CutPrefix(p.ImportPath, module+"/")
		if !ok {
			continue
		}
		fset := token.NewFileSet()
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range initWork(f) {
				key := rel + "." + v.name
				seen = append(seen, key)
				if _, ok := initAllowed[key]; !ok {
					t.Errorf("%s: package-level %s %s at every start of the server: build it at its first use (sync.OnceValue) or make it a switch, or list it in initAllowed with the reason the first request needs it",
						fset.Position(v.pos), key, v.what)
				}
			}
		}
	}
	for key := range initAllowed {
		if !slices.Contains(seen, key) {
			t.Errorf("initAllowed lists %s, which no longer builds anything at start-up: remove it", key)
		}
	}
}

// initVar is a package-level variable whose initialiser does work at start.
type initVar struct {
	name, what string
	pos        token.Pos
}

// initWork lists the package-level variables of f whose initialiser
// builds a map (a map literal or make of a map) or calls one of
// initHeavyCalls, outside function literals (a sync.OnceValue's function
// runs at first use).
func initWork(f *ast.File) []initVar {
	var out []initVar
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, val := range vs.Values {
				name := "_"
				if i < len(vs.Names) {
					name = vs.Names[i].Name
				}
				ast.Inspect(val, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.FuncLit:
						return false
					case *ast.CompositeLit:
						if _, ok := n.Type.(*ast.MapType); ok {
							out = append(out, initVar{name, "builds a map literal", n.Pos()})
							return false
						}
					case *ast.CallExpr:
						if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "make" && len(n.Args) > 0 {
							if _, ok := n.Args[0].(*ast.MapType); ok {
								out = append(out, initVar{name, "makes a map", n.Pos()})
								return false
							}
						}
						if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
							if x, ok := sel.X.(*ast.Ident); ok && slices.Contains(initHeavyCalls, x.Name+"."+sel.Sel.Name) {
								out = append(out, initVar{name, "calls " + x.Name + "." + sel.Sel.Name, n.Pos()})
								return false
							}
						}
					}
					return true
				})
			}
		}
	}
	return out
}

// TestInitWork: what initWork counts as work at start-up.
func TestInitWork(t *testing.T) {
	tests := []struct {
		src  string
		want []string // names flagged
	}{
		{`var m = map[string]int{"a": 1}`, []string{"m"}},
		{`var m = make(map[string]int, 8)`, []string{"m"}},
		{`var re = regexp.MustCompile("a+")`, []string{"re"}},
		{`var (a = 1; b = map[int]bool{}; c = "x")`, []string{"b"}},
		{`var s = []string{"a", "b"}`, nil},
		{`var m = sync.OnceValue(func() map[string]int { return map[string]int{"a": 1} })`, nil},
		{`var e = errors.New("x")`, nil},
		{`func f() { m := map[string]int{}; _ = m }`, nil},
	}
	for _, tt := range tests {
		f, err := parser.ParseFile(token.NewFileSet(), "x.go", "package p\n"+tt.src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		var got []string
		for _, v := range initWork(f) {
			got = append(got, v.name)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.src, got, tt.want)
		}
	}
}
