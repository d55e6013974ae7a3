package insights

import "fmt"

// A design as its readers see it (an MCP client, a console), and what it
// says of one request: the pattern the request matches, or why each
// pattern of its table does not.

// DesignView is a design for reading: per table its keys, entities with
// their templates, patterns, and the findings of the design alone.
type DesignView struct {
	Format   string      `json:"format"`
	Tables   []TableView `json:"tables"`
	Findings []Finding   `json:"findings"`
}

// TableView is one table of a DesignView.
type TableView struct {
	Name         string        `json:"name"`
	PartitionKey string        `json:"partitionKey"`
	SortKey      string        `json:"sortKey,omitempty"`
	Indexes      []IndexView   `json:"indexes,omitempty"`
	Entities     []EntityView  `json:"entities"`
	Patterns     []PatternView `json:"patterns"`
	// Note says what the format cannot say and the traffic completes:
	// the table's name, the access patterns.
	Note string `json:"note,omitempty"`
}

// IndexView is one index of a TableView.
type IndexView struct {
	Name         string `json:"name"`
	PartitionKey string `json:"partitionKey"`
	SortKey      string `json:"sortKey,omitempty"`
}

// EntityView is one entity: its template per key attribute.
type EntityView struct {
	Name      string            `json:"name"`
	Templates map[string]string `json:"templates"`
}

// PatternView is one pattern.
type PatternView struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Access      string   `json:"access"`
	Entities    []string `json:"entities"`
	ServedBy    string   `json:"servedBy"`
	Condition   string   `json:"condition,omitempty"`
	Order       string   `json:"order,omitempty"`
	// Derived: the file declares no pattern; this one was derived from
	// the entities' keys.
	Derived bool `json:"derived,omitempty"`
}

// View returns the design for reading.
func (d *Design) View() DesignView {
	v := DesignView{Format: d.Format, Findings: d.Check()}
	for _, t := range d.Tables {
		tv := TableView{Name: t.Name, PartitionKey: t.Key.Partition, SortKey: t.Key.Sort}
		switch {
		case t.Unnamed && t.Name == "":
			tv.Note = "the " + d.Format + " design names no table: the first table the traffic uses that the design does not name is this one"
		case t.FromTraffic:
			tv.Note = "the " + d.Format + " design declares no access patterns: the report takes them from the shapes of the traffic's requests"
		}
		for _, x := range t.Indexes {
			tv.Indexes = append(tv.Indexes, IndexView{Name: x.Name, PartitionKey: x.Key.Partition, SortKey: x.Key.Sort})
		}
		for _, e := range t.Entities {
			ev := EntityView{Name: e.Name, Templates: map[string]string{}}
			for attr, tpl := range e.Attrs {
				ev.Templates[attr] = tpl.String()
			}
			tv.Entities = append(tv.Entities, ev)
		}
		for _, p := range t.Patterns {
			tv.Patterns = append(tv.Patterns, PatternView{Name: p.Name, Description: p.Description, Access: p.Access.String(),
				Entities: p.Entities, ServedBy: p.ServedBy(), Condition: p.conditionText(), Order: p.Order, Derived: p.Derived})
		}
		v.Tables = append(v.Tables, tv)
	}
	if v.Findings == nil {
		v.Findings = []Finding{}
	}
	return v
}

// MatchView is what a design says of one request's use of a table or
// index: the pattern it counts for, or none, and per pattern of the
// table whether the request fits it and, if not, why.
type MatchView struct {
	Table  string `json:"table"`
	Index  string `json:"index,omitempty"`
	Access string `json:"access"`
	// Key is the request's key condition ("pk=ORDER#1 sk begins_with 2024-").
	Key string `json:"key,omitempty"`
	// Pattern is the pattern the request counts for ("" when none).
	Pattern string `json:"pattern,omitempty"`
	// Why says why it counts for that pattern, or for none.
	Why        string           `json:"why"`
	Candidates []PatternVerdict `json:"candidates,omitempty"`
}

// PatternVerdict is one pattern's verdict on a request.
type PatternVerdict struct {
	Pattern string `json:"pattern"`
	Fits    bool   `json:"fits"`
	Why     string `json:"why"`
}

// Match says which pattern request q counts for, as the report files it
// (the most specific of those it fits; on a table whose format declares
// no patterns, the pattern of its shape the report takes from the
// traffic), and why the others do not fit. It changes nothing: on the
// design as a namespace's recorder holds it (Live) it is that
// recorder's filing.
func (d *Design) Match(q *Request) MatchView {
	mv := MatchView{Table: q.Table, Index: q.Index, Access: q.Access.String(), Key: conditionText(q.Key)}
	f := d.File(q)
	t := f.Table
	if t == nil {
		mv.Why = fmt.Sprintf("the design declares no table %q", q.Table)
		if u := d.table(q.Table); u != nil && u.Unnamed {
			mv.Why = fmt.Sprintf("the design's table (its format names none) has no index %q: table %q is not the design's", q.Index, q.Table)
		}
		return mv
	}
	best := f.Pattern
	for i, pt := range t.Patterns {
		why := pt.whyNot(q)
		v := PatternVerdict{Pattern: pt.Name, Fits: why == "", Why: why}
		if v.Fits {
			v.Why = "fits"
			if i != best {
				v.Why = fmt.Sprintf("fits, but %q is more specific (or declared first)", t.Patterns[best].Name)
			}
		}
		mv.Candidates = append(mv.Candidates, v)
	}
	if f.Learned != nil {
		mv.Candidates = append(mv.Candidates, PatternVerdict{Pattern: f.Learned.Name, Fits: true, Why: "the request's own shape, which the report takes from the traffic"})
	}
	switch {
	case best >= 0:
		pt := t.Patterns[best]
		mv.Pattern = pt.Name
		mv.Why = fmt.Sprintf("a %s on %s whose key fits %s", q.Access, pt.ServedBy(), pt.conditionText())
		if pt.Access == Scan {
			mv.Why = fmt.Sprintf("a scan of %s", pt.ServedBy())
		}
		if pt.FromTraffic {
			mv.Why += " (a pattern the report took from the traffic: the format declares none)"
		}
	case f.Learned != nil:
		mv.Pattern = f.Learned.Name
		mv.Why = fmt.Sprintf("the %s design declares no access patterns: the report takes this request's shape as pattern %q (a %s on %s where %s)",
			d.Format, f.Learned.Name, q.Access, f.Learned.ServedBy(), f.Learned.conditionText())
	case f.Unchecked:
		mv.Why = fmt.Sprintf("table %q declares no write pattern: its writes are not checked", t.Name)
	case q.Access == Scan:
		mv.Why = "no pattern declares this Scan: it reads the whole " + map[bool]string{true: "index", false: "table"}[q.Index != ""]
	case t.FromTraffic:
		mv.Why = "no pattern fits, and the report takes no more patterns from the traffic for this table (it holds its most, or the index is not the design's)"
	default:
		mv.Why = "no pattern fits: see each pattern's reason"
	}
	if f.Bind {
		mv.Why += fmt.Sprintf(" (the %s design names no table: the report takes %q as its table)", d.Format, q.Table)
	}
	return mv
}

// whyNot says why request q does not fit the pattern ("" when it fits).
func (pt *Pattern) whyNot(q *Request) string {
	on := func(index string) string {
		if index == "" {
			return "the table key"
		}
		return "index " + index
	}
	if pt.Access != q.Access {
		return fmt.Sprintf("a %s pattern; the request is a %s", pt.Access, q.Access)
	}
	if pt.Index != q.Index {
		return fmt.Sprintf("on %s; the request uses %s", on(pt.Index), on(q.Index))
	}
	if _, ok := pt.matches(&q.Key); ok {
		return ""
	}
	k := q.Key
	if !k.Partition.IsValid() || !pt.PK.match(matchText(k.Partition), false) {
		return fmt.Sprintf("the partition key %q does not fit pk = %s", matchText(k.Partition), pt.PK)
	}
	want := pt.SortOp.String() + " " + pt.SK.String()
	if pt.SortOp == SortBetween {
		want += " and " + pt.SK2.String()
	}
	if k.SortOp != pt.SortOp {
		got := "no sort key condition"
		if k.SortOp != SortNone {
			got = "sk " + k.SortOp.String()
		}
		return fmt.Sprintf("the pattern takes sk %s; the request has %s", want, got)
	}
	return fmt.Sprintf("the sort key %q does not fit sk %s", matchText(k.Sort), want)
}
