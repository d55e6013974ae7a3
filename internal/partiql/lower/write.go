package lower

import (
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/lex"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// INSERT, UPDATE and DELETE, each lowered into the item write it stands
// for: the item or the key, the update, the condition. The caller builds
// the storage key from Key (its own rules: empty strings, sizes) and runs
// the write with the condition checked inside it.

// LowerInsert lowers an INSERT: its item (a tuple literal, each attribute
// at the root for messages), which must hold the key attributes.
func LowerInsert(b Binding, s *partiql.Insert, ks storage.KeySchema) (storage.Item, error) {
	l := &lowerer{b}
	it, err := l.item(s.Value)
	if err != nil {
		return nil, err
	}
	for _, a := range keyAttrs(ks) {
		if _, ok := it[a.Name]; !ok {
			return nil, itemErr(errPlain(sprintf(msgInsertKeyMissing, a.Name)))
		}
	}
	return it, nil
}

// Update is an UPDATE (or FROM ... SET) lowered against its table.
type Update struct {
	Key    storage.Item // the key attributes' values
	Update *expr.Update
	// Cond is attribute_exists(<partition key>) (an UPDATE changes an
	// existing item only) AND the WHERE clause's other conjuncts.
	Cond *expr.Condition
}

// LowerUpdate lowers an UPDATE: the full key from the WHERE clause, the
// actions (SET path = value with + - list_append if_not_exists, SET path
// = set_add(path, set) and set_delete as ADD and DELETE, REMOVE), the
// condition. The actions are checked in the reverse of the statement's
// order, as DynamoDB Local 3.3.0 shows in the overlap and conflict
// messages of an UPDATE (SET l[0].a = 1 REMOVE l[0][1]: "path one: [l,
// [0], [1]], path two: [l, [0], a]"; an UpdateExpression names them the
// other way round).
func LowerUpdate(b Binding, s *partiql.Update, ks storage.KeySchema) (*Update, error) {
	l := &lowerer{b}
	key, rest, err := l.fullKey(ks, s.Where)
	if err != nil {
		return nil, err
	}
	u, err := l.update(s.Actions)
	if err != nil {
		return nil, err
	}
	restX, err := l.conditionOf(rest)
	if err != nil {
		return nil, err
	}
	cond := exists(ks, false)
	if restX != nil {
		cond = &expr.BinaryExpr{OpPos: -1, Op: expr.AND, X: cond, Y: restX}
	}
	order := make([]int, len(s.Actions))
	for i := range order {
		order[i] = len(order) - 1 - i
	}
	c := expr.NewCompiler(nil, nil)
	out := &Update{Key: key}
	var cerr error
	if out.Update, cerr = c.CompileUpdate("", u, order); cerr != nil {
		return nil, exprErr(cerr)
	}
	if out.Cond, cerr = c.CompileCondition("", cond); cerr != nil {
		return nil, exprErr(cerr)
	}
	return out, nil
}

// setFunc is the action of a function SET path = f(path, set) turns into
// ADD or DELETE (name in lower case), or ILLEGAL for another name.
func setFunc(name string) expr.Token {
	switch name {
	case "set_add":
		return expr.ADD
	case "set_delete":
		return expr.DELETE
	}
	return expr.ILLEGAL
}

// update lowers an UPDATE's actions into an update tree: each action a
// clause of its own, in the statement's order.
func (l *lowerer) update(actions []*partiql.Action) (*expr.UpdateExpr, *Error) {
	u := &expr.UpdateExpr{Clauses: make([]*expr.UpdateClause, 0, len(actions))}
	for _, a := range actions {
		p, err := l.path(a.Path)
		if err != nil {
			return nil, err
		}
		act := &expr.UpdateAction{Op: expr.SET, Path: p}
		switch {
		case a.Op == partiql.REMOVE:
			act.Op = expr.REMOVE
		case isSetFunc(a.Value):
			op, v, err := l.setFunc(a, p)
			if err != nil {
				return nil, err
			}
			act.Op, act.Value = op, v
		default:
			v, err := l.setValue(a.Value)
			if err != nil {
				return nil, err
			}
			act.Value = v
		}
		u.Clauses = append(u.Clauses, &expr.UpdateClause{Offset: a.Offset, Op: act.Op, Actions: []*expr.UpdateAction{act}})
	}
	return u, nil
}

func isSetFunc(e partiql.Expr) bool {
	c, ok := e.(*partiql.Call)
	return ok && setFunc(strings.ToLower(c.Fun)) != expr.ILLEGAL
}

// setFunc lowers SET path = set_add(path, set) (or set_delete) into ADD
// (DELETE) path set, with AWS's rules and words: exactly two arguments,
// the first the assigned path itself, the second a set (a <<...>> literal
// or a parameter holding a set).
func (l *lowerer) setFunc(a *partiql.Action, target *expr.PathExpr) (expr.Token, expr.Expr, *Error) {
	c := a.Value.(*partiql.Call)
	name := strings.ToUpper(c.Fun)
	n := lex.UTF16Len(c.Fun)
	if len(c.Args) != 2 {
		return 0, nil, l.errAt(msgSetFuncArity, c, n, name)
	}
	first, ok := c.Args[0].(*partiql.Path)
	if !ok || !samePath(first, a.Path) {
		return 0, nil, l.errAt(msgSetFuncTarget, c, n, name)
	}
	notSet := func() *Error {
		return l.errAt(msgSetFuncSet, first, lex.UTF16Len(first.Elems[0].Name.Text), name)
	}
	var v storage.Value
	switch arg := c.Args[1].(type) {
	case *partiql.BagLit:
		var err *Error
		if v, err = l.bag(arg, valuePath{}, false); err != nil {
			return 0, nil, err
		}
	case *partiql.Param:
		var err *Error
		if v, err = l.value(arg, valuePath{}); err != nil {
			return 0, nil, err
		}
		if !v.Kind().IsSet() {
			return 0, nil, notSet()
		}
	default:
		if isValue(arg) {
			if _, err := l.value(arg, valuePath{}); err != nil {
				return 0, nil, err
			}
		}
		return 0, nil, notSet()
	}
	return setFunc(strings.ToLower(c.Fun)), &expr.ValueExpr{Offset: c.Args[1].Pos(), Value: v}, nil
}

// samePath reports whether two paths are written the same (names and
// indexes).
func samePath(a, b *partiql.Path) bool {
	if len(a.Elems) != len(b.Elems) {
		return false
	}
	for i := range a.Elems {
		x, y := a.Elems[i], b.Elems[i]
		if x.IsIndex != y.IsIndex || x.IsIndex && x.Index != y.Index || !x.IsIndex && x.Name.Text != y.Name.Text {
			return false
		}
	}
	return true
}

// updateFunc reports whether name (lower case) is a function a SET value
// may call; expr knows it by the same name.
func updateFunc(name string) bool { return name == "list_append" || name == "if_not_exists" }

// setValue lowers the value of SET path = value: a path, a value, x + y,
// x - y, list_append(...), if_not_exists(...).
func (l *lowerer) setValue(e partiql.Expr) (expr.Expr, *Error) {
	switch e := e.(type) {
	case *partiql.Path:
		return l.path(e)
	case *partiql.Paren:
		return l.setValue(e.X)
	case *partiql.Binary:
		if e.Op != partiql.PLUS && e.Op != partiql.MINUS {
			break
		}
		x, err := l.setValue(e.X)
		if err != nil {
			return nil, err
		}
		y, err := l.setValue(e.Y)
		if err != nil {
			return nil, err
		}
		op := expr.PLUS
		if e.Op == partiql.MINUS {
			op = expr.MINUS
		}
		return &expr.BinaryExpr{OpPos: e.OpPos, Op: op, X: x, Y: y}, nil
	case *partiql.Call:
		name := strings.ToLower(e.Fun)
		if !updateFunc(name) {
			return nil, l.errAt(msgUnrecognizedFunc, e, lex.UTF16Len(e.Fun), name)
		}
		args := make([]expr.Expr, len(e.Args))
		for i, a := range e.Args {
			x, err := l.setValue(a)
			if err != nil {
				return nil, err
			}
			args[i] = x
		}
		return &expr.CallExpr{Offset: e.Offset, Fun: name, Args: args}, nil
	}
	if isValue(e) {
		v, err := l.value(e, valuePath{})
		if err != nil {
			return nil, err
		}
		return &expr.ValueExpr{Offset: e.Pos(), Value: v}, nil
	}
	return nil, l.errAt(msgUnsupportedExpr, e, 1)
}

// Delete is a DELETE (or the SELECT of an EXISTS) lowered against its
// table.
type Delete struct {
	Key storage.Item // the key attributes' values
	// Cond is the condition of the write; nil when the WHERE clause names
	// the key only. For a DELETE it is attribute_not_exists(<partition
	// key>) OR the WHERE clause's other conjuncts: a DELETE of an item that
	// does not exist succeeds and deletes nothing, whatever the condition
	// (AWS's developer guide, "PartiQL delete statements for DynamoDB":
	// SUCCESS with 0 items deleted; ConditionalCheckFailedException only
	// when the item exists and the condition is false; DynamoDB Local
	// agrees). For an EXISTS it is attribute_exists(<partition key>) AND
	// the other conjuncts: TRUE only for a non-empty result.
	Cond *expr.Condition
}

// LowerDelete lowers a DELETE: the full key and the condition.
func LowerDelete(b Binding, s *partiql.Delete, ks storage.KeySchema) (*Delete, error) {
	l := &lowerer{b}
	d, err := l.keyAndCondition(ks, s.Where, true)
	if err != nil {
		return nil, err
	}
	return d, nil
}

// keyAndCondition finds the full key in where and lowers the other
// conjuncts into the condition of a DELETE (deleting) or an EXISTS.
func (l *lowerer) keyAndCondition(ks storage.KeySchema, where partiql.Expr, deleting bool) (*Delete, *Error) {
	key, rest, err := l.fullKey(ks, where)
	if err != nil {
		return nil, err
	}
	restX, err := l.conditionOf(rest)
	if err != nil {
		return nil, err
	}
	d := &Delete{Key: key}
	if restX == nil {
		return d, nil
	}
	var cond expr.Expr = &expr.BinaryExpr{OpPos: -1, Op: expr.AND, X: exists(ks, false), Y: restX}
	if deleting {
		cond = &expr.BinaryExpr{OpPos: -1, Op: expr.OR, X: exists(ks, true), Y: restX}
	}
	c, cerr := expr.NewCompiler(nil, nil).CompileCondition("", cond)
	if cerr != nil {
		return nil, exprErr(cerr)
	}
	d.Cond = c
	return d, nil
}
