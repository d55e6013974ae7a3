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
func (s *Server) instructions() string {
	text := baseInstructions + "\n" + s.groupsText()
	if d, err := s.design(); err == nil && d != nil {
		text += "\n" + designSummary(d)
	}
	return text
}

// designSummary sums a design up: per table its keys, indexes, entities
// and patterns (access, what serves it, the key condition).
func designSummary(d *insights.Design) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The design (%s) the traffic is checked against (design_show gives it whole; design_match says which pattern a request serves):", d.Format)
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
				b.WriteString("\n  ... (design_show gives the rest)")
				return b.String()
			}
			b.WriteString(line)
		}
	}
	return b.String()
}
