package expr

import (
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Eval reports whether item satisfies the condition. item may be nil (no
// item). Type mismatches and missing attributes make a comparison false, as
// in DynamoDB; evaluation itself cannot fail, the error is reserved.
func (cond *Condition) Eval(item storage.Item) (bool, error) {
	if cond.terms != nil {
		return cond.evalLegacy(item), nil
	}
	return evalCond(cond.root, item, cond.vals), nil
}

// evalCond evaluates condition x on item; vals are its placeholders' values.
func evalCond(x Expr, item storage.Item, vals []storage.Value) bool {
	switch x := x.(type) {
	case *ParenExpr:
		return evalCond(x.X, item, vals)
	case *NotExpr:
		return !evalCond(x.X, item, vals)
	case *BinaryExpr:
		switch x.Op {
		case AND:
			return evalCond(x.X, item, vals) && evalCond(x.Y, item, vals)
		case OR:
			return evalCond(x.X, item, vals) || evalCond(x.Y, item, vals)
		}
		a, okA := evalOperand(x.X, item, vals)
		b, okB := evalOperand(x.Y, item, vals)
		return compare(x.Op, a, okA, b, okB)
	case *BetweenExpr:
		v, ok := evalOperand(x.X, item, vals)
		lo, okLo := evalOperand(x.Lo, item, vals)
		hi, okHi := evalOperand(x.Hi, item, vals)
		return ok && okLo && okHi && between(v, lo, hi)
	case *InExpr:
		v, ok := evalOperand(x.X, item, vals)
		if !ok {
			return false
		}
		for _, y := range x.List {
			if w, ok := evalOperand(y, item, vals); ok && storage.Equal(v, w) {
				return true
			}
		}
		return false
	case *CallExpr:
		return evalPredicate(x, item, vals)
	case *ConstExpr:
		return x.Value
	}
	return false
}

// compare applies a comparison operator. = needs both operands present and
// equal; <> is its negation (so a missing operand makes it true); ordering
// needs two present values of the same scalar type.
func compare(op Token, a storage.Value, okA bool, b storage.Value, okB bool) bool {
	switch op {
	case EQ:
		return okA && okB && storage.Equal(a, b)
	case NE:
		return !(okA && okB && storage.Equal(a, b))
	}
	if !okA || !okB {
		return false
	}
	c, ok := storage.Compare(a, b)
	if !ok {
		return false
	}
	switch op {
	case LT:
		return c < 0
	case LE:
		return c <= 0
	case GT:
		return c > 0
	case GE:
		return c >= 0
	}
	return false
}

func evalPredicate(x *CallExpr, item storage.Item, vals []storage.Value) bool {
	switch x.Fun {
	case fnExists, fnNotExists:
		p, _ := pathOf(x.Args[0])
		_, ok := p.resolved.Get(item)
		return ok == (x.Fun == fnExists)
	case fnType:
		v, ok := evalOperand(x.Args[0], item, vals)
		t, okT := evalOperand(x.Args[1], item, vals)
		return ok && okT && t.Kind() == storage.KindS && v.Kind().String() == t.Str()
	case fnBeginsWith:
		a, okA := evalOperand(x.Args[0], item, vals)
		b, okB := evalOperand(x.Args[1], item, vals)
		return okA && okB && beginsWith(a, b)
	case fnContains:
		a, okA := evalOperand(x.Args[0], item, vals)
		b, okB := evalOperand(x.Args[1], item, vals)
		return okA && okB && contains(a, b)
	}
	return false
}

// between implements v BETWEEN lo AND hi: scalars of one type.
func between(v, lo, hi storage.Value) bool {
	c1, ok1 := storage.Compare(lo, v)
	c2, ok2 := storage.Compare(v, hi)
	return ok1 && ok2 && c1 <= 0 && c2 <= 0
}

// beginsWith implements begins_with(a, b): a prefix of an S or a B of
// the same type.
func beginsWith(a, b storage.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	if k := a.Kind(); k != storage.KindS && k != storage.KindB {
		return false
	}
	return strings.HasPrefix(a.Str(), b.Str())
}

// contains implements contains(a, b): substring for S and B, membership for
// sets (b of the member type) and lists (an equal element).
func contains(a, b storage.Value) bool {
	switch a.Kind() {
	case storage.KindS, storage.KindB:
		return b.Kind() == a.Kind() && strings.Contains(a.Str(), b.Str())
	case storage.KindSS:
		return b.Kind() == storage.KindS && a.HasMember(b.Str())
	case storage.KindNS:
		return b.Kind() == storage.KindN && a.HasMember(b.Str())
	case storage.KindBS:
		return b.Kind() == storage.KindB && a.HasMember(b.Str())
	case storage.KindL:
		for _, e := range a.List() {
			if storage.Equal(e, b) {
				return true
			}
		}
	}
	return false
}

// evalOperand returns an operand's value and whether it has one.
func evalOperand(x Expr, item storage.Item, vals []storage.Value) (storage.Value, bool) {
	switch x := x.(type) {
	case *PathExpr:
		return x.resolved.Get(item)
	case *ValueExpr:
		return vals[x.slot], true
	case *ParenExpr:
		return evalOperand(x.X, item, vals)
	case *CallExpr:
		if x.Fun == fnSize {
			v, ok := evalOperand(x.Args[0], item, vals)
			if !ok {
				return storage.Value{}, false
			}
			n, ok := sizeOf(v)
			if !ok {
				return storage.Value{}, false
			}
			return storage.N(storage.Number(strconv.Itoa(n))), true
		}
	}
	return storage.Value{}, false
}

// sizeOf implements size(): UTF-16 code units of a string (as DynamoDB counts), bytes of a binary,
// elements of a set, list or map. Other types have no size.
func sizeOf(v storage.Value) (int, bool) {
	switch v.Kind() {
	case storage.KindS:
		return utf16Len(v.Str()), true
	case storage.KindB:
		return len(v.Str()), true
	case storage.KindSS, storage.KindNS, storage.KindBS, storage.KindL, storage.KindM:
		return v.Len(), true
	}
	return 0, false
}
