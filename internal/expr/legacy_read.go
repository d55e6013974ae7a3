package expr

import (
	"cmp"
	"slices"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// FilterConditions is a legacy QueryFilter or ScanFilter as the request
// decoder reads it: its entries in a list, their values in one array,
// instead of a map of structs that each hold a slice of values. A 4 MB
// ScanFilter of 58,254 conditions held 6.3 times its body at its peak
// as the map, its value arrays and operator strings, then a slice of
// NamedCondition and the filter made from that (BenchmarkOversizeMemory);
// the list is about 80 bytes a condition, and FilterOf makes the filter
// from it with the names and values as they are.
type FilterConditions struct {
	// Entries are the map's entries: after Distinct, sorted by name and
	// each name once (the last given counts, as in a map).
	Entries []FilterEntry
	// Vals hold the entries' values, each entry's a span of them.
	Vals []storage.Value
}

// FilterEntry is one entry of FilterConditions: the attribute's name,
// its ComparisonOperator as given ("" when absent or null) and its
// AttributeValueList, Vals[First:First+N].
type FilterEntry struct {
	Name, Op string
	First, N int32
}

// Values is the entry e's AttributeValueList.
func (fc *FilterConditions) Values(e FilterEntry) []storage.Value {
	return fc.Vals[e.First : e.First+e.N]
}

// Add appends an entry named name of operator op whose values are vals,
// interning the operator's name when it is one of the thirteen.
func (fc *FilterConditions) Add(name, op string, vals []storage.Value) {
	for _, n := range filterOpNames {
		if n == op {
			op = n
			break
		}
	}
	fc.Entries = append(fc.Entries, FilterEntry{Name: name, Op: op, First: int32(len(fc.Vals)), N: int32(len(vals))})
	fc.Vals = append(fc.Vals, vals...)
}

// Distinct sorts the entries by name and keeps the last of each name
// given more than once, as decoding into a map does. The values of the
// entries dropped stay in Vals, unread.
func (fc *FilterConditions) Distinct() {
	slices.SortStableFunc(fc.Entries, func(a, b FilterEntry) int { return cmp.Compare(a.Name, b.Name) })
	n := 0
	for i, e := range fc.Entries {
		if i+1 < len(fc.Entries) && fc.Entries[i+1].Name == e.Name {
			continue
		}
		fc.Entries[n] = e
		n++
	}
	clear(fc.Entries[n:])
	fc.Entries = fc.Entries[:n]
}

// FilterOf compiles a legacy QueryFilter or ScanFilter, read as fc (its
// entries distinct and sorted: Distinct), with its ConditionalOperator.
// Returns nil (no filter) for no entries. The filter is its conditions in
// a list, evaluated one after another (legacy_filter.go), not a tree; its
// attributes are fc's names and its values fc's Vals, not copies.
func FilterOf(fc *FilterConditions, conditionalOperator string) (*Condition, error) {
	for _, e := range fc.Entries {
		if e.Name == "" {
			return nil, errPlain(MsgEmptyAttributeName)
		}
	}
	join, err := conditionalOp(conditionalOperator)
	if err != nil {
		return nil, err
	}
	// Sized at once: a filter of 58,254 conditions (a 4 MB Scan)
	// allocated 16.7 MB for its values grown by append, and a tree of
	// 432 bytes a condition, which the list's 12 bytes and an attribute
	// replace (BenchmarkOversizeMemory).
	p := &condProgram{attrs: make([]string, len(fc.Entries)), terms: make([]legacyTerm, len(fc.Entries)), join: join}
	for i, e := range fc.Entries {
		if err := checkLegacyOp(e.Op, fc.Values(e)); err != nil {
			return nil, err
		}
		p.attrs[i] = e.Name
		p.terms[i] = legacyTerm{op: filterOpOf(e.Op), first: e.First, n: e.N}
	}
	if err := checkConditionCount(conditionalOperator, len(fc.Entries)); err != nil {
		return nil, err
	}
	if len(fc.Entries) == 0 {
		return nil, nil
	}
	return p.bindOwned(fc.Vals), nil
}
