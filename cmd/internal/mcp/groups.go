package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool groups. Every tool's name, description and schema are sent to the
// agent's model in every conversation: the 48 tools cost about 47 KB. A
// server lists the core group by default (the tables, items and reads an
// agent needs first, the design's verdicts, and enable_tools) and the
// groups Options.Tools adds; a read-only server lists no tool it would
// refuse. enable_tools adds a group in a session: the server lists its
// tools from then on and sends notifications/tools/list_changed, so that
// the client asks for the list again. A call of a tool of a group not
// listed is refused with the group's name and that call.
//
// The groups enabled are the server's, not one session's: every client
// of the server (the HTTP endpoint's are stateless, one session a
// request) lists them from then on.

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
	{DefaultToolGroup, "tables, items, Query and Scan, the design's verdicts, and enable_tools",
		[]string{"list_tables", "describe_table", "create_table", "get_item", "put_item", "update_item", "delete_item",
			"query", "scan", "design_match", "explain", "enable_tools"}},
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

// groupOf returns the group of the tool called name ("" for none).
func groupOf(name string) string {
	for _, g := range toolGroups {
		if slices.Contains(g.tools, name) {
			return g.name
		}
	}
	return ""
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

// groupListedLocked reports whether the server lists group g (s.mu
// held).
func (s *Server) groupListedLocked(g string) bool {
	return g == DefaultToolGroup || slices.Contains(s.enabled, AllToolGroups) || slices.Contains(s.enabled, g)
}

// listedLocked reports whether the server lists tool t (s.mu held).
func (s *Server) listedLocked(t *tool) bool {
	if t.write && s.opts.ReadOnly {
		return false
	}
	return s.groupListedLocked(groupOf(t.name))
}

// toolListed reports whether the server lists the tool called name.
func (s *Server) toolListed(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.ContainsFunc(s.tools, func(t *tool) bool { return t.name == name })
}

// enableGroups lists the tools of groups (AllToolGroups: every group)
// from now on, and returns the names of the tools it added. The SDK
// tells the sessions connected that the list changed.
func (s *Server) enableGroups(groups []string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, g := range groups {
		if !slices.Contains(s.enabled, g) {
			s.enabled = append(s.enabled, g)
		}
	}
	var added []string
	for _, t := range s.allTools() {
		if s.listedLocked(t) && !slices.ContainsFunc(s.tools, func(l *tool) bool { return l.name == t.name }) {
			s.add(t)
			added = append(added, t.name)
		}
	}
	return added
}

// groupTools is the tool that lists more groups in a session.
func (s *Server) groupTools() []*tool {
	names := append(ToolGroupNames()[1:], AllToolGroups)
	return []*tool{{name: "enable_tools", title: "List more tools", session: true,
		schema: schema{props: []prop{{name: "groups", typ: "array", desc: "the groups to list: " + strings.Join(names, ", ")}}, required: []string{"groups"}},
		desc:   `Lists the tools of more groups from now on, in this session (the server sends notifications/tools/list_changed); the instructions say what each group holds. Answers the tools added. Example: {"groups": ["snapshots"]}.`,
		run: func(_ context.Context, args json.RawMessage) (any, error) {
			var in struct{ Groups []string }
			if err := decode(args, &in); err != nil {
				return nil, err
			}
			if len(in.Groups) == 0 {
				return nil, inputErrorf("groups: name at least one of %s", strings.Join(names, ", "))
			}
			if err := checkGroups(in.Groups); err != nil {
				return nil, inputErrorf("groups: %s", strings.TrimPrefix(err.Error(), "mcp: "))
			}
			added := s.enableGroups(in.Groups)
			out := map[string]any{"added": added, "groups": s.listedGroups()}
			if len(added) == 0 {
				out["note"] = "those groups were listed already: nothing changed"
			}
			if s.opts.ReadOnly {
				out["readOnly"] = "the server is read-only: the groups' tools that change data or state are not listed"
			}
			return out, nil
		}}}
}

// listedGroups names the groups the server lists.
func (s *Server) listedGroups() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, g := range toolGroups {
		if s.groupListedLocked(g.name) {
			out = append(out, g.name)
		}
	}
	return out
}

// unlistedTools is the server's receiving middleware: a call of a tool
// the server does not list is refused, as the SDK refuses an unknown
// tool (-32602), with what to do instead: the group that holds it and
// the enable_tools call that lists it, the tool meant by a misspelt
// name, or that a read-only server lists no tool that writes.
func (s *Server) unlistedTools(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if r, ok := req.(*sdk.CallToolRequest); ok && method == "tools/call" && r.Params != nil && !s.toolListed(r.Params.Name) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: s.unlistedMessage(r.Params.Name)}
		}
		return next(ctx, method, req)
	}
}

// unlistedMessage says why the tool called name is not listed.
func (s *Server) unlistedMessage(name string) string {
	g := groupOf(name)
	if g == "" {
		var all []string
		for _, t := range s.allTools() {
			all = append(all, t.name)
		}
		if near, ok := nearest(name, all); ok {
			return fmt.Sprintf("unknown tool %q: did you mean %q?", name, near)
		}
		return fmt.Sprintf("unknown tool %q (tools/list lists the tools; enable_tools lists more groups: %s)", name, strings.Join(ToolGroupNames()[1:], ", "))
	}
	if s.opts.ReadOnly && slices.ContainsFunc(s.allTools(), func(t *tool) bool { return t.name == name && t.write }) {
		return fmt.Sprintf("tool %q changes data or the emulator's state: this MCP server is read-only (-readOnly) and does not list it", name)
	}
	return fmt.Sprintf("tool %q is in group %q, which this server does not list yet: call enable_tools with {\"groups\": [%q]} to list it (then tools/list shows it), or start the server with -mcpTools %s (dynamoemu mcp -tools %s)", name, g, g, g, g)
}

// groupsText says, for the instructions, which groups the server lists
// and how to list the others. It names no tool the server does not
// list.
func (s *Server) groupsText() string {
	var on, off []string
	s.mu.Lock()
	for _, g := range toolGroups {
		item := g.name + " (" + g.what + ")"
		if s.groupListedLocked(g.name) {
			on = append(on, item)
		} else {
			off = append(off, item)
		}
	}
	s.mu.Unlock()
	text := "Tool groups listed: " + strings.Join(on, "; ") + "."
	if len(off) > 0 {
		text += "\nNot listed yet: " + strings.Join(off, "; ") + ". enable_tools lists a group in this session (e.g. {\"groups\": [\"snapshots\"]}); the server's -mcpTools, dynamoemu mcp's -tools or $DYNAMOEMU_MCP_TOOLS lists them at start."
	}
	if s.opts.ReadOnly {
		text += "\nRead-only: tools that change data or the emulator's state are not listed."
	}
	return text
}
