package expr

import "github.com/dynamoemu/dynamoemu/internal/storage"

// A legacy QueryFilter or ScanFilter is a list of conditions, each on one
// top-level attribute, all joined by one operator: Filter keeps it as that
// list (condProgram.terms) and Eval and Match go through it, instead of a
// tree of a path, a value, a comparison and their joins for each
// condition (432 bytes a condition of a 4 MB ScanFilter, six times its
// text: BenchmarkOversizeMemory). The rules are the expression's (eval.go,
// eval_encoded.go), and the tree the conditions stand for is built when
// String asks for it; TestLegacyFilterTerms holds the two together.

// filterOp is a legacy comparison operator of a filter.
type filterOp uint8

const (
	legacyEQ filterOp = iota
	legacyNE
	legacyLE
	legacyLT
	legacyGE
	legacyGT
	legacyNull
	legacyNotNull
	legacyContains
	legacyNotContains
	legacyBeginsWith
	legacyIn
	legacyBetween
)

// filterOpNames are the operators' names, as the requests give them.
var filterOpNames = [...]string{
	legacyEQ: "EQ", legacyNE: "NE", legacyLE: "LE", legacyLT: "LT", legacyGE: "GE", legacyGT: "GT",
	legacyNull: "NULL", legacyNotNull: "NOT_NULL", legacyContains: "CONTAINS", legacyNotContains: "NOT_CONTAINS",
	legacyBeginsWith: "BEGINS_WITH", legacyIn: "IN", legacyBetween: "BETWEEN",
}

// filterOpOf returns the operator called name, which checkLegacyOp
// found valid.
func filterOpOf(name string) filterOp {
	for op, n := range filterOpNames {
		if n == name {
			return filterOp(op)
		}
	}
	panic("expr: unchecked legacy operator " + name)
}

// comparison is the token of EQ, NE, LE, LT, GE or GT.
func (op filterOp) comparison() Token {
	return [...]Token{legacyEQ: EQ, legacyNE: NE, legacyLE: LE, legacyLT: LT, legacyGE: GE, legacyGT: GT}[op]
}

// legacyTerm is one condition of a legacy filter: its operator and its
// values, vals[first:first+n] of its Condition's.
type legacyTerm struct {
	op       filterOp
	form     expectedForm // an Expected entry's members, as read (0 in a filter)
	first, n int32
}

// values returns the term's values among the condition's vals.
func (t legacyTerm) values(vals []storage.Value) []storage.Value {
	return vals[t.first : t.first+t.n]
}

// evalLegacy is Eval for a legacy filter.
func (cond *Condition) evalLegacy(item storage.Item) bool {
	and := cond.join == AND
	for i, t := range cond.terms {
		v, ok := item[cond.attrs[i]]
		if t.eval(v, ok, t.values(cond.vals)) != and {
			return !and
		}
	}
	return and
}

// eval is the term on the value a of its attribute (ok: the item has
// one): what its tree (legacyBuilder.condition) answers.
func (t legacyTerm) eval(a storage.Value, ok bool, vals []storage.Value) bool {
	switch t.op {
	case legacyEQ, legacyNE, legacyLE, legacyLT, legacyGE, legacyGT:
		return compare(t.op.comparison(), a, ok, vals[0], true)
	case legacyNull:
		return !ok
	case legacyNotNull:
		return ok
	case legacyContains:
		return ok && contains(a, vals[0])
	case legacyNotContains:
		return ok && !contains(a, vals[0])
	case legacyBeginsWith:
		return ok && beginsWith(a, vals[0])
	case legacyIn:
		if ok {
			for _, w := range vals {
				if storage.Equal(a, w) {
					return true
				}
			}
		}
		return false
	case legacyBetween:
		return ok && between(a, vals[0], vals[1])
	}
	return false
}

// matchLegacy is Match for a legacy filter, once the item's attributes
// are looked up.
func (m *Matcher) matchLegacy() bool {
	cond := m.cond
	and := cond.join == AND
	for i, t := range cond.terms {
		var a operand
		if v := m.attrs[i]; v.IsValid() {
			a = itemOperand(v)
		}
		if t.match(a, t.values(cond.vals)) != and {
			return !and
		}
	}
	return and
}

// match is eval on an operand of the stored item.
func (t legacyTerm) match(a operand, vals []storage.Value) bool {
	switch t.op {
	case legacyEQ, legacyNE, legacyLE, legacyLT, legacyGE, legacyGT:
		return compareOperands(t.op.comparison(), a, operand{val: vals[0], ok: true})
	case legacyNull:
		return !a.ok
	case legacyNotNull:
		return a.ok
	case legacyContains:
		return a.ok && containsOperand(a, operand{val: vals[0], ok: true})
	case legacyNotContains:
		return a.ok && !containsOperand(a, operand{val: vals[0], ok: true})
	case legacyBeginsWith:
		return a.ok && beginsWithOperands(a, operand{val: vals[0], ok: true})
	case legacyIn:
		if a.ok {
			for _, w := range vals {
				if equalOperands(a, operand{val: w, ok: true}) {
					return true
				}
			}
		}
		return false
	case legacyBetween:
		return a.ok && betweenOperands(a, operand{val: vals[0], ok: true}, operand{val: vals[1], ok: true})
	}
	return false
}

// legacyTree returns the tree a legacy filter stands for, which it prints
// as: each condition parenthesized, joined in a balanced tree (combine),
// its values the placeholders :legacy0, :legacy1... in order.
func (cond *Condition) legacyTree() Expr {
	var b legacyBuilder
	conds := make([]Expr, len(cond.terms))
	for i, t := range cond.terms {
		conds[i] = b.condition(cond.attrs[i], filterOpNames[t.op], t.values(cond.vals))
	}
	return combine(conds, cond.join)
}
