package lint

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The module's floors, from the ground up (docs/architecture.md, "The
// layout"):
//
//   - internal/: the engine's libraries (storage, expr, partiql, persist,
//     number, vector, …), which know nothing built on them;
//   - conventions: the public conventions package, on storage;
//   - emulator/ (and its internal/): the engine, its features and its
//     public face;
//   - cmd/ and cmd/internal/: the applications built on them (the server,
//     the MCP server, the console, the conventions check, the image's
//     tools, the release's checks).
//
// Go's own rule keeps cmd/internal/ out of every package outside cmd/;
// TestFloors keeps internal/ from importing up.

// floorsUp are the imports from internal/ to a floor above it that
// stand, each with the reason; none does. The access-pattern report's
// types are the public package emulator/report's, so the recorder that
// fills them lives above internal/ (emulator/internal/accessreport), and
// the design side it reads (internal/insights) names none of them:
// Design.Live takes its own Learned.
var floorsUp = map[string]string{}

// TestFloors: no package of internal/ imports a package of emulator/,
// conventions or cmd/, but those listed in floorsUp; and no application
// package is left in internal/.
func TestFloors(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range goList(t, module+"/internal/...") {
		from := strings.TrimPrefix(p.ImportPath, module+"/")
		for _, imp := range p.Imports {
			to, ours := strings.CutPrefix(imp, module+"/")
			if !ours || strings.HasPrefix(to, "internal/") {
				continue
			}
			edge := from + " -> " + to
			if _, ok := floorsUp[edge]; ok {
				seen[edge] = true
				continue
			}
			t.Errorf("%s imports %s, a floor above internal/: move the shared piece down, or the importer up (cmd/internal/ holds the applications)", from, to)
		}
	}
	for edge := range floorsUp {
		require.True(t, seen[edge], "floorsUp lists %s, which no longer stands: take it off", edge)
	}
	for _, p := range goList(t, module+"/internal/...") {
		for _, app := range []string{"mcp", "console", "conventionscheck", "tools", "release"} {
			require.NotEqual(t, module+"/internal/"+app, p.ImportPath, "an application lives in cmd/internal/, not internal/")
		}
	}
}

// TestTestToolsSaySo: a package of internal/ that no package's code
// imports (only tests do, or none: a package of tests) is a tool for
// tests, not an engine library, and its package comment's first
// sentence says so, so that a reader of internal/ tells the floor's
// libraries from the tests' tools.
func TestTestToolsSaySo(t *testing.T) {
	imported := map[string]bool{}
	for _, p := range goList(t, "./...") {
		for _, imp := range p.Imports {
			imported[imp] = true
		}
	}
	tools := 0
	for _, p := range goList(t, module+"/internal/...") {
		if imported[p.ImportPath] {
			continue
		}
		tools++
		require.Contains(t, strings.ToLower(p.Doc), "test",
			"%s: only tests import it, so its package comment's first sentence says it is for tests", p.ImportPath)
	}
	require.NotZero(t, tools, "internal/ has test tools (avtest, doccheck, lint): the walk found none")
}
