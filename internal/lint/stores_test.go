package lint

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// checkedStores are the packages whose tests make storage tables and DBs
// through one helper file each, which checks every store when its test
// ends (bbolt's btesting: MustCreateDB registers the database's
// consistency check on cleanup): the package, the helper file, and how
// its tests name storage's package ("" inside storage itself).
var checkedStores = []struct{ dir, helper, qual string }{
	{"internal/storage", "stores_test.go", ""},
	{"internal/vector", "tables_test.go", "storage"},
}

// storeMakers are storage's constructors of stores.
var storeMakers = map[string]bool{"NewTable": true, "NewDB": true}

// handChecks are storage's invariant checks under a lock, which its tests
// reach through Table.Check (the helper's cleanup, or check for a test
// that checks in the middle too), never one by one.
var handChecks = map[string]bool{"checkLocked": true, "checkIndexesLocked": true, "checkCollectionsLocked": true,
	"checkVectorIndexesLocked": true, "checkSlabLocked": true}

// TestStoresCheckedAtEnd: in the packages of checkedStores, only the
// helper file calls storage.NewTable or NewDB, and it registers a cleanup
// that runs Check; no test calls the locked checks by hand.
func TestStoresCheckedAtEnd(t *testing.T) {
	r := root(t)
	for _, c := range checkedStores {
		files, err := filepath.Glob(filepath.Join(r, c.dir, "*_test.go"))
		require.NoError(t, err)
		require.NotEmpty(t, files, c.dir)
		helperSeen := false
		for _, path := range files {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			fs := token.NewFileSet()
			f, err := parser.ParseFile(fs, path, src, 0)
			require.NoError(t, err)
			name := filepath.Base(path)
			isHelper := name == c.helper
			var cleanup, check bool
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				var fn, qual string
				switch f := call.Fun.(type) {
				case *ast.Ident:
					fn = f.Name
				case *ast.SelectorExpr:
					fn = f.Sel.Name
					if id, ok := f.X.(*ast.Ident); ok {
						qual = id.Name
					}
				}
				switch {
				case storeMakers[fn] && qual == c.qual && !isHelper:
					t.Errorf("%s: %s calls %s: make the test's stores with the helpers of %s, which check them when the test ends",
						fs.Position(call.Pos()), filepath.Join(c.dir, name), fn, c.helper)
				case handChecks[fn] && c.qual == "":
					t.Errorf("%s: %s calls %s by hand: the stores are checked when the test ends; a test that checks in the middle calls check",
						fs.Position(call.Pos()), filepath.Join(c.dir, name), fn)
				case fn == "Cleanup":
					cleanup = true
				case fn == "Check":
					check = true
				}
				return true
			})
			if isHelper {
				helperSeen = true
				require.True(t, cleanup && check, "%s/%s registers no cleanup that runs Check", c.dir, c.helper)
			}
		}
		require.True(t, helperSeen, "%s has no %s", c.dir, c.helper)
	}
}
