package lower

import (
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The key a WHERE clause names: the full primary key of a write or a
// single-item read, or the key conditions of a SELECT.

// conjuncts splits a WHERE clause into its top-level AND conjuncts
// (through parentheses).
func conjuncts(e partiql.Expr) []partiql.Expr {
	switch e := e.(type) {
	case *partiql.Binary:
		if e.Op == partiql.AND {
			return append(conjuncts(e.X), conjuncts(e.Y)...)
		}
	case *partiql.Paren:
		if _, ok := e.X.(*partiql.Binary); ok {
			if inner := conjuncts(e.X); len(inner) > 1 {
				return inner
			}
		}
	}
	return []partiql.Expr{e}
}

// keyEquality reports whether c is `name = value` (either way round) and
// returns the value expression.
func keyEquality(c partiql.Expr, name string) (partiql.Expr, bool) {
	b, ok := c.(*partiql.Binary)
	if !ok || b.Op != partiql.EQ {
		return nil, false
	}
	if isTopName(b.X, name) && isValue(b.Y) {
		return b.Y, true
	}
	if isTopName(b.Y, name) && isValue(b.X) {
		return b.X, true
	}
	return nil, false
}

// keyAttrs lists a key schema's attributes: the partition key, then the
// sort key if any.
func keyAttrs(ks storage.KeySchema) []storage.KeyAttr {
	if ks.HasSort() {
		return []storage.KeyAttr{ks.Partition, ks.Sort}
	}
	return []storage.KeyAttr{ks.Partition}
}

// fullKey finds an equality on every key attribute among where's
// conjuncts: it returns the key attributes' values and the remaining
// conjuncts (the statement's condition). Errors are of the item (Item).
func (l *lowerer) fullKey(ks storage.KeySchema, where partiql.Expr) (storage.Item, []partiql.Expr, *Error) {
	if where == nil {
		return nil, nil, itemErr(errPlain(msgKeyEquality))
	}
	rest := conjuncts(where)
	key := storage.Item{}
	for _, a := range keyAttrs(ks) {
		found := false
		for i, c := range rest {
			ve, ok := keyEquality(c, a.Name)
			if !ok {
				continue
			}
			v, err := l.value(ve, valuePath{})
			if err != nil {
				return nil, nil, err
			}
			if v.Kind() != a.Kind {
				return nil, nil, itemErr(errPlain(sprintf(msgKeyType, a.Name)))
			}
			key[a.Name] = v
			rest = append(rest[:i:i], rest[i+1:]...)
			found = true
			break
		}
		if !found {
			return nil, nil, itemErr(errPlain(msgKeyEquality))
		}
	}
	return key, rest, nil
}

// conditionOf lowers conjuncts and joins them with AND; nil when there are
// none.
func (l *lowerer) conditionOf(cs []partiql.Expr) (expr.Expr, *Error) {
	var out expr.Expr
	for _, c := range cs {
		x, err := l.condition(c)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = x
		} else {
			out = &expr.BinaryExpr{OpPos: c.Pos(), Op: expr.AND, X: out, Y: x}
		}
	}
	return out, nil
}

// exists is attribute_exists(<partition key>): the item exists.
func exists(ks storage.KeySchema, not bool) expr.Expr {
	fn := "attribute_exists"
	if not {
		fn = "attribute_not_exists"
	}
	return &expr.CallExpr{Offset: -1, Fun: fn, Args: []expr.Expr{
		&expr.PathExpr{Elems: []expr.PathElem{{Offset: -1, Name: ks.Partition.Name, Resolved: true}}}}}
}

// keyConditions finds, among the WHERE clause's top-level conjuncts, an
// equality on the partition key (or else pk IN a list of values) and at
// most one condition on the sort key that a key condition can express,
// and lowers them: one key condition tree per partition to read, none when
// the partition key is not fixed. equality reports a pk = value. A key
// value of the wrong type is DynamoDB Local's error.
func (l *lowerer) keyConditions(ks storage.KeySchema, where partiql.Expr) (trees []expr.Expr, equality bool, err *Error) {
	if where == nil {
		return nil, false, nil
	}
	cs := conjuncts(where)
	var parts []func() (expr.Expr, *Error)
	for _, c := range cs {
		if _, ok := keyEquality(c, ks.Partition.Name); ok {
			if err := l.checkKeyKinds(c, ks.Partition); err != nil {
				return nil, false, err
			}
			parts, equality = []func() (expr.Expr, *Error){func() (expr.Expr, *Error) { return l.condition(c) }}, true
			break
		}
	}
	if parts == nil {
		for _, c := range cs {
			in, ok := c.(*partiql.In)
			if !ok || in.Not || in.Right != nil || !isTopName(in.X, ks.Partition.Name) || len(in.Elems) == 0 || !allValues(in.Elems) {
				continue
			}
			for _, v := range in.Elems {
				parts = append(parts, func() (expr.Expr, *Error) {
					return l.condition(&partiql.Binary{OpPos: in.OpPos, Op: partiql.EQ, X: in.X, Y: v})
				})
			}
			break
		}
	}
	var sortCond partiql.Expr
	if parts != nil && ks.HasSort() {
		for _, c := range cs {
			if sortKeyCondition(c, ks.Sort.Name) {
				if err := l.checkKeyKinds(c, ks.Sort); err != nil {
					return nil, false, err
				}
				sortCond = c
				break
			}
		}
	}
	for _, part := range parts {
		x, err := part()
		if err != nil {
			return nil, false, err
		}
		if sortCond != nil {
			y, err := l.condition(sortCond)
			if err != nil {
				return nil, false, err
			}
			x = &expr.BinaryExpr{OpPos: sortCond.Pos(), Op: expr.AND, X: x, Y: y}
		}
		trees = append(trees, x)
	}
	return trees, equality, nil
}

func allValues(xs []partiql.Expr) bool {
	for _, x := range xs {
		if !isValue(x) {
			return false
		}
	}
	return true
}

// sortKeyCondition reports whether c is a key condition on the sort key:
// sk op value (op one of = < <= > >=), sk BETWEEN value AND value, or
// begins_with(sk, value).
func sortKeyCondition(c partiql.Expr, name string) bool {
	switch c := c.(type) {
	case *partiql.Binary:
		switch c.Op {
		case partiql.EQ, partiql.LT, partiql.LE, partiql.GT, partiql.GE:
			return isTopName(c.X, name) && isValue(c.Y)
		}
	case *partiql.Between:
		return !c.Not && isTopName(c.X, name) && isValue(c.Lo) && isValue(c.Hi)
	case *partiql.Call:
		return strings.EqualFold(c.Fun, "begins_with") && len(c.Args) == 2 && isTopName(c.Args[0], name) && isValue(c.Args[1])
	}
	return false
}

// checkKeyKinds checks the values a key condition conjunct c compares key
// attribute a with (a = v, a op v, a BETWEEN v AND w, begins_with(a, v))
// against a's type, with DynamoDB Local's message (no AWS record was
// found). Two BETWEEN bounds of different types are left to BETWEEN's own
// error.
func (l *lowerer) checkKeyKinds(c partiql.Expr, a storage.KeyAttr) *Error {
	var vs []partiql.Expr
	switch c := c.(type) {
	case *partiql.Binary:
		if isTopName(c.X, a.Name) {
			vs = []partiql.Expr{c.Y}
		} else {
			vs = []partiql.Expr{c.X}
		}
	case *partiql.Between:
		vs = []partiql.Expr{c.Lo, c.Hi}
	}
	kinds := make([]storage.Kind, len(vs))
	for i, e := range vs {
		v, err := l.value(e, valuePath{})
		if err != nil {
			return err
		}
		kinds[i] = v.Kind()
	}
	if len(kinds) == 2 && kinds[0] != kinds[1] {
		return nil
	}
	for _, k := range kinds {
		if k != a.Kind {
			return errPlain(sprintf(msgKeyType, a.Name))
		}
	}
	return nil
}
