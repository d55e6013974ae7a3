package mcp

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// maxDefaultToolList bounds the default tool list, as tools/list answers
// it: it goes into every conversation of an agent.
const maxDefaultToolList = 15 << 10

// TestDefaultToolListSize: the default tool list (the core group) is
// under 15 KB of JSON, and every group adds its tools.
func TestDefaultToolListSize(t *testing.T) {
	f := newFixture(t, "memory", Options{Tools: []string{}})
	res, err := f.session.ListTools(testCtx(t), nil)
	require.NoError(t, err)
	b, err := json.Marshal(res)
	require.NoError(t, err)
	t.Logf("default tool list: %d tools, %d bytes", len(res.Tools), len(b))
	require.Less(t, len(b), maxDefaultToolList, "the default tool list grew past 15 KB")
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	require.ElementsMatch(t, toolGroups[0].tools, names)

	all := newFixture(t, "memory", Options{})
	require.Len(t, all.toolNames(), len(all.srv.allTools()), "all lists every tool")
	some := newFixture(t, "memory", Options{Tools: []string{"batch", "partiql"}})
	require.ElementsMatch(t, append(append(append([]string{}, toolGroups[0].tools...), toolGroups[2].tools...), toolGroups[3].tools...), some.toolNames())
}

// TestToolGroups: every tool is in one group; an unknown group is an
// error naming the nearest.
func TestToolGroups(t *testing.T) {
	s := &Server{}
	seen := map[string]string{}
	for _, g := range toolGroups {
		for _, name := range g.tools {
			require.Empty(t, seen[name], "%s is in groups %s and %s", name, seen[name], g.name)
			seen[name] = g.name
		}
	}
	for _, tl := range s.allTools() {
		require.NotEmpty(t, seen[tl.name], "%s is in no group", tl.name)
	}
	require.Len(t, seen, len(s.allTools()), "a group lists a tool that is not there")
	require.ErrorContains(t, Options{Tools: []string{"partqil"}}.Validate(), `no tool group "partqil": did you mean "partiql"?`)
}

// TestInstructions: the handshake's instructions name the groups listed
// and those not, and sum up a design set at start.
func TestInstructions(t *testing.T) {
	f := newFixture(t, "memory", Options{Tools: []string{}})
	got := f.session.InitializeResult().Instructions
	require.Contains(t, got, "Tool groups listed: core")
	require.Contains(t, got, "Not listed")
	require.NotContains(t, got, "The design (")

	require.NoError(t, f.emu.SetDesign([]byte(postsDesign)))
	srv, err := New(f.emu, Options{})
	require.NoError(t, err)
	got = srv.instructions()
	require.Contains(t, got, "- table Posts, key pk, sk; index byUser (userId); entities Post")
	require.Contains(t, got, "- posts-by-user: query on byUser where pk = {user}")
}
