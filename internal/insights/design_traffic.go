package insights

import (
	"slices"
	"strconv"
	"strings"
)

// Access patterns taken from the traffic, for a table whose format
// declares none (FromTraffic: a CloudFormation or CDK table, a data
// model without patterns). A request no pattern serves becomes a
// pattern of its own shape: its access, its table or index, pk = the
// partition key attribute as a variable, and its kind of sort key
// condition, with a begins_with's prefix kept as written (the prefix is
// the pattern: "Post_" and "Comment_" on one index are two patterns) and
// other sort key values as a variable; named by them
// ("query-GSI1-Post_", "get-table"). A Scan is never made a pattern: it
// stays a finding. The report lists them with the design's, and says
// they came from the traffic.

// MaxLearned bounds the patterns taken from the traffic per table;
// requests past it are unmatched, as without a design.
const MaxLearned = 64

// shapeOf returns the pattern of q's shape t would take from the
// traffic, or nil: past MaxLearned, a Scan, an index t does not declare.
func (t *DesignTable) shapeOf(q *Request) *Pattern {
	if len(t.Patterns) >= MaxLearned || q.Access == Scan {
		return nil // a Scan stays a finding: it is what the report is for
	}
	key, ok := t.keyOf(q.Index)
	if !ok {
		return nil // an index the table does not declare
	}
	pt := &Pattern{Access: q.Access, Index: q.Index, FromTraffic: true}
	for _, e := range t.Entities {
		if e.inKey(key) {
			pt.Entities = append(pt.Entities, e.Name)
		}
	}
	if q.Access != Scan && q.Key.Partition.IsValid() {
		pt.PK, pt.HasPK = varTemplate(key.Partition, "pk"), true
		if key.Sort != "" {
			pt.SortOp = q.Key.SortOp
			pt.SK = varTemplate(key.Sort, "sk")
			switch pt.SortOp {
			case SortBeginsWith:
				if p := matchText(q.Key.Sort); p != "" && !strings.ContainsAny(p, "{}") {
					pt.SK = knownTemplate(p)
				}
			case SortBetween:
				pt.SK2 = pt.SK
			}
		}
	}
	if pt.checkShape(key) != "" {
		return nil
	}
	name := pt.Access.String() + "-"
	if q.Index != "" {
		name += q.Index
	} else {
		name += "table"
	}
	switch pt.SortOp {
	case SortNone, SortEQ:
	case SortBeginsWith:
		name += "-" + pt.SK.String()
	default:
		name += "-" + sortWord(pt.SortOp)
	}
	name = strings.Map(func(r rune) rune {
		if r == ',' || r == '=' || r == ' ' {
			return '_'
		}
		return r
	}, name)
	if len(name) > maxName-4 {
		name = name[:maxName-4]
	}
	pt.Name = name
	for n := 2; t.hasPattern(pt.Name); n++ {
		pt.Name = name + "-" + strconv.Itoa(n)
	}
	return pt
}

// hasPattern reports whether t has a pattern called name.
func (t *DesignTable) hasPattern(name string) bool {
	for _, p := range t.Patterns {
		if p.Name == name {
			return true
		}
	}
	return false
}

// varTemplate is a variable named by attr, or by fallback when attr is
// no variable name.
func varTemplate(attr, fallback string) Template {
	if isName(attr) {
		return knownTemplate("{" + attr + "}")
	}
	return knownTemplate("{" + fallback + "}")
}

// TrafficFindings says what the traffic completed of the design: a table's
// name, its patterns.
func (d *Design) TrafficFindings() []Finding {
	var out []Finding
	for _, t := range d.Tables {
		if t.Unnamed && t.Name != "" {
			out = append(out, Finding{Kind: FindingFromTraffic, Table: t.Name,
				Detail: "the " + d.Format + " design names no table: it is table " + quote(t.Name) + ", the first the traffic used that the design does not name"})
		}
		if t.FromTraffic {
			n := 0
			for _, p := range t.Patterns {
				if p.FromTraffic {
					n++
				}
			}
			out = append(out, Finding{Kind: FindingFromTraffic, Table: t.Name,
				Detail: "the " + d.Format + " design declares no access patterns for table " + quote(t.Name) + ": its " + itoa(int64(n)) + " pattern(s) are the shapes of the traffic's requests"})
		}
	}
	return out
}

// sortWord names a sort key condition in a pattern's name.
func sortWord(o SortOp) string {
	switch o {
	case SortLT:
		return "lt"
	case SortLE:
		return "le"
	case SortGT:
		return "gt"
	case SortGE:
		return "ge"
	}
	return "between"
}

// ForgetLearned drops the patterns taken from the traffic (a Reset: they
// are counts as much as patterns).
func (d *Design) ForgetLearned() {
	if d == nil {
		return
	}
	for _, t := range d.Tables {
		if t.FromTraffic {
			t.Patterns = slices.DeleteFunc(t.Patterns, func(p *Pattern) bool { return p.FromTraffic })
		}
	}
}
