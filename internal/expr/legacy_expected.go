package expr

import "github.com/dynamoemu/dynamoemu/internal/storage"

// LegacyExpected is the legacy Expected of PutItem, UpdateItem or
// DeleteItem as the request decoder reads it: a LegacyFilter's names,
// terms and values, each term with the members its entry gave (its
// form), which ExpectedOf checks and turns into the filter's operators
// (Exists false is NULL, a lone Value is EQ). A 4 MB Expected of 58,254
// conditions read as a map of entries, then a map of LegacyCondition and
// a tree of them took the server's peak to 15.5 times its body
// (TestOversizedMembers in cmd/dynamoemu).
type LegacyExpected struct {
	fc LegacyFilter
}

// expectedForm is which members an Expected entry gave, beside its
// ComparisonOperator's code: ExpectedOf's checks need no more.
type expectedForm uint8

const (
	formOp         expectedForm = 1 << iota // ComparisonOperator, not ""
	formValue                               // Value, not null
	formList                                // AttributeValueList, not null (perhaps empty)
	formExists                              // Exists, not null
	formExistsTrue                          // Exists true
)

// Len is the number of entries.
func (e *LegacyExpected) Len() int { return e.fc.Len() }

// Names are the attribute names the entries test (LegacyFilter.Names).
func (e *LegacyExpected) Names() []string {
	if e == nil {
		return nil
	}
	return e.fc.Names()
}

// Grow makes room for n more entries of about perEntry values each.
func (e *LegacyExpected) Grow(n, perEntry int) { e.fc.Grow(n, perEntry) }

// Distinct sorts the entries by name and keeps the last of a name
// given more than once, as decoding into a map does.
func (e *LegacyExpected) Distinct() { e.fc.Distinct() }

// UnknownOps are the entries whose operator is given and is none of the
// thirteen, by name, for the enum's violation (nil when there are none,
// or of a nil e).
func (e *LegacyExpected) UnknownOps() map[string]LegacyOp {
	if e == nil {
		return nil
	}
	return e.fc.odd
}

// Add appends the entry c named name: its AttributeValueList is given
// when not nil (empty or not), its values are copied. Its values are the
// list's, then Value's.
func (e *LegacyExpected) Add(name string, c LegacyCondition) {
	var form expectedForm
	if c.ComparisonOperator != "" {
		form |= formOp
	}
	if c.Value != nil {
		form |= formValue
	}
	if c.AttributeValueList != nil {
		form |= formList
	}
	if c.Exists != nil {
		form |= formExists
		if *c.Exists {
			form |= formExistsTrue
		}
	}
	fc := &e.fc
	fc.add(name, c.ComparisonOperator, form)
	fc.vals = append(fc.vals, c.AttributeValueList...)
	if c.Value != nil {
		fc.vals = append(fc.vals, *c.Value)
	}
	t := &fc.terms[len(fc.terms)-1]
	t.n = int32(len(fc.vals)) - t.first
}

// Conditions are the entries as the map Expected takes (after Distinct:
// each name once).
func (e *LegacyExpected) Conditions() map[string]LegacyCondition {
	fc := &e.fc
	m := make(map[string]LegacyCondition, len(fc.names))
	for i, name := range fc.names {
		t := fc.terms[i]
		vals := t.values(fc.vals)
		c := LegacyCondition{ComparisonOperator: t.opName(name, fc.odd)}
		if t.form&formValue != 0 {
			c.Value = &vals[len(vals)-1]
			vals = vals[:len(vals)-1]
		}
		if t.form&formList != 0 {
			c.AttributeValueList = append([]storage.Value{}, vals...)
		}
		if t.form&formExists != 0 {
			exists := t.form&formExistsTrue != 0
			c.Exists = &exists
		}
		m[name] = c
	}
	return m
}

// opName is the term's ComparisonOperator as given ("" when absent).
func (t legacyTerm) opName(name string, odd map[string]LegacyOp) string {
	switch {
	case t.form&formOp == 0:
		return ""
	case t.op == legacyNoOp:
		return string(odd[name])
	}
	return filterOpNames[t.op]
}

// ExpectedOf compiles a legacy Expected, read as e (Distinct: sorted, each
// name once), with its ConditionalOperator, as Expected compiles the map:
// the same checks in the same order, and the same condition, kept as a
// filter's list (legacy_filter.go) rather than a tree. Returns nil (no
// condition) for no entries. The condition keeps e's arrays, so e is not
// to be used again.
func ExpectedOf(e *LegacyExpected, conditionalOperator string) (*Condition, error) {
	fc := &e.fc
	return fc.compile(conditionalOperator, func(i int) *Error {
		t, err := fc.terms[i].expected(fc.names[i], fc.odd, fc.vals)
		fc.terms[i] = t
		return err
	})
}

// expected checks the Expected entry t named name, as Expected does, and
// returns it as a filter's term: Exists false is NULL, a Value without an
// operator EQ.
func (t legacyTerm) expected(name string, odd map[string]LegacyOp, vals []storage.Value) (legacyTerm, *Error) {
	f := t.form
	switch {
	case f&formValue != 0 && f&formList != 0:
		return t, errPlain(sprintf(msgLegacyValueList, name))
	case f&formExists != 0 && f&formOp != 0:
		return t, errPlain(sprintf(msgLegacyExistsOp, name))
	case f&formList != 0 && f&formOp == 0:
		return t, errPlain(sprintf(msgLegacyListNoOp, name))
	case f&formOp != 0:
		op := t.opName(name, odd)
		if t.op != legacyNoOp && f&(formList|formValue) == 0 && legacyOps()[op].args != 0 {
			return t, errPlain(sprintf(msgLegacyNeedValue, op, name))
		}
		if err := checkLegacyOp(op, t.values(vals)); err != nil {
			return t, err
		}
	case f&formExists != 0 && f&formExistsTrue == 0:
		if f&formValue != 0 {
			return t, errPlain(sprintf(msgLegacyExistsFalse, name))
		}
		t.op = legacyNull
	case f&formValue != 0:
		t.op = legacyEQ
	case f&formExists != 0:
		return t, errPlain(sprintf(msgLegacyExistsTrue, name))
	default:
		return t, errPlain(sprintf(msgLegacyExistsNull, name))
	}
	return t, nil
}
