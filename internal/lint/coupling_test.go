package lint

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// maxMutualPairs bounds how tangled a package's files are: a pair of
// files is mutual when each uses a top-level declaration (a function, a
// method, a type, a variable or a constant) of the other, and the bound
// is on such pairs per non-test file. A package whose files all lean on
// each other reads as one file cut in pieces; one of subjects reads a
// file at a time. A use is an identifier the type checker resolves to
// the declaration, not one that merely has its name (a field or a local
// of the same name): counted so, the request codec held 0.73 with the
// list cuts (19 pairs in 26 files) and 0.72 with one decoder (18 in 25).
// Counted by names alone it held 1.31 and 1.48.
var maxMutualPairs = map[string]float64{
	"emulator/internal/wire": 0.8,
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

// mutualPairs type-checks the non-test files of the package in dir,
// maps each top-level declaration to its file, and returns the mutual
// pairs of files ("a.go b.go") and the number of files.
func mutualPairs(t *testing.T, dir string) ([]string, int) {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check(dir, fset, files, info)
	require.NoError(t, err)
	topLevel := func(obj types.Object) bool {
		if obj.Pkg() != pkg {
			return false
		}
		if f, ok := obj.(*types.Func); ok && f.Signature().Recv() != nil {
			return true // a method
		}
		return obj.Parent() == pkg.Scope()
	}
	uses := map[string]map[string]bool{} // file -> files it uses
	for id, obj := range info.Uses {
		if obj == nil || !topLevel(obj) {
			continue
		}
		from := filepath.Base(fset.Position(id.Pos()).Filename)
		to := filepath.Base(fset.Position(obj.Pos()).Filename)
		if from == to {
			continue
		}
		if uses[from] == nil {
			uses[from] = map[string]bool{}
		}
		uses[from][to] = true
	}
	var pairs []string
	for a, tos := range uses {
		for b := range tos {
			if a < b && uses[b][a] {
				pairs = append(pairs, fmt.Sprintf("%s %s", a, b))
			}
		}
	}
	sort.Strings(pairs)
	return pairs, len(files)
}
