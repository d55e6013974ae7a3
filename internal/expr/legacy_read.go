package expr

import (
	"slices"
	"sort"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// LegacyFilter is a legacy QueryFilter or ScanFilter as the request
// decoder reads it, already in the filter's form: the names (the filter's
// attributes), a term each (its operator and a span of the values) and
// the values in one array, which FilterOf makes the filter of without a
// copy. A 4 MB ScanFilter of 58,254 conditions held 6.3 times its body at
// its peak as a map of structs (a slot, an operator string and a value
// array an entry), then a slice of NamedCondition and the filter made
// from that (BenchmarkOversizeMemory); it is now 68 bytes a condition.
type LegacyFilter struct {
	// names and terms are the entries, terms[i] on names[i]: after
	// Distinct, sorted by name and each name once (the last given
	// counts, as in a map).
	names []string
	terms []legacyTerm
	vals  []storage.Value
	// odd holds the operator, as given, of each name whose operator is
	// none of the thirteen (and not ""), for the enum's violation.
	odd map[string]LegacyOp
}

// legacyNoOp is the operator of a term whose ComparisonOperator is ""
// (absent or null) or none of the thirteen.
const legacyNoOp = filterOp(len(filterOpNames))

// Len is the number of entries.
func (fc *LegacyFilter) Len() int { return len(fc.names) }

// Names are the attribute names the entries test (after Distinct: each
// once, sorted; nil for a nil filter). The slice is the caller's.
func (fc *LegacyFilter) Names() []string {
	if fc == nil {
		return nil
	}
	return append([]string(nil), fc.names...)
}

// Grow makes room for n more entries of about perEntry values each.
func (fc *LegacyFilter) Grow(n, perEntry int) {
	fc.names = slices.Grow(fc.names, n)
	fc.terms = slices.Grow(fc.terms, n)
	fc.vals = slices.Grow(fc.vals, n*perEntry)
}

// Add appends an entry named name of operator op (as given, "" when
// absent) whose values are vals (copied).
func (fc *LegacyFilter) Add(name, op string, vals []storage.Value) {
	fc.add(name, op, 0)
	fc.vals = append(fc.vals, vals...)
	fc.terms[len(fc.terms)-1].n = int32(len(vals))
}

// add appends an entry named name of operator op (as given) and form,
// with no values yet: the caller appends them and sets the term's n.
func (fc *LegacyFilter) add(name, op string, form expectedForm) {
	code := legacyNoOp
	for i, n := range filterOpNames {
		if n == op {
			code = filterOp(i)
			break
		}
	}
	switch {
	case code == legacyNoOp && op != "":
		if fc.odd == nil {
			fc.odd = map[string]LegacyOp{}
		}
		fc.odd[name] = LegacyOp(op)
	case fc.odd != nil:
		delete(fc.odd, name) // a name given again: its last operator counts
	}
	fc.names = append(fc.names, name)
	fc.terms = append(fc.terms, legacyTerm{op: code, form: form, first: int32(len(fc.vals))})
}

// byName sorts entries by name, in place.
type byName LegacyFilter

func (b *byName) Len() int           { return len(b.names) }
func (b *byName) Less(i, j int) bool { return b.names[i] < b.names[j] }
func (b *byName) Swap(i, j int) {
	b.names[i], b.names[j] = b.names[j], b.names[i]
	b.terms[i], b.terms[j] = b.terms[j], b.terms[i]
}

// Distinct sorts the entries by name and keeps the last of each name
// given more than once, as decoding into a map does. The values of the
// entries dropped stay in the values, unread.
func (fc *LegacyFilter) Distinct() {
	if !sort.IsSorted((*byName)(fc)) {
		sort.Stable((*byName)(fc))
	}
	n := 0
	for i, name := range fc.names {
		if i+1 < len(fc.names) && fc.names[i+1] == name {
			continue
		}
		fc.names[n], fc.terms[n] = name, fc.terms[i]
		n++
	}
	clear(fc.names[n:])
	fc.names, fc.terms = fc.names[:n], fc.terms[:n]
}

// LegacyOp is a legacy ComparisonOperator as a request gives it.
type LegacyOp string

// String is the operator's text.
func (op LegacyOp) String() string { return string(op) }

// UnknownOps are the entries whose operator is given and is none of the
// thirteen, by name, for the enum's violation (nil when there are none,
// or of a nil fc).
func (fc *LegacyFilter) UnknownOps() map[string]LegacyOp {
	if fc == nil {
		return nil
	}
	return fc.odd
}

// FilterOf compiles a legacy QueryFilter or ScanFilter, read as fc (its
// entries distinct and sorted: Distinct), with its ConditionalOperator.
// Returns nil (no filter) for no entries. The filter is its conditions in
// a list, evaluated one after another (legacy_filter.go), not a tree; its
// attributes, terms and values are fc's, not copies, so fc is not to be
// used again.
func FilterOf(fc *LegacyFilter, conditionalOperator string) (*Condition, error) {
	return fc.compile(conditionalOperator, func(i int) *Error {
		t := fc.terms[i]
		op := ""
		if t.op != legacyNoOp {
			op = filterOpNames[t.op]
		}
		return checkLegacyOp(op, t.values(fc.vals))
	})
}

// compile checks fc's names, conditionalOperator, each entry (by check,
// in name order: it may rewrite the entry's term) and their number, in
// that order, and makes the condition of fc's list, nil for no entries.
func (fc *LegacyFilter) compile(conditionalOperator string, check func(i int) *Error) (*Condition, error) {
	for _, name := range fc.names {
		if name == "" {
			return nil, errPlain(MsgEmptyAttributeName)
		}
	}
	join, err := conditionalOp(conditionalOperator)
	if err != nil {
		return nil, err
	}
	for i := range fc.terms {
		if err := check(i); err != nil {
			return nil, err
		}
	}
	if err := checkConditionCount(conditionalOperator, len(fc.names)); err != nil {
		return nil, err
	}
	if len(fc.names) == 0 {
		return nil, nil
	}
	p := &condProgram{attrs: fc.names, terms: fc.terms, join: join}
	return p.bindOwned(fc.vals), nil
}

// filterOfNamed is FilterOf of conditions given as a slice (each name
// once), sorted here by name in place.
func filterOfNamed(filter []NamedCondition, conditionalOperator string) (*Condition, error) {
	SortByName(filter)
	var fc LegacyFilter
	fc.Grow(len(filter), 1)
	for _, f := range filter {
		fc.Add(f.Name, f.ComparisonOperator, f.AttributeValueList)
	}
	fc.Distinct()
	return FilterOf(&fc, conditionalOperator)
}
