package insights

import "strings"

// Design is a declared single-table design: for each table its key, its
// indexes, the entities it holds (each with a key template per key
// attribute) and the access patterns, each served by the table's key or
// an index. ParseDesign reads one from a design file, a NoSQL Workbench
// data model or a OneTable schema.
type Design struct {
	Tables []*DesignTable
	// Format is the file's format: FormatText, FormatWorkbench or
	// FormatOneTable.
	Format string
}

// DesignTable is one table of a design.
type DesignTable struct {
	Name     string
	Key      KeyDef
	Indexes  []*IndexDef
	Entities []*Entity
	Patterns []*Pattern
	Line     int
	At       string // where a JSON file declares it ("DataModel[0]"); "" in a design file
	// Unnamed: the format names no table (a OneTable schema); the first
	// request to a table the design does not name names it (Recorder),
	// and until then the table answers for any name.
	Unnamed bool
	// FromTraffic: the format declares no access patterns (a
	// CloudFormation template); the Recorder takes them from the traffic.
	FromTraffic bool
}

// KeyDef names the partition and sort key attributes ("" for none).
type KeyDef struct {
	Partition, Sort string
}

// IndexDef is one secondary index of a design.
type IndexDef struct {
	Name string
	Key  KeyDef
	Line int
	At   string
}

// Entity is one item type: its name and, for each key attribute of the
// table and of the indexes it appears in, the template of its value.
type Entity struct {
	Name  string
	Attrs map[string]Template
	Line  int
	At    string
}

// Pattern is one access pattern: what it reads or writes (Access), the
// entities it expects, and the key condition that serves it on the
// table's key or an index (Index).
type Pattern struct {
	Name        string
	Description string
	Access      Access
	Entities    []string
	Index       string   // "" for the table's key
	PK          Template // the partition key; unset for a scan
	HasPK       bool
	SortOp      SortOp
	SK, SK2     Template // SK2: between's upper bound
	Order       string   // "asc", "desc" or "": informational
	Line        int
	At          string
	// Derived: the file declares no pattern; this one was derived from
	// an entity's key templates (design_derive.go).
	Derived bool
	// FromTraffic: the format declares no pattern; this one is a
	// request's shape (design_traffic.go).
	FromTraffic bool
}

// keyOf returns the key of the pattern's table or index, and whether it
// exists.
func (t *DesignTable) keyOf(index string) (KeyDef, bool) {
	if index == "" {
		return t.Key, true
	}
	if x := t.index(index); x != nil {
		return x.Key, true
	}
	return KeyDef{}, false
}

// index returns the index called name, or nil.
func (t *DesignTable) index(name string) *IndexDef {
	for _, x := range t.Indexes {
		if x.Name == name {
			return x
		}
	}
	return nil
}

// entity returns the entity called name, or nil.
func (t *DesignTable) entity(name string) *Entity {
	for _, e := range t.Entities {
		if e.Name == name {
			return e
		}
	}
	return nil
}

// pattern returns the pattern called name, or nil.
func (t *DesignTable) pattern(name string) *Pattern {
	for _, p := range t.Patterns {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// table returns the design's table called name, or nil.
func (d *Design) table(name string) *DesignTable {
	if d == nil {
		return nil
	}
	for _, t := range d.Tables {
		if t.Name == name {
			return t
		}
	}
	return d.unnamed()
}

// unnamed returns the design's one table whose name is still to be
// taken from the traffic, or nil: once a request named it, it answers
// for that name only.
func (d *Design) unnamed() *DesignTable {
	for _, t := range d.Tables {
		if t.Unnamed && t.Name == "" {
			return t
		}
	}
	return nil
}

// isKeyAttr reports whether attr is a key attribute of the table or of
// one of its indexes.
func (t *DesignTable) isKeyAttr(attr string) bool {
	if attr == t.Key.Partition || attr == t.Key.Sort {
		return true
	}
	for _, x := range t.Indexes {
		if attr == x.Key.Partition || attr == x.Key.Sort {
			return true
		}
	}
	return false
}

// ServedBy says what serves the pattern: the table's key, an index, or a
// Scan of either.
func (p *Pattern) ServedBy() string {
	what := "table key"
	if p.Index != "" {
		what = "index " + p.Index
	}
	if p.Access == Scan {
		return "Scan of " + what
	}
	return what
}

// Condition renders the pattern's key condition as a design writes it:
// "pk = USER#{userId} and sk begins_with POST#".
func (p *Pattern) Condition() string { return p.conditionText() }

// conditionText renders the pattern's key condition as a design writes
// it.
func (p *Pattern) conditionText() string {
	var parts []string
	if p.HasPK {
		parts = append(parts, "pk = "+p.PK.String())
	}
	switch p.SortOp {
	case SortNone:
	case SortBetween:
		parts = append(parts, "sk between "+p.SK.String()+" and "+p.SK2.String())
	default:
		parts = append(parts, "sk "+p.SortOp.String()+" "+p.SK.String())
	}
	return strings.Join(parts, " and ")
}
