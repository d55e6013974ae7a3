package lint

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// maxMutualPairs bounds how tangled a package's files are: a pair of
// files is mutual when each uses a name the other declares, and the
// bound is on such pairs per non-test file. A package whose files all
// lean on each other reads as one file cut in pieces; one of subjects
// reads a file at a time. Names are counted as the architecture review
// of 2026-11-27 counts them (see mutualPairs): a use is any identifier
// with a declared name, a field or a local of the same name included,
// since a reader meets the name before knowing what it resolves to.
// Counted so, the request codec held 1.27 with the list cuts (33 pairs
// in 26 files) and 1.28 with one decoder (32 in 25); with its files
// given one subject each (the plans apart from the reading, attribute
// values, the appenders and the legacy conditions each in one file, Ion
// in a package of its own, names that met every local err or key
// renamed), 0.52 (11 in 21), and 0.55 (12 in 22) with SearchVectors'
// strict checks read in the one pass (wire_strict.go). Uses the type
// checker resolves gave 0.72 and 0.43. The core held 1.65 (122 pairs in
// 74 files) with its handlers keeping the pipeline's order by hand; with
// the data plane's uses in managed scopes (pipeline_item.go) and the
// helpers they share in the files that own them, 1.54 (114 in 74).
// With the call and its pool in call.go and the core's operation list in
// ops.go (register.go is the adapter alone), each namespace helper in
// namespace.go (Service.Namespace, persisted, failingHook, closed), a
// table's status and clock beside tableMeta, the echo's bound beside the
// echoes and TransactGetItems' appender beside the others, and the names
// that met every local renamed (opHandler.giveBack, table.readClock; the
// call's Now and Context gone for its fields), 1.17 (88 in 75);
// service.go and catalog.go paired with 13 files each, many through
// names every file meets (New, Service, Config, Load, Store, table).
// With the namespaces, their table lists and a table's definition and
// record in package emulator/internal/catalog, the request's way in
// (serve.go) and Config (config.go) apart from the Service, and a
// namespace's table operations (catalog_tables.go) and the lookups by
// TableName (table_lookup.go) apart from the table, 1.00 (78 in 78):
// service.go and catalog.go pair with 4 files each.
var maxMutualPairs = map[string]float64{
	"emulator/internal/wire":    0.8,
	"emulator/internal/service": 1.2,
}

// TestMutualFilePairs: the packages of maxMutualPairs stay under their
// bound (see mutualPairs for the count).
func TestMutualFilePairs(t *testing.T) {
	for dir, most := range maxMutualPairs {
		pairs, files := mutualPairs(t, filepath.Join(root(t), dir))
		per := float64(len(pairs)) / float64(files)
		t.Logf("%s: %d mutual pairs in %d files: %.2f per file", dir, len(pairs), files, per)
		require.Less(t, per, most, "%s: %d mutual pairs of files in %d files (%.2f per file, at most %.2f):\n%s",
			dir, len(pairs), files, per, most, strings.Join(pairs, "\n"))
	}
}

// mutualPairs parses the non-test files of the package in dir and maps
// each name to the files that declare it: every top-level declaration
// (a function, a type, a variable or a constant), and every method whose
// name only one file declares. A file uses another when an identifier of
// it has a name the other declares. It returns the mutual pairs of files
// ("a.go b.go: names a.go uses / names b.go uses") and the number of
// files.
func mutualPairs(t *testing.T, dir string) ([]string, int) {
	t.Helper()
	fset := token.NewFileSet()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	files := map[string]*ast.File{}
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		files[filepath.Base(path)] = f
	}
	declared := map[string]map[string]bool{} // name -> files declaring it
	methods := map[string]map[string]bool{}  // method name -> files declaring it
	add := func(to map[string]map[string]bool, name, file string) {
		if name == "_" || name == "init" {
			return
		}
		if to[name] == nil {
			to[name] = map[string]bool{}
		}
		to[name][file] = true
	}
	for file, f := range files {
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Recv != nil {
					add(methods, decl.Name.Name, file)
				} else {
					add(declared, decl.Name.Name, file)
				}
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						add(declared, spec.Name.Name, file)
					case *ast.ValueSpec:
						for _, name := range spec.Names {
							add(declared, name.Name, file)
						}
					}
				}
			}
		}
	}
	for name, in := range methods {
		if len(in) == 1 {
			for file := range in {
				add(declared, name, file)
			}
		}
	}
	uses := map[string]map[string][]string{} // file -> file it uses -> names
	for from, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			for to := range declared[id.Name] {
				if to == from {
					continue
				}
				if uses[from] == nil {
					uses[from] = map[string][]string{}
				}
				if !slices.Contains(uses[from][to], id.Name) {
					uses[from][to] = append(uses[from][to], id.Name)
				}
			}
			return true
		})
	}
	var pairs []string
	for a, tos := range uses {
		for b, names := range tos {
			if back := uses[b][a]; a < b && back != nil {
				sort.Strings(names)
				sort.Strings(back)
				pairs = append(pairs, fmt.Sprintf("%s %s: %s / %s", a, b,
					strings.Join(names, " "), strings.Join(back, " ")))
			}
		}
	}
	sort.Strings(pairs)
	return pairs, len(files)
}
