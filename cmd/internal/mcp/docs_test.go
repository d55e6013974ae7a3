package mcp

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDocsListEveryTool: docs/mcp.md names every tool the server has, so
// that the page stays the list of tools.
func TestDocsListEveryTool(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/mcp.md")
	require.NoError(t, err)
	s := &Server{}
	for _, tl := range s.allTools() {
		require.Contains(t, string(doc), "`"+tl.name+"`", "docs/mcp.md does not name the tool %s", tl.name)
	}
}
