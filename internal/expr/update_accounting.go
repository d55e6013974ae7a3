package expr

import (
	"strconv"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// OnlyRemoves reports whether every action of u takes something away
// (REMOVE, DELETE; AttributeUpdates' DELETE with or without a value) and
// u has at least one. Such an update of an absent item writes nothing:
// AWS does not create the item (ScyllaDB's test_item.py, run against AWS:
// "an update that only deletes an attribute on a non-existent item, does
// NOT create it", for AttributeUpdates DELETE and UpdateExpression REMOVE;
// the API reference of AttributeUpdates: "DELETE - Nothing happens; there
// is no attribute to delete").
func (u *Update) OnlyRemoves() bool {
	if u == nil || len(u.actions) == 0 {
		return false
	}
	for _, a := range u.actions {
		if a.op != REMOVE && a.op != DELETE {
			return false
		}
	}
	return true
}

// UpdateItem's item size accounting. Besides the item it produces (at
// most 400 KB, as every write), UpdateItem measures the statement: what an
// UpdateExpression writes and a fixed cost per clause, and refuses an
// update whose statement figure is over 400 KB too. So the key attributes
// and the attributes the statement leaves alone are out of that figure,
// and with a short key an item PutItem would take can be too large for
// UpdateItem. AWS documents none of it; the figures are AWS's as measured
// in paritysuite/dynamodb-conformance tests/tier3/limits/
// itemSizeBySurface.test.ts (eu-west-2, bisected to the byte and read
// back, 2026-08-18 to 2026-10-09; the rule applies in 22 regions, us-east-1
// among them; ten size an update flat):
//
//	the update                       3
//	SET target = v                   19 + target + v
//	ADD target v                     19 + target + v (a set: the members it adds)
//	REMOVE target, DELETE target v   1 + target (nothing removed is charged)
//	a target                         its first name, + 4 and the element for
//	                                 each later element
//	a value operand (:v)             its size (storage.ValueSize), at every use
//	a path operand                   1, + 14 and the element for each element
//	x + y, x - y                     34, 37, + both operands
//	if_not_exists(p, v)              39 + both operands
//	list_append(x, y)                37 + both operands
//
// An element is a name's bytes (aliases resolved) or a list index's digits.
// AttributeUpdates (the legacy parameter) is measured on the produced item
// alone: StatementCharge is 0 for it.
const (
	chargeUpdate      = 3
	chargeSetAdd      = 19
	chargeRemoveDel   = 1
	chargeLaterElem   = 4
	chargePathOperand = 1
	chargeOperandElem = 14
	chargePlus        = 34
	chargeMinus       = 37
	chargeIfNotExists = 39
	chargeListAppend  = 37
)

// StatementCharge is UpdateItem's statement figure for u applied to the
// item cur (nil: absent), which only an ADD to a set needs. 0 for a nil
// update and for AttributeUpdates.
func (u *Update) StatementCharge(cur storage.Item) int {
	if u == nil || len(u.actions) == 0 || u.actions[0].legacy {
		return 0
	}
	n := chargeUpdate
	for _, a := range u.actions {
		switch a.op {
		case REMOVE, DELETE:
			n += chargeRemoveDel + targetCharge(a.path)
		case ADD:
			n += chargeSetAdd + targetCharge(a.path) + addCharge(a, cur, u.vals)
		default:
			n += chargeSetAdd + targetCharge(a.path) + operandCharge(a.value, u.vals)
		}
	}
	return n
}

// elemBytes is the size of one path element: a name's bytes or a list
// index's digits.
func elemBytes(s PathStep) int {
	if s.IsIndex {
		return len(strconv.Itoa(s.Index))
	}
	return len(s.Name)
}

// targetCharge is what a clause's target path costs.
func targetCharge(p Path) int {
	n := 0
	for i, s := range p {
		if i == 0 {
			n += elemBytes(s)
			continue
		}
		n += chargeLaterElem + elemBytes(s)
	}
	return n
}

// operandCharge is what a SET's value expression costs.
func operandCharge(x Expr, vals []storage.Value) int {
	switch x := x.(type) {
	case *ParenExpr:
		return operandCharge(x.X, vals)
	case *ValueExpr:
		return storage.ValueSize(vals[x.slot])
	case *PathExpr:
		n := chargePathOperand
		for _, s := range x.resolved {
			n += chargeOperandElem + elemBytes(s)
		}
		return n
	case *BinaryExpr:
		c := chargePlus
		if x.Op == MINUS {
			c = chargeMinus
		}
		return c + operandCharge(x.X, vals) + operandCharge(x.Y, vals)
	case *CallExpr:
		c := chargeListAppend
		if x.Fun == fnIfNotExists {
			c = chargeIfNotExists
		}
		for _, arg := range x.Args {
			c += operandCharge(arg, vals)
		}
		return c
	}
	return 0
}

// addCharge is what an ADD's value costs: its size, or for a set only the
// members the set at the target does not hold yet.
func addCharge(a *compiledAction, cur storage.Item, vals []storage.Value) int {
	v, ok := a.value.(*ValueExpr)
	if !ok {
		return operandCharge(a.value, vals)
	}
	val := vals[v.slot]
	switch val.Kind() {
	case storage.KindSS, storage.KindNS, storage.KindBS:
	default:
		return storage.ValueSize(val)
	}
	have, ok := a.path.Get(cur)
	if !ok || have.Kind() != val.Kind() {
		return storage.ValueSize(val)
	}
	var added []string
	for _, m := range val.Members() {
		if !have.HasMember(m) {
			added = append(added, m)
		}
	}
	return storage.ValueSize(storage.SetOf(val.Kind(), added))
}
