package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/report"
	"github.com/dynamoemu/dynamoemu/internal/insights"
)

// What no other DynamoDB server tells an agent: the access-pattern report
// and its findings, the conventions report with each rule's reason, the
// design and which pattern a request serves, and what a request costs.

func (s *Server) insightTools() []*tool {
	pOp := prop{name: "operation", typ: "string", desc: "the DynamoDB operation: " + strings.Join(matchOps, ", "), enum: matchOps}
	pExplainOp := prop{name: "operation", typ: "string", desc: "the DynamoDB operation: " + strings.Join(explainOps, ", "), enum: explainOps}
	pReq := prop{name: "request", typ: "object", desc: `the operation's request as you would send it`}
	pTableF := prop{name: "table", typ: "string", desc: "only this table"}
	return []*tool{
		{name: "access_report", title: "Access-pattern report",
			schema: schema{props: []prop{{name: "format", typ: "string", desc: "text (the default: what a person reads) or json (every count)", enum: []string{"text", "json"}}, pTableF}},
			desc:   `The access-pattern report of the server's namespace: per table and index the requests by operation, items read and returned (what filters dropped), capacity units, hot partition keys, largest partitions, unused indexes; the costliest requests; and with a design, each access pattern's traffic and the findings. The report counts from when it was started or reset (report_control). Example: {"format": "json", "table": "Blog"}.`,
			run:    s.accessReport},
		{name: "access_findings", title: "Design findings",
			schema: schema{props: []prop{pTableF}},
			desc:   `What the report finds wrong, alone: the design's findings (patterns served by a Scan, patterns that may return another entity's items, entities an index never holds, unused indexes, ambiguous patterns) and the traffic's (Scans and other requests that fit no pattern, patterns nothing used), with the requests that fit no pattern and each table's unused indexes. Example: {}.`,
			run:    s.accessFindings},
		{name: "report_control", title: "Start, stop or reset the report", write: true,
			schema: schema{props: []prop{{name: "action", typ: "string", desc: "start (collect from now), stop, or reset (forget the counts; collecting goes on)", enum: []string{"start", "stop", "reset"}}}, required: []string{"action"}},
			desc:   `Starts or stops collecting the access-pattern report, or forgets its counts. Example: {"action": "reset"}.`,
			run:    s.controlReport},
		{name: "conventions_report", title: "Conventions report",
			schema: schema{props: []prop{pTableF, {name: "allRules", typ: "boolean", desc: "list every rule, not only those violated"}}},
			desc:   `The mbc-cqrs-serverless conventions report: the violations seen on the tables that follow the conventions (key shapes, versions, tenants, the latest item), per table and rule, each distinct violation with its key, message and count; and for each rule its id, what it asks, when it is checked, its severity and why. Empty when no table follows the conventions (the server's -conventions, or the tables' tags). Example: {}.`,
			run:    s.conventionsReport},
		{name: "conventions_reset", title: "Reset the conventions report", write: true, schema: schema{},
			desc: `Empties the conventions report, so that what follows is seen alone. Example: {}.`,
			run: func(context.Context, json.RawMessage) (any, error) {
				s.emu.Reports().ResetConventions()
				return map[string]bool{"reset": true}, nil
			}},
		{name: "design_show", title: "The design", schema: schema{},
			desc: `The single-table design the traffic is checked against: per table its keys and indexes, its entities with a key template per key attribute ("Post_{created_at}": text with {variables}), its access patterns (access, entities, the key or index that serves each, the key condition, order, description), and the design's own findings. The design is a design file, a NoSQL Workbench model, a OneTable schema, ElectroDB entities, a Dynamoose schema, a DynamoDB Toolbox table, AWS's DynamoDB MCP data model, or a CloudFormation/SAM/CDK template (design_set). Example: {}.`,
			run: func(context.Context, json.RawMessage) (any, error) {
				d, err := s.design()
				if err != nil {
					return nil, err
				}
				if d == nil {
					return nil, errNoDesign
				}
				return d.View(), nil
			}},
		{name: "design_set", title: "Set the design", write: true,
			schema: schema{props: []prop{{name: "design", typ: "string", desc: `the design: a design file's text ("table Blog\nkey PK SK\nentity Post PK={id} SK=post\npattern post-by-id get Post where pk = {id} and sk = post"), or a NoSQL Workbench model, OneTable schema, ElectroDB entities, Dynamoose schema, DynamoDB Toolbox table, AWS DynamoDB MCP data model (dynamodb_data_model.json) or CloudFormation/SAM/CDK template; "" removes the design`}},
				required: []string{"design"}},
			desc: `Sets the design the traffic is checked against from now on (the report's patterns and findings, design_match, explain). A bad design is an error with its line and column, or the JSON member at fault; the previous design stays then.`,
			run:  s.setDesign},
		{name: "design_match", title: "Which pattern a request serves",
			schema: schema{props: []prop{pOp, pReq}, required: []string{"operation", "request"}},
			desc:   `Says which access pattern of the design a request serves, as the report counts it, or that none does and the nearest; for each pattern why it fits or not. Batches and transactions: a verdict per item. Not run; works before the table exists. Example: {"operation": "GetItem", "request": {"TableName": "Blog", "Key": {"PK": {"S": "77fcab6b"}, "SK": {"S": "post"}}}}.`,
			run:    s.designMatch},
		{name: "explain", title: "Explain a request",
			schema: schema{props: []prop{pExplainOp, pReq}, required: []string{"operation", "request"}},
			desc:   `Explains a request: what serves it (the table's key or which index), its key condition, the design's pattern (or the nearest), its capacity and what its filter drops. A read is run once to measure it; a write is not run, its capacity estimated. Example: {"operation": "Scan", "request": {"TableName": "Blog", "FilterExpression": "author = :a", "ExpressionAttributeValues": {":a": {"S": "ann"}}}}.`,
			run:    s.explainTool},
		{name: "load_model", title: "Load a model or template", write: true,
			schema: schema{props: []prop{
				{name: "model", typ: "string", desc: "the file's text: a NoSQL Workbench data model (the JSON Workbench exports), AWS's DynamoDB MCP data model (dynamodb_data_model.json), or infrastructure code: a CloudFormation or SAM template (YAML or JSON), a cdk synth template, or a serverless.yml"},
				{name: "setDesign", typ: "boolean", desc: "also check the traffic against the file's design (a Workbench model's facets as entities, a data model's access patterns, a template's tables)"}}, required: []string{"model"}},
			desc: `Creates the tables of a file in the server's namespace: a NoSQL Workbench data model (keys, GSIs with their projections, billing, and its sample data: TableData, the facets' too), AWS's DynamoDB MCP data model (its tables and items), or a CloudFormation/SAM template, cdk synth template or serverless.yml (its DynamoDB tables, with TTL, streams and the settings CreateTable does not take; no data). A table that exists already is left as it is, with its data. A malformed file is an error naming the member at fault, and nothing is created.`,
			run:  s.loadModelTool},
	}
}

// controlReport is report_control: start, stop, or (any other action)
// reset the access-pattern report's counts.
func (s *Server) controlReport(_ context.Context, args json.RawMessage) (any, error) {
	var in struct{ Action string }
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	switch in.Action {
	case "start":
		s.emu.Reports().SetReporting(true)
	case "stop":
		s.emu.Reports().SetReporting(false)
	default:
		s.emu.Reports().ResetAccess()
	}
	return map[string]any{"reporting": s.emu.Reports().Reporting(), "action": in.Action}, nil
}

// setDesign is design_set: it answers the design as set, and leaves the
// report's counts alone when the design is the one already set.
func (s *Server) setDesign(_ context.Context, args json.RawMessage) (any, error) {
	var in struct{ Design string }
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	if string(s.emu.Reports().Design()) == in.Design {
		// The same design: setting it again would start its
		// patterns' counts afresh beside the rest of the report.
		d, err := s.design()
		if err != nil || d == nil {
			return map[string]bool{"design": false}, err
		}
		b, err := json.Marshal(d.View())
		if err != nil {
			return nil, err
		}
		return withNotes(b, "the design is the one already set: nothing changed, the report's counts go on"), nil
	}
	if err := s.emu.Reports().SetDesign([]byte(in.Design)); err != nil {
		return nil, inputErrorf("design: %v", err)
	}
	d, err := s.design()
	if err != nil || d == nil {
		return map[string]bool{"design": false}, err
	}
	return d.View(), nil
}

// opRequest is the arguments of design_match and explain: a request
// and its operation.
type opRequest struct {
	Operation string
	Request   json.RawMessage
}

// explainTool is the explain tool.
func (s *Server) explainTool(ctx context.Context, args json.RawMessage) (any, error) {
	var in opRequest
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	return s.explain(ctx, in.Operation, in.Request)
}

// loadModelTool is load_model: a template's tables, or a model's
// tables and items, and with setDesign the file as the design.
func (s *Server) loadModelTool(ctx context.Context, args json.RawMessage) (any, error) {
	var in struct {
		Model     string
		SetDesign bool
	}
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	var res any
	if IsTemplate([]byte(in.Model)) {
		got, err := LoadTemplate(ctx, s.emu, s.opts.AccessKey, s.opts.Region, []byte(in.Model), TemplateOptions{})
		if err != nil {
			return nil, inputErrorf("%v", err)
		}
		res = got
	} else {
		got, err := s.loadModel(ctx, []byte(in.Model))
		if err != nil {
			return nil, err
		}
		res = got
	}
	if in.SetDesign {
		if err := s.emu.Reports().SetDesign([]byte(in.Model)); err != nil {
			return nil, inputErrorf("design: %v", err)
		}
	}
	return res, nil
}

// errNoDesign: no design is set. A literal: inputErrorf at package
// init would run fmt.Sprintf at every start of the server.
var errNoDesign error = &inputError{msg: "no design is set: design_set takes one (a design file, or a NoSQL Workbench, OneTable, ElectroDB, Dynamoose, DynamoDB Toolbox, AWS DynamoDB MCP data model or CloudFormation/CDK file), as does the server's -design flag"}

// design returns the design the emulator checks the traffic against, or
// nil.
func (s *Server) design() (*insights.Design, error) {
	src := s.emu.Reports().Design()
	if len(src) == 0 {
		return nil, nil
	}
	return insights.ParseDesign(src)
}

// liveDesign returns the design as the namespace's report holds it now
// (insights.Design.Live): the table name and patterns the traffic gave
// it, so that design_match and explain say what the report files a
// request under; nil without a design.
func (s *Server) liveDesign() (*insights.Design, error) {
	d, err := s.design()
	if err != nil || d == nil {
		return d, err
	}
	rep := s.namespaceReport()
	if rep == nil || rep.Design == nil {
		return d.Live(nil), nil
	}
	b, err := json.Marshal(rep.Design)
	if err != nil {
		return nil, err
	}
	l, err := insights.ReadLearned(b)
	if err != nil {
		return nil, err
	}
	return d.Live(l), nil
}

// namespaceReport returns the report of the server's namespace (the only
// one with SharedDB), or nil.
func (s *Server) namespaceReport() *report.Report {
	want := s.opts.AccessKey + "/" + s.opts.Region
	reps := s.emu.Reports().Access()
	for _, r := range reps {
		if r.Namespace == want || r.Namespace == "" {
			return r.Report
		}
	}
	return nil
}

// reportNote says when the report is not collecting.
func (s *Server) reportNote() string {
	if s.emu.Reports().Reporting() {
		return ""
	}
	return "the report is not collecting: report_control {\"action\": \"start\"} starts it (the server's -report starts it at start-up)"
}

// accessReport is the access_report tool.
func (s *Server) accessReport(ctx context.Context, args json.RawMessage) (any, error) {
	var in struct{ Format, Table string }
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	if in.Table != "" {
		if err := s.knownTable(ctx, in.Table); err != nil {
			return nil, err
		}
	}
	rep := s.namespaceReport()
	if rep == nil {
		return json.Marshal(map[string]any{"tables": []any{}, notesMember: map[string][]string{"notes": {"no request has reached this namespace yet", s.reportNote()}}})
	}
	if in.Table != "" {
		r := *rep
		r.Tables = nil
		for _, t := range rep.Tables {
			if t.Table == in.Table {
				r.Tables = append(r.Tables, t)
			}
		}
		r.Costliest = nil
		for _, c := range rep.Costliest {
			if c.Table == in.Table {
				r.Costliest = append(r.Costliest, c)
			}
		}
		if rep.Design != nil {
			d := *rep.Design
			d.Patterns, d.Unmatched, d.Findings = nil, nil, nil
			for _, p := range rep.Design.Patterns {
				if p.Table == in.Table {
					d.Patterns = append(d.Patterns, p)
				}
			}
			for _, u := range rep.Design.Unmatched {
				if u.Table == in.Table {
					d.Unmatched = append(d.Unmatched, u)
				}
			}
			for _, f := range rep.Design.Findings {
				if f.Table == in.Table {
					d.Findings = append(d.Findings, f)
				}
			}
			r.Design = &d
		}
		rep = &r
	}
	if in.Format != "json" {
		var b strings.Builder
		if err := rep.WriteText(&b); err != nil {
			return nil, err
		}
		if in.Table != "" && len(rep.Tables) == 0 {
			b.WriteString("\n(no request to table " + in.Table + " yet)\n")
		}
		if note := s.reportNote(); note != "" {
			b.WriteString("\n(" + note + ")\n")
		}
		return b.String(), nil
	}
	b, err := json.Marshal(rep)
	if err != nil {
		return nil, err
	}
	return withNotes(b, s.reportNote()), nil
}

// knownTable checks that table is a table of the namespace or of the
// design: a report or findings of a misspelt table is an error, not an
// empty success.
func (s *Server) knownTable(ctx context.Context, table string) error {
	var out struct{ TableNames []string }
	names := []string{}
	for start := ""; ; {
		req := map[string]any{}
		if start != "" {
			req["ExclusiveStartTableName"] = start
		}
		out.TableNames = nil
		var page struct {
			TableNames             []string
			LastEvaluatedTableName string
		}
		if _, err := s.eng.callJSON(ctx, apiDynamoDB, "ListTables", req, &page); err != nil {
			return err
		}
		names = append(names, page.TableNames...)
		if start = page.LastEvaluatedTableName; start == "" {
			break
		}
	}
	if d, err := s.design(); err == nil && d != nil {
		for _, t := range d.Tables {
			names = append(names, t.Name)
		}
	}
	if slices.Contains(names, table) {
		return nil
	}
	if near, ok := nearest(table, names); ok {
		return inputErrorf("no table %q in the namespace or the design: did you mean %q?", table, near)
	}
	return inputErrorf("no table %q in the namespace or the design (tables: %s)", table, strings.Join(names, ", "))
}

// accessFindings is the access_findings tool.
func (s *Server) accessFindings(ctx context.Context, args json.RawMessage) (any, error) {
	var in struct{ Table string }
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	if in.Table != "" {
		if err := s.knownTable(ctx, in.Table); err != nil {
			return nil, err
		}
	}
	out := struct {
		Findings      []report.Finding          `json:"findings"`
		Unmatched     []report.UnmatchedRequest `json:"unmatched,omitempty"`
		UnusedIndexes map[string][]string       `json:"unusedIndexes,omitempty"`
		Notes         []string                  `json:"notes,omitempty"`
	}{Findings: []report.Finding{}, UnusedIndexes: map[string][]string{}}
	rep := s.namespaceReport()
	d, err := s.design()
	if err != nil {
		return nil, err
	}
	if d == nil {
		out.Notes = append(out.Notes, "no design is set: the findings of the design and of the requests that fit no pattern need one (design_set)")
	}
	if note := s.reportNote(); note != "" {
		out.Notes = append(out.Notes, note)
	}
	if rep != nil {
		if rep.Design != nil {
			for _, f := range rep.Design.Findings {
				if in.Table == "" || f.Table == in.Table {
					out.Findings = append(out.Findings, f)
				}
			}
			for _, u := range rep.Design.Unmatched {
				if in.Table == "" || u.Table == in.Table {
					out.Unmatched = append(out.Unmatched, u)
				}
			}
		}
		for _, t := range rep.Tables {
			if len(t.UnusedIndexes) > 0 && (in.Table == "" || t.Table == in.Table) {
				out.UnusedIndexes[t.Table] = t.UnusedIndexes
			}
		}
	} else if d != nil {
		for _, f := range d.Check() {
			if in.Table == "" || f.Table == in.Table {
				out.Findings = append(out.Findings, report.Finding(f))
			}
		}
	}
	return out, nil
}

// ruleView is one conventions rule with its reason.
type ruleView struct {
	ID         string `json:"id"`
	Severity   string `json:"severity"`
	CheckedAt  string `json:"checkedAt"`
	Summary    string `json:"asks"`
	Why        string `json:"why"`
	Violations uint64 `json:"violations,omitempty"`
}

// conventionsReport is the conventions_report tool.
func (s *Server) conventionsReport(_ context.Context, args json.RawMessage) (any, error) {
	var in struct {
		Table    string
		AllRules bool
	}
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	snap := s.emu.Reports().Conventions()
	if in.Table != "" {
		var kept []conventions.TableReport
		for _, t := range snap.Tables {
			if t.Table == in.Table {
				kept = append(kept, t)
			}
		}
		snap.Tables = kept
	}
	seen := map[string]uint64{}
	for _, t := range snap.Tables {
		for rule, n := range t.Counts {
			seen[rule] += n
		}
	}
	var rules []ruleView
	for _, r := range conventions.RuleTable() {
		n, ok := seen[r.ID]
		if !ok && !in.AllRules {
			continue
		}
		rules = append(rules, ruleView{ID: r.ID, Severity: r.Severity.String(), CheckedAt: r.Checkpoint.String(), Summary: r.Summary, Why: r.Why, Violations: n})
	}
	out := map[string]any{"report": snap, "rules": rules}
	if snap.Violations == 0 && len(snap.Tables) == 0 {
		out[notesMember] = map[string][]string{"notes": {"no violation seen: either the tables follow the conventions, or none is checked (the server's -conventions file, or a table's tags, name the tables that follow them; allRules lists the rules)"}}
	}
	return out, nil
}

// designMatch is the design_match tool.
func (s *Server) designMatch(ctx context.Context, args json.RawMessage) (any, error) {
	var in opRequest
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	d, err := s.liveDesign()
	if err != nil {
		return nil, err
	}
	if d == nil {
		return nil, errNoDesign
	}
	uses, err := s.usesOf(ctx, in.Operation, in.Request)
	if err != nil {
		return nil, err
	}
	type match struct {
		insights.MatchView
		// Nearest is, when no pattern serves the request, the pattern
		// nearest to it and why it does not serve it.
		Nearest string `json:"nearestPattern,omitempty"`
	}
	var matches []match
	for _, u := range uses {
		mv := d.Match(&u.q)
		matches = append(matches, match{mv, nearestPattern(d, u, mv, in.Request)})
	}
	if len(matches) == 0 {
		return nil, inputErrorf("the request names no item or table to match")
	}
	var parts []string
	for _, m := range matches {
		if m.Pattern != "" {
			parts = append(parts, fmt.Sprintf("%s %s: pattern %s", m.Access, m.Table, m.Pattern))
		} else if m.Nearest != "" {
			parts = append(parts, fmt.Sprintf("%s %s: no pattern (%s); nearest: %s", m.Access, m.Table, m.Why, m.Nearest))
		} else {
			parts = append(parts, fmt.Sprintf("%s %s: no pattern (%s)", m.Access, m.Table, m.Why))
		}
	}
	out := map[string]any{"design": d.Format, "matches": matches, "summary": strings.Join(parts, "; ")}
	for _, u := range uses {
		if u.table.fromDesign {
			out[notesMember] = map[string][]string{"notes": {"table " + u.table.TableName + " does not exist yet: matched on the design alone"}}
		}
	}
	return out, nil
}
