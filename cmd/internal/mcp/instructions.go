package mcp

import (
	"fmt"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/insights"
)

// maxDesignSummary bounds the design's summary in the instructions: the
// instructions go into every conversation, design_show gives the rest.
const maxDesignSummary = 3000

// instructions is what the handshake tells an agent: the server, its
// tool groups and, with a design set at start (-design), the design in
// short.
//
// The instructions name no tool the server does not list: an agent
// that calls one is refused (unlistedTools), so a group not listed is
// named by its group, which enable_tools lists.
func (s *Server) instructions() string {
	text := baseInstructions
	snap := "Deleting a table, or a batch, transaction or TTL sweep that deletes many items, takes a snapshot first (the result names it)"
	switch {
	case s.lists("snapshot_restore"):
		text += "\n" + snap + ": snapshot_list shows them, snapshot_restore undoes the change."
	case s.lists("snapshot_list"):
		text += "\n" + snap + ": snapshot_list shows them (a read-only server restores none)."
	default:
		text += "\n" + snap + ": the snapshots group lists and restores them."
	}
	design := s.lists("design_show")
	if design {
		text += "\ndesign_show gives the design whole; access_report and access_findings the traffic checked against it."
	} else {
		text += "\nThe design group shows the design whole and the access-pattern report of the traffic checked against it."
	}
	text += "\n" + s.groupsText()
	if d, err := s.design(); err == nil && d != nil {
		text += "\n" + designSummary(d, design)
	}
	return text
}

// lists reports whether the server lists (or, while New makes it, will
// list) the tool called name.
func (s *Server) lists(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.allTools() {
		if t.name == name {
			return s.listedLocked(t)
		}
	}
	return false
}

// designSummary sums a design up: per table its keys, indexes, entities
// and patterns (access, what serves it, the key condition).
// (whole: design_show is listed).
func designSummary(d *insights.Design, whole bool) string {
	var b strings.Builder
	rest := "the design group gives it whole"
	if whole {
		rest = "design_show gives it whole"
	}
	fmt.Fprintf(&b, "The design (%s) the traffic is checked against (%s; design_match says which pattern a request serves):", d.Format, rest)
	for _, t := range d.Tables {
		key := t.Key.Partition
		if t.Key.Sort != "" {
			key += ", " + t.Key.Sort
		}
		name := t.Name
		if name == "" {
			name = "(the format names none: the first table the traffic uses that the design does not name)"
		}
		fmt.Fprintf(&b, "\n- table %s, key %s", name, key)
		for _, x := range t.Indexes {
			xk := x.Key.Partition
			if x.Key.Sort != "" {
				xk += ", " + x.Key.Sort
			}
			fmt.Fprintf(&b, "; index %s (%s)", x.Name, xk)
		}
		var ents []string
		for _, e := range t.Entities {
			ents = append(ents, e.Name)
		}
		if len(ents) > 0 {
			fmt.Fprintf(&b, "; entities %s", strings.Join(ents, ", "))
		}
		if t.FromTraffic {
			fmt.Fprintf(&b, "; access patterns: none declared (a %s design cannot say them), so the report takes them from the traffic", d.Format)
		}
		for _, p := range t.Patterns {
			on := "the table"
			if p.Index != "" {
				on = p.Index
			}
			line := fmt.Sprintf("\n  - %s: %s on %s", p.Name, p.Access, on)
			if p.HasPK {
				line += " where pk = " + p.PK.String()
				if p.SortOp != insights.SortNone {
					line += " and sk " + p.SortOp.String() + " " + p.SK.String()
				}
			}
			if b.Len()+len(line) > maxDesignSummary {
				b.WriteString("\n  ... (" + strings.Replace(rest, "it whole", "the rest", 1) + ")")
				return b.String()
			}
			b.WriteString(line)
		}
	}
	return b.String()
}
