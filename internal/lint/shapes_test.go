package lint

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The API's shapes are declared once: a request, response or nested
// shape of DynamoDB's model (and the Streams API's) has one Go type in
// the module, which every package that reads or writes it imports.
//
// A shape of the model is a structure of the AWS SDK's service packages
// (aws-sdk-go-v2 service/dynamodb and service/dynamodbstreams, read as
// source from the module cache: their types.go and api_op_*.go), with
// its members. A struct of ours (named, or a struct type written inline
// as a field's type) stands for the shape of its name when it takes no
// member the shape lacks; else for the one shape that holds all of its
// members with the fewest members, when it has two members or more and
// that shape is the only such one. Its members are its fields' JSON
// names (a json tag's name, else the field's name; "-" left out), an
// embedded struct's members promoted.
//
// A struct written inside a function does not count: it is a reader's
// pick of the few members of an answer it reads (a client polling
// DescribeTable for TableStatus), not a declaration of the shape.
//
// Only packages that speak JSON count: those with a non-test file that
// imports encoding/json or the emulator's codec, or has a json tag. The
// others' structs (expressions' and PartiQL's ASTs, storage's keys) are
// not wire shapes even where their field names match one. A struct that
// embeds another package's struct declares only its own fields: the
// embedded members are that struct's (RestoreTableFromBackupInput
// embeds service.RestoreOverrides).

// TestShapesDeclaredOnce: no shape of the model is declared by two Go
// types of ours.
func TestShapesDeclaredOnce(t *testing.T) {
	model := sdkShapes(t)
	decls := ourStructs(t, root(t))
	byShape := map[string][]shapeDecl{}
	for _, d := range decls {
		if s := d.shapeOf(model); s != "" {
			byShape[s] = append(byShape[s], d)
		}
	}
	// The test sees the shapes: the control plane's, the data plane's and
	// the shared ones, where they are declared.
	require.Greater(t, len(byShape), 150, "shapes found")
	for shape, in := range map[string]string{"KeySchemaElement": "internal/shapes", "CreateTableInput": "internal/shapes",
		"TableDescription": "internal/shapes", "QueryInput": "emulator/internal/service", "StreamDescription": "emulator/internal/streamsapi"} {
		require.True(t, slices.ContainsFunc(byShape[shape], func(d shapeDecl) bool { return d.pkg == in }), "%s in %s: %v", shape, in, byShape[shape])
	}
	dups, count := duplicateShapes(byShape)
	t.Logf("%d shapes of the model declared; %d extra declarations", len(byShape), count)
	require.Empty(t, dups, "shapes of the model declared by more than one Go type: declare each once (internal/shapes) and import it")
	require.Zero(t, count)
}

// TestShapesDuplicateCaught: the count finds a shape declared again,
// by its name or by its members alone, and leaves out a reader's pick
// written inside a function and a struct that embeds the shape.
func TestShapesDuplicateCaught(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a/a.go": "package a\n\ntype TimeToLiveDescription struct {\n\tTimeToLiveStatus string `json:\"TimeToLiveStatus\"`\n\tAttributeName string `json:\"AttributeName,omitempty\"`\n}\n",
		"b/b.go": "package b\n\nimport \"encoding/json\"\n\nvar _ = json.Marshal\n\ntype ttlRead struct{ AttributeName, TimeToLiveStatus string }\n",
		"c/c.go": "package c\n\nimport (\n\t\"encoding/json\"\n\n\t\"example/a\"\n)\n\ntype wrapped struct {\n\ta.TimeToLiveDescription\n\tseen bool\n}\n\n" +
			"func read(b []byte) string {\n\tvar out struct{ TimeToLiveStatus, AttributeName string }\n\t_ = json.Unmarshal(b, &out)\n\treturn out.TimeToLiveStatus\n}\n",
	}
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
	}
	model := sdkShapes(t)
	byShape := map[string][]shapeDecl{}
	for _, d := range ourStructs(t, dir) {
		if s := d.shapeOf(model); s != "" {
			byShape[s] = append(byShape[s], d)
		}
	}
	dups, count := duplicateShapes(byShape)
	require.Equal(t, []string{"TimeToLiveDescription (2): a/a.go:3 TimeToLiveDescription, b/b.go:7 ttlRead"}, dups)
	require.Equal(t, 1, count)
}

// duplicateShapes are the shapes declared more than once, each with
// where, and the count of declarations past each shape's first.
func duplicateShapes(byShape map[string][]shapeDecl) (dups []string, count int) {
	for s, ds := range byShape {
		if len(ds) < 2 {
			continue
		}
		count += len(ds) - 1
		var places []string
		for _, d := range ds {
			places = append(places, d.place)
		}
		sort.Strings(places)
		dups = append(dups, fmt.Sprintf("%s (%d): %s", s, len(places), strings.Join(places, ", ")))
	}
	sort.Strings(dups)
	return dups, count
}

// shapeDecl is a struct type of ours: where it is, its name (its field's
// name for an inline struct: inline true) and its JSON members.
type shapeDecl struct {
	pkg     string // its package's directory in the module
	place   string
	name    string
	inline  bool
	members []string
	// untagged are the places of its exported fields whose json tag
	// does not name their member (none, or ",omitempty").
	untagged []string
}

// shapeOf is the model's shape d stands for ("" none).
func (d shapeDecl) shapeOf(model map[string][]string) string {
	if len(d.members) == 0 {
		return ""
	}
	if ms, ok := model[d.name]; ok && !d.inline && subset(d.members, ms) {
		return d.name
	}
	if len(d.members) < 2 {
		return ""
	}
	best, n, ties := "", 0, 0
	for s, ms := range model {
		if !subset(d.members, ms) {
			continue
		}
		switch {
		case best == "" || len(ms) < n:
			best, n, ties = s, len(ms), 0
		case len(ms) == n:
			ties++
		}
	}
	if ties > 0 {
		return ""
	}
	return best
}

func subset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// sdkShapes reads the structures of the SDK's DynamoDB and Streams
// models, by name, with their members (sorted).
func sdkShapes(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}",
		"github.com/aws/aws-sdk-go-v2/service/dynamodb", "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams")
	cmd.Dir = root(t)
	out, err := cmd.Output()
	require.NoError(t, err, "go list -m the SDK's services")
	model := map[string][]string{}
	for _, dir := range strings.Fields(string(out)) {
		files, err := filepath.Glob(filepath.Join(dir, "api_op_*.go"))
		require.NoError(t, err)
		files = append(files, filepath.Join(dir, "types", "types.go"))
		{
			for _, d := range parseStructs(t, dir, files) {
				if !ast.IsExported(d.name) || d.inline {
					continue
				}
				ms := slices.DeleteFunc(d.members, func(m string) bool { return m == "ResultMetadata" })
				if prev, ok := model[d.name]; ok && !slices.Equal(prev, ms) {
					ms = slices.Compact(slices.Sorted(slices.Values(append(ms, prev...))))
				}
				model[d.name] = ms
			}
		}
		require.NotEmpty(t, model, "no shapes in %s", dir)
	}
	require.Contains(t, model, "KeySchemaElement")
	require.Contains(t, model, "StreamRecord")
	return model
}

// ourStructs are the struct types of the module's non-test Go in the
// packages that speak JSON.
func ourStructs(t *testing.T, r string) []shapeDecl {
	t.Helper()
	byDir := map[string][]string{}
	require.NoError(t, filepath.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			byDir[filepath.Dir(p)] = append(byDir[filepath.Dir(p)], p)
		}
		return nil
	}))
	var out []shapeDecl
	for _, files := range byDir {
		if !speaksJSON(t, files) {
			continue
		}
		out = append(out, parseStructs(t, r, files)...)
	}
	return out
}

// speaksJSON reports whether a non-test file of the package imports
// encoding/json or the emulator's codec, or has a json tag.
func speaksJSON(t *testing.T, files []string) bool {
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		if strings.Contains(string(src), "`json:") {
			return true
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly)
		require.NoError(t, err)
		for _, im := range af.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if p == "encoding/json" || p == module+"/emulator/internal/wire" {
				return true
			}
		}
	}
	return false
}

// parseStructs are the struct types one package's files declare, named
// or inline, with their members, placed relative to dir; an embedded
// struct of the package is promoted, another is kept as "^Name" (no
// shape has such a member).
func parseStructs(t *testing.T, dir string, files []string) []shapeDecl {
	fset := token.NewFileSet()
	named := map[string]*ast.StructType{}
	var afs []*ast.File
	for _, f := range files {
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		afs = append(afs, af)
		for _, decl := range af.Decls {
			if gd, ok := decl.(*ast.GenDecl); ok {
				for _, s := range gd.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						if st, ok := ts.Type.(*ast.StructType); ok {
							named[ts.Name.Name] = st
						}
					}
				}
			}
		}
	}
	var out []shapeDecl
	add := func(name string, inline bool, st *ast.StructType) {
		ms := structMembersAST(st, named, map[string]bool{name: true})
		var untagged []string
		for _, f := range st.Fields.List {
			if len(f.Names) == 0 || !f.Names[0].IsExported() {
				continue
			}
			tag := ""
			if f.Tag != nil {
				t, _ := strconv.Unquote(f.Tag.Value)
				tag = reflect.StructTag(t).Get("json")
			}
			if n, _, _ := strings.Cut(tag, ","); n == "" {
				p := fset.Position(f.Pos())
				r, _ := filepath.Rel(dir, p.Filename)
				untagged = append(untagged, fmt.Sprintf("%s:%d", filepath.ToSlash(r), p.Line))
			}
		}
		sort.Strings(ms)
		pos := fset.Position(st.Pos())
		rel, err := filepath.Rel(dir, pos.Filename)
		require.NoError(t, err)
		out = append(out, shapeDecl{pkg: filepath.ToSlash(filepath.Dir(rel)), place: fmt.Sprintf("%s:%d %s", filepath.ToSlash(rel), pos.Line, name), name: name, inline: inline, members: slices.Compact(ms), untagged: untagged})
	}
	for _, af := range afs {
		ast.Inspect(af, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl, *ast.FuncLit:
				return false // a reader's pick of an answer's members, not a shape's declaration
			case *ast.TypeSpec:
				if st, ok := n.Type.(*ast.StructType); ok {
					add(n.Name.Name, false, st)
				}
			case *ast.Field:
				if st, ok := inlineStruct(n.Type); ok && len(n.Names) > 0 {
					add(n.Names[0].Name, true, st)
				}
			}
			return true
		})
	}
	return out
}

// inlineStruct is the struct type written as e (through pointers,
// slices and maps).
func inlineStruct(e ast.Expr) (*ast.StructType, bool) {
	for {
		switch x := e.(type) {
		case *ast.StructType:
			return x, true
		case *ast.StarExpr:
			e = x.X
		case *ast.ArrayType:
			e = x.Elt
		case *ast.MapType:
			e = x.Value
		default:
			return nil, false
		}
	}
}

// structMembersAST are st's JSON members.
func structMembersAST(st *ast.StructType, named map[string]*ast.StructType, seen map[string]bool) []string {
	var ms []string
	for _, f := range st.Fields.List {
		tag := ""
		if f.Tag != nil {
			s, _ := strconv.Unquote(f.Tag.Value)
			tag = reflect.StructTag(s).Get("json")
		}
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if len(f.Names) == 0 { // embedded
			typ := f.Type
			if s, ok := typ.(*ast.StarExpr); ok {
				typ = s.X
			}
			switch x := typ.(type) {
			case *ast.Ident:
				if e, ok := named[x.Name]; ok && name == "" && !seen[x.Name] {
					seen[x.Name] = true
					ms = append(ms, structMembersAST(e, named, seen)...)
					continue
				}
				if name == "" && ast.IsExported(x.Name) {
					ms = append(ms, "^"+x.Name)
				}
			case *ast.SelectorExpr:
				if name == "" {
					ms = append(ms, "^"+x.Sel.Name)
				}
			}
			if name != "" {
				ms = append(ms, name)
			}
			continue
		}
		for _, n := range f.Names {
			switch {
			case name != "":
				ms = append(ms, name)
			case n.IsExported():
				ms = append(ms, n.Name)
			}
		}
	}
	return ms
}

// TestShapesOneTagStyle: every exported field of a struct that stands
// for a shape of the model has a json tag that names its member, so a
// member's name is written once, where it is declared, in one style.
func TestShapesOneTagStyle(t *testing.T) {
	model := sdkShapes(t)
	var bad []string
	for _, d := range ourStructs(t, root(t)) {
		if d.shapeOf(model) != "" {
			bad = append(bad, d.untagged...)
		}
	}
	sort.Strings(bad)
	require.Empty(t, bad, "fields of shapes without a json tag naming their member")
}
