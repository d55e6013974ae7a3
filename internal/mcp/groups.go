package mcp

import (
	"fmt"
	"slices"
	"strings"
)

// Tool groups. Every tool's name, description and schema are sent to the
// agent's model in every conversation: the 47 tools cost about 47 KB. A
// server lists the core group by default (the tables, items and reads an
// agent needs first, and the design's verdicts) and the groups
// Options.Tools adds; a read-only server lists no tool it would refuse.

// DefaultToolGroup is the group a server always lists.
const DefaultToolGroup = "core"

// AllToolGroups, in Options.Tools, lists every group.
const AllToolGroups = "all"

// toolGroups are the groups, in the order the instructions list them,
// with their tools.
var toolGroups = []struct {
	name, what string
	tools      []string
}{
	{DefaultToolGroup, "tables, items, Query and Scan, and the design's verdicts",
		[]string{"list_tables", "describe_table", "create_table", "get_item", "put_item", "update_item", "delete_item",
			"query", "scan", "design_match", "explain"}},
	{"tables", "update and delete tables, TTL, tags",
		[]string{"update_table", "delete_table", "describe_ttl", "update_ttl", "sweep_ttl", "list_tags", "tag_resource", "untag_resource"}},
	{"batch", "batches and transactions",
		[]string{"batch_get_item", "batch_write_item", "transact_get_items", "transact_write_items"}},
	{"partiql", "PartiQL statements",
		[]string{"execute_statement", "batch_execute_statement", "execute_transaction"}},
	{"streams", "DynamoDB Streams and the stream handlers", []string{"list_streams", "describe_stream", "read_stream", "get_records", "stream_handlers", "stream_handlers_drain"}},
	{"design", "the design and the access-pattern report",
		[]string{"design_show", "design_set", "access_report", "access_findings", "report_control", "load_model"}},
	{"conventions", "the mbc-cqrs-serverless conventions report", []string{"conventions_report", "conventions_reset"}},
	{"snapshots", "take, list and restore snapshots (undo)", []string{"snapshot_create", "snapshot_list", "snapshot_restore", "snapshot_delete"}},
	{"faults", "fault injection and replication lag", []string{"faults_get", "faults_set", "faults_clear", "lag_list", "lag_set"}},
}

// ToolGroupNames lists the tool groups.
func ToolGroupNames() []string {
	var out []string
	for _, g := range toolGroups {
		out = append(out, g.name)
	}
	return out
}

// groupOf returns the group of the tool called name.
func groupOf(name string) string {
	for _, g := range toolGroups {
		if slices.Contains(g.tools, name) {
			return g.name
		}
	}
	panic("mcp: tool " + name + " is in no group") // a bug: groups.go lists every tool
}

// checkGroups checks the groups of Options.Tools.
func checkGroups(groups []string) error {
	names := append(ToolGroupNames(), AllToolGroups)
	for _, g := range groups {
		if slices.Contains(names, g) {
			continue
		}
		if near, ok := nearest(g, names); ok {
			return fmt.Errorf("mcp: no tool group %q: did you mean %q? (groups: %s)", g, near, strings.Join(names, ", "))
		}
		return fmt.Errorf("mcp: no tool group %q (groups: %s)", g, strings.Join(names, ", "))
	}
	return nil
}

// listed reports whether the server lists tool t.
func (s *Server) listed(t *tool) bool {
	if t.write && s.opts.ReadOnly {
		return false
	}
	g := groupOf(t.name)
	return g == DefaultToolGroup || slices.Contains(s.opts.Tools, AllToolGroups) || slices.Contains(s.opts.Tools, g)
}

// groupsText says, for the instructions, which groups the server lists
// and how to list the others.
func (s *Server) groupsText() string {
	var on, off []string
	for _, g := range toolGroups {
		item := g.name + " (" + g.what + ")"
		if g.name == DefaultToolGroup || slices.Contains(s.opts.Tools, AllToolGroups) || slices.Contains(s.opts.Tools, g.name) {
			on = append(on, item)
		} else {
			off = append(off, item)
		}
	}
	text := "Tool groups listed: " + strings.Join(on, "; ") + "."
	if len(off) > 0 {
		text += "\nNot listed (the server's -mcpTools, dynamoemu mcp's -tools, or $DYNAMOEMU_MCP_TOOLS, adds them, e.g. \"batch,partiql\" or \"all\"): " + strings.Join(off, "; ") + "."
	}
	if s.opts.ReadOnly {
		text += "\nRead-only: tools that change data or the emulator's state are not listed."
	}
	return text
}
