package insights

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Where the report files a request's use of a table, for a reader that
// asks before the request runs (design_match, the console's query
// builder): the same decision the recorder makes (File), on the design
// as a namespace's recorder holds it (Live): the name an unnamed table
// took from the traffic and the patterns a table without declared ones
// took. A recorder holds a copy of the design of its own, so that each
// namespace's traffic names and completes its own.

// Filing is where the report files one request's use of a table (File).
type Filing struct {
	Table *DesignTable // nil: a table the design does not declare
	// Bind: Table is the design's unnamed table, and this request names it.
	Bind bool
	// Unchecked: a write to a table that declares no write pattern: the
	// report does not check it.
	Unchecked bool
	Pattern   int      // the pattern of Table.Patterns it counts for; -1 none
	Learned   *Pattern // the pattern of its shape Table takes (FromTraffic), when none fits
}

// File decides where the report files q (it changes nothing).
func (d *Design) File(q *Request) Filing {
	f := Filing{Pattern: -1}
	t := d.table(q.Table)
	if t != nil && t.Unnamed && t.Name == "" {
		if q.Index != "" && t.index(q.Index) == nil {
			t = nil // not the schema's table
		} else {
			f.Bind = true
		}
	}
	f.Table = t
	if t == nil {
		return f
	}
	if q.Access.IsWrite() && !t.hasWritePatterns() && !t.FromTraffic {
		f.Unchecked = true
		return f
	}
	if f.Pattern = t.match(q); f.Pattern < 0 && t.FromTraffic {
		f.Learned = t.shapeOf(q)
	}
	return f
}

// Clone returns a copy of d whose tables may take a name and patterns
// from the traffic without changing d's.
func (d *Design) Clone() *Design {
	if d == nil {
		return nil
	}
	c := *d
	c.Tables = make([]*DesignTable, len(d.Tables))
	for i, t := range d.Tables {
		tc := *t
		tc.Patterns = slices.Clone(t.Patterns)
		c.Tables[i] = &tc
	}
	return &c
}

// Learned is what a recorder's report says the traffic taught its copy
// of the design, as Live reads it: the report's patterns in its order,
// and the tables its from-traffic findings name, in theirs. The report's
// own types are emulator/report's, a floor above this package, so it is
// read from the report's design part in its JSON form (ReadLearned):
// the one copy out of a report, for the recorder's tests and the MCP
// server alike.
type Learned struct {
	Patterns []LearnedPattern `json:"patterns"`
	// FromTrafficTables are the tables of the report's from-traffic
	// findings (Kind FindingFromTraffic), "" left out.
	FromTrafficTables []string `json:"-"`
}

// LearnedPattern is one pattern of a recorder's report, the members of
// report.PatternReport that Live reads, by their JSON names.
type LearnedPattern struct {
	Table    string   `json:"table"`
	Name     string   `json:"name"`
	Access   string   `json:"access"`
	Entities []string `json:"entities"`
	// ServedBy is "table key", "index NAME", or "Scan of ..."
	ServedBy    string `json:"servedBy"`
	Condition   string `json:"condition"`
	FromTraffic bool   `json:"fromTraffic"`
}

// ReadLearned reads what Live takes out of a report's design part
// (emulator/report.DesignReport) as JSON: its patterns, and the tables
// of its from-traffic findings; the report's other members are left.
// "null" (no design part) is nil.
func ReadLearned(design []byte) (*Learned, error) {
	var dr *struct {
		Patterns []LearnedPattern `json:"patterns"`
		Findings []struct {
			Kind  string `json:"kind"`
			Table string `json:"table"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(design, &dr); err != nil {
		return nil, fmt.Errorf("a report's design part: %w", err)
	}
	if dr == nil {
		return nil, nil
	}
	l := &Learned{Patterns: dr.Patterns}
	if l.Patterns == nil {
		l.Patterns = []LearnedPattern{}
	}
	for _, f := range dr.Findings {
		if f.Kind == FindingFromTraffic && f.Table != "" {
			l.FromTrafficTables = append(l.FromTrafficTables, f.Table)
		}
	}
	return l, nil
}

// Live returns a copy of d as the recorder whose report's design part
// says rep holds it: the design's unnamed table named as the report
// names it, and the patterns the traffic gave a table without declared
// ones, in the report's order (nil rep: d as set). Match on it says what
// that recorder files a request under.
func (d *Design) Live(rep *Learned) *Design {
	c := d.Clone()
	if c == nil || rep == nil {
		return c
	}
	declared := func(name string) bool {
		return slices.ContainsFunc(c.Tables, func(t *DesignTable) bool { return t.Name == name })
	}
	if t := c.unnamed(); t != nil {
		for _, pr := range rep.Patterns {
			if pr.Table != "" && !declared(pr.Table) && (pr.FromTraffic || t.hasPattern(pr.Name)) {
				t.Name = pr.Table
				break
			}
		}
		for _, table := range rep.FromTrafficTables {
			if t.Name == "" && table != "" && !declared(table) {
				t.Name = table
			}
		}
	}
	for _, pr := range rep.Patterns {
		t := c.table(pr.Table)
		if !pr.FromTraffic || t == nil || !t.FromTraffic || t.Name != pr.Table || t.hasPattern(pr.Name) {
			continue
		}
		if pt := t.learnedFrom(pr); pt != nil {
			t.Patterns = append(t.Patterns, pt)
		}
	}
	return c
}

// learnedFrom rebuilds a pattern t took from the traffic from its
// report, or nil when the report is not of one (shapeOf makes them:
// pk = the partition key attribute's variable, and a sort key condition
// on the sort key attribute's variable or a begins_with prefix).
func (t *DesignTable) learnedFrom(pr LearnedPattern) *Pattern {
	acc, ok := accessOf(pr.Access)
	if !ok || acc == Scan {
		return nil
	}
	index := ""
	if pr.ServedBy != "table key" {
		var found bool
		if index, found = strings.CutPrefix(pr.ServedBy, "index "); !found {
			return nil
		}
	}
	key, ok := t.keyOf(index)
	if !ok {
		return nil
	}
	pt := &Pattern{Name: pr.Name, Access: acc, Index: index, Entities: pr.Entities, FromTraffic: true,
		PK: varTemplate(key.Partition, "pk"), HasPK: true}
	rest, ok := strings.CutPrefix(pr.Condition, "pk = "+pt.PK.String())
	if !ok {
		return nil
	}
	if rest == "" {
		return pt
	}
	rest, ok = strings.CutPrefix(rest, " and sk ")
	if !ok || key.Sort == "" {
		return nil
	}
	skVar := varTemplate(key.Sort, "sk")
	if prefix, found := strings.CutPrefix(rest, SortBeginsWith.String()+" "); found {
		sk, err := parseTemplate(prefix)
		if err != nil || !sk.literal() && sk.text != skVar.text {
			return nil
		}
		pt.SortOp, pt.SK = SortBeginsWith, sk
		return pt
	}
	if rest == SortBetween.String()+" "+skVar.text+" and "+skVar.text {
		pt.SortOp, pt.SK, pt.SK2 = SortBetween, skVar, skVar
		return pt
	}
	for _, op := range []SortOp{SortEQ, SortLT, SortLE, SortGT, SortGE} {
		if rest == op.String()+" "+skVar.text {
			pt.SortOp, pt.SK = op, skVar
			return pt
		}
	}
	return nil
}
