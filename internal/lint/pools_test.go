package lint

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// poolsAllowed are the directories whose code may use sync.Pool itself:
// internal/lease, which every other pool goes through (so that a use
// after release is caught under the race detector), and the HTTP
// experiment, whose adaptor's pool is part of what it measures.
var poolsAllowed = []string{"internal/lease", "emulator/internal/benchmarks/httpexp"}

// TestPoolsThroughLease: no code outside poolsAllowed names sync.Pool; a
// new pool is a lease.Pool, with its figures (pool on and off) in its
// comment.
func TestPoolsThroughLease(t *testing.T) {
	dir := root(t)
	var bad []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.IsDir() {
			name := d.Name()
			if path != dir && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor" || name == "node_modules") {
				return filepath.SkipDir
			}
			for _, a := range poolsAllowed {
				if filepath.ToSlash(rel) == a {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectorExpr); ok && s.Sel.Name == "Pool" {
				if x, ok := s.X.(*ast.Ident); ok && x.Name == "sync" {
					bad = append(bad, filepath.ToSlash(rel))
					return false
				}
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
	require.Empty(t, bad, "sync.Pool outside internal/lease: make it a lease.Pool")
}
