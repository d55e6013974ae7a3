package lint

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// shippedBuildFlags are the flags every build of the shipped server
// carries (docs/containers.md, "Size"): no build paths, no symbol table
// or DWARF, net/http without its HTTP/2 code, and the compiler flags of
// coldGCFlags.
var shippedBuildFlags = []string{"-tags nethttpomithttp2", "-trimpath", `-s -w`, `$(sed '/^#/d' ` + coldGCFlags + ")"}

// coldGCFlags lists, one -gcflags=pattern=flags a line, the packages the
// shipped builds compile without inlining.
const coldGCFlags = "cmd/dynamoemu/cold.gcflags"

// TestShippedBuildFlags: the image (Dockerfile), the npm platform
// packages (npm/build.sh) and the release (.ci/release) build
// ./cmd/dynamoemu with the same size flags, so that one of them cannot
// grow back alone.
func TestShippedBuildFlags(t *testing.T) {
	r := root(t)
	// A go build command, with its continuation lines joined.
	build := regexp.MustCompile(`go build [^\n]*`)
	for _, f := range []string{"Dockerfile", "npm/build.sh", ".ci/release"} {
		b, err := os.ReadFile(filepath.Join(r, f))
		require.NoError(t, err)
		text := strings.ReplaceAll(string(b), "\\\n", " ")
		var found int
		for _, cmd := range build.FindAllString(text, -1) {
			if !strings.Contains(cmd, "./cmd/dynamoemu") || strings.Contains(cmd, "./cmd/dynamoemu-") {
				continue
			}
			found++
			for _, flag := range shippedBuildFlags {
				require.Contains(t, cmd, flag, "%s builds the server without %s: %s", f, flag, cmd)
			}
		}
		require.NotZero(t, found, "%s has no go build of ./cmd/dynamoemu", f)
	}
}

// hasGenericCode reports whether the package in dir declares a generic
// function or a method of a generic type: code each package that
// instantiates it compiles a copy of. A package of generic types alone
// (internal/shapes' request and answer shapes) has none, so importing
// it leaves no copy of the request path's code without inlining.
func hasGenericCode(t *testing.T, dir string) bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		for _, d := range parsed.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if fd.Type.TypeParams != nil {
				return true
			}
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				recv := fd.Recv.List[0].Type
				if star, ok := recv.(*ast.StarExpr); ok {
					recv = star.X
				}
				switch recv.(type) {
				case *ast.IndexExpr, *ast.IndexListExpr:
					return true
				}
			}
		}
	}
	return false
}

// TestColdGCFlags: each line of cold.gcflags is a comment or one
// -gcflags=pattern=flags with no space (the builds split the file on
// white space); each pattern naming one of this module's packages names
// a directory that exists, so that a moved package does not silently get
// the compiler's defaults back; and such a package compiled without
// inlining imports no other package of this module that declares a
// generic function or method (hasGenericCode). A generic function
// instantiated with the request path's types is compiled again in each
// package that uses it, and the linker keeps one copy: it must not be a
// copy without inlining (storage's B-tree was, when the command and the
// MCP tools were in the list).
func TestColdGCFlags(t *testing.T) {
	r := root(t)
	b, err := os.ReadFile(filepath.Join(r, coldGCFlags))
	require.NoError(t, err)
	line := regexp.MustCompile(`^-gcflags=([^\s=]+)=(-l)?$`)
	const module = "github.com/dynamoemu/dynamoemu"
	var n int
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if strings.HasPrefix(l, "#") {
			continue
		}
		m := line.FindStringSubmatch(l)
		require.NotNil(t, m, "%s: %q is not -gcflags=pattern= or -gcflags=pattern=-l", coldGCFlags, l)
		n++
		pkg, ok := strings.CutPrefix(m[1], module+"/")
		if !ok || strings.HasSuffix(pkg, "...") {
			continue
		}
		st, err := os.Stat(filepath.Join(r, pkg))
		require.NoError(t, err, "%s names %s", coldGCFlags, m[1])
		require.True(t, st.IsDir(), "%s names %s", coldGCFlags, m[1])
		if m[2] == "" {
			continue
		}
		files, err := filepath.Glob(filepath.Join(r, pkg, "*.go"))
		require.NoError(t, err)
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			require.NoError(t, err)
			for _, imp := range parsed.Imports {
				path := strings.Trim(imp.Path.Value, `"`)
				dep, ours := strings.CutPrefix(path, module+"/")
				require.False(t, ours && hasGenericCode(t, filepath.Join(r, dep)),
					"%s: %s imports %s: a package compiled without inlining may import none of this module's with a generic function or method (%s)", coldGCFlags, m[1], path, f)
			}
		}
	}
	require.NotZero(t, n, "%s has no flags", coldGCFlags)
	require.True(t, hasGenericCode(t, filepath.Join(r, "internal/storage")), "storage's generic functions are seen")
	require.False(t, hasGenericCode(t, filepath.Join(r, "internal/shapes")), "shapes declares generic types only")
}
