package service

import (
	"errors"
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/expr"
	"github.com/dynamoemu/dynamoemu/partiql"
	"github.com/dynamoemu/dynamoemu/storage"
)

// PartiQL runs on package expr: a statement's WHERE, projection and SET
// and REMOVE actions are translated into expression text over #name and
// :value placeholders, and then compiled by an expr.Compiler as a
// ConditionExpression, KeyConditionExpression, ProjectionExpression or
// UpdateExpression would be. No second evaluator.

// translator builds expression text and its placeholder maps for one
// statement, binding ? parameters to the request's Parameters.
type translator struct {
	src    string // the statement, for positions in messages
	params []storage.Value
	names  map[string]string // "#n3" -> attribute name
	byName map[string]string // attribute name -> "#n3"
	values map[string]storage.Value
}

func newTranslator(src string, params []storage.Value) *translator {
	return &translator{src: src, params: params, names: map[string]string{},
		byName: map[string]string{}, values: map[string]storage.Value{}}
}

// compiler returns an expr.Compiler over the placeholders made so far.
func (x *translator) compiler() *expr.Compiler { return expr.NewCompiler(x.names, x.values) }

// at renders a node's place as DynamoDB does: line:column:length.
func (x *translator) at(pos, length int) (int, int, int) {
	line, col := partiql.Position(x.src, pos)
	return line, col, length
}

func (x *translator) errAt(format string, n partiql.Node, length int, args ...any) error {
	line, col, ln := x.at(n.Pos(), length)
	return apierr.Validationf(format, append(args, line, col, ln)...)
}

func (x *translator) name(n string) string {
	if p, ok := x.byName[n]; ok {
		return p
	}
	p := "#n" + strconv.Itoa(len(x.names))
	x.names[p] = n
	x.byName[n] = p
	return p
}

func (x *translator) value(v storage.Value) string {
	p := ":v" + strconv.Itoa(len(x.values))
	x.values[p] = v
	return p
}

// path translates a document path. Names go through placeholders, so
// DynamoDB's reserved words are fine in PartiQL, as they are on AWS.
func (x *translator) path(p *partiql.Path) (string, error) {
	var b strings.Builder
	for i, e := range p.Elems {
		switch {
		case e.IsIndex:
			if n, err := strconv.Atoi(e.Index); err != nil || n < 0 {
				// DynamoDB Local places the error at the digits after a minus.
				digits := strings.TrimPrefix(e.Index, "-")
				line, col, ln := x.at(e.Offset+len(e.Index)-len(digits), len(digits))
				return "", apierr.Validationf(apierr.MsgListIndexRange, e.Index, line, col, ln)
			}
			b.WriteString("[" + e.Index + "]")
		default:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(x.name(e.Name.Text))
		}
	}
	return b.String(), nil
}

// isValue reports whether e is a literal, a parameter or a collection
// literal: something that becomes a :value.
func isValue(e partiql.Expr) bool {
	switch e := e.(type) {
	case *partiql.Literal, *partiql.Param, *partiql.ListLit, *partiql.TupleLit, *partiql.BagLit:
		return true
	case *partiql.Unary:
		return e.Op == partiql.MINUS || e.Op == partiql.PLUS
	}
	return false
}

// operand translates a comparison operand: a path, size(path), a value.
func (x *translator) operand(e partiql.Expr) (string, error) {
	switch e := e.(type) {
	case *partiql.Path:
		return x.path(e)
	case *partiql.Paren:
		s, err := x.operand(e.X)
		return "(" + s + ")", err
	case *partiql.Call:
		return x.call(e)
	case *partiql.Literal:
		if e.Tok == partiql.MISSING {
			return "", apierr.Validation(apierr.MsgMissingCompare)
		}
	}
	if isValue(e) {
		v, err := x.literal(e, "root")
		if err != nil {
			return "", err
		}
		return x.value(v), nil
	}
	if b, ok := e.(*partiql.Binary); ok {
		return "", apierr.Validationf(apierr.MsgUnsupportedOp, strings.ToLower(b.Op.String()))
	}
	return "", x.errAt(apierr.MsgUnsupportedExpr, e, 1)
}

// conditionFuncs are the functions a PartiQL WHERE may call, with their
// expr spelling.
var conditionFuncs = map[string]string{
	"begins_with": "begins_with", "contains": "contains", "attribute_type": "attribute_type",
	"size": "size", "attribute_exists": "attribute_exists", "attribute_not_exists": "attribute_not_exists",
}

func (x *translator) call(c *partiql.Call) (string, error) {
	fn, ok := conditionFuncs[strings.ToLower(c.Fun)]
	if !ok {
		return "", apierr.Validationf(apierr.MsgUnrecognizedFunc, c.Fun)
	}
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		s, err := x.operand(a)
		if err != nil {
			return "", err
		}
		args[i] = s
	}
	return fn + "(" + strings.Join(args, ", ") + ")", nil
}

// condition translates a WHERE clause (or a part of one).
func (x *translator) condition(e partiql.Expr) (string, error) {
	switch e := e.(type) {
	case *partiql.Binary:
		switch {
		case e.Op == partiql.AND || e.Op == partiql.OR:
			if !isCondition(e.X) || !isCondition(e.Y) {
				return "", apierr.Validation(apierr.MsgAndOrArgs)
			}
			l, err := x.condition(e.X)
			if err != nil {
				return "", err
			}
			r, err := x.condition(e.Y)
			if err != nil {
				return "", err
			}
			return l + " " + e.Op.String() + " " + r, nil
		case e.Op.IsComparison():
			l, err := x.operand(e.X)
			if err != nil {
				return "", err
			}
			r, err := x.operand(e.Y)
			if err != nil {
				return "", err
			}
			return l + " " + e.Op.String() + " " + r, nil
		}
		return "", apierr.Validationf(apierr.MsgUnsupportedOp, strings.ToLower(e.Op.String()))
	case *partiql.Unary:
		if e.Op != partiql.NOT {
			break
		}
		if !isCondition(e.X) {
			return "", apierr.Validation(apierr.MsgNotArg)
		}
		s, err := x.condition(e.X)
		return "NOT (" + s + ")", err
	case *partiql.Paren:
		s, err := x.condition(e.X)
		return "(" + s + ")", err
	case *partiql.Between:
		parts, err := x.operands(e.X, e.Lo, e.Hi)
		if err != nil {
			return "", err
		}
		return negate(e.Not, parts[0]+" BETWEEN "+parts[1]+" AND "+parts[2]), nil
	case *partiql.In:
		if e.Right != nil {
			return "", apierr.Validation(apierr.MsgInRightSide)
		}
		parts, err := x.operands(append([]partiql.Expr{e.X}, e.Elems...)...)
		if err != nil {
			return "", err
		}
		return negate(e.Not, parts[0]+" IN ("+strings.Join(parts[1:], ", ")+")"), nil
	case *partiql.Is:
		return x.is(e)
	case *partiql.Call:
		return x.call(e)
	}
	return "", x.errAt(apierr.MsgUnsupportedExpr, e, 1)
}

// isCondition reports whether e is a condition rather than an operand.
func isCondition(e partiql.Expr) bool {
	switch e := e.(type) {
	case *partiql.Binary:
		return e.Op.Precedence() <= partiql.EQ.Precedence()
	case *partiql.Unary:
		return e.Op == partiql.NOT
	case *partiql.Between, *partiql.In, *partiql.Is, *partiql.Call:
		return true
	case *partiql.Paren:
		return isCondition(e.X)
	}
	return false
}

// exprError drops the "Invalid FilterExpression: " (or Update-,
// ConditionExpression) prefix from an error of the compiled expressions:
// DynamoDB's PartiQL messages have none.
func exprError(err error) error {
	var ee *expr.Error
	if !errors.As(err, &ee) {
		return err
	}
	msg := ee.Msg
	for _, param := range []string{"Filter", "Condition", "Update", "KeyCondition", "Projection"} {
		msg = strings.TrimPrefix(msg, "Invalid "+param+"Expression: ")
	}
	return &apierr.Error{Class: apierr.ErrValidation, Msg: msg, Cause: err}
}

func negate(not bool, s string) string {
	if not {
		return "NOT (" + s + ")"
	}
	return s
}

func (x *translator) operands(es ...partiql.Expr) ([]string, error) {
	out := make([]string, len(es))
	for i, e := range es {
		s, err := x.operand(e)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// is translates IS [NOT] MISSING / NULL / TRUE / FALSE. NULL means an
// attribute of type NULL: a missing attribute IS NOT NULL (DynamoDB Local).
func (x *translator) is(e *partiql.Is) (string, error) {
	p, err := x.operand(e.X)
	if err != nil {
		return "", err
	}
	var s string
	switch e.What {
	case partiql.MISSING:
		if e.Not {
			return "attribute_exists(" + p + ")", nil
		}
		return "attribute_not_exists(" + p + ")", nil
	case partiql.NULL:
		s = "attribute_type(" + p + ", " + x.value(storage.S("NULL")) + ")"
	default:
		s = p + " = " + x.value(storage.Bool(e.What == partiql.TRUE))
	}
	return negate(e.Not, s), nil
}

// conjuncts splits a WHERE clause into its top-level AND conjuncts (through
// parentheses).
func conjuncts(e partiql.Expr) []partiql.Expr {
	switch e := e.(type) {
	case *partiql.Binary:
		if e.Op == partiql.AND {
			return append(conjuncts(e.X), conjuncts(e.Y)...)
		}
	case *partiql.Paren:
		if _, ok := e.X.(*partiql.Binary); ok {
			inner := conjuncts(e.X)
			if len(inner) > 1 {
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

// isTopName reports whether e is the one-element path name.
func isTopName(e partiql.Expr, name string) bool {
	p, ok := e.(*partiql.Path)
	return ok && len(p.Elems) == 1 && !p.Elems[0].IsIndex && p.Elems[0].Name.Text == name
}

// fullKey finds equalities on every key attribute among where's conjuncts
// and returns the key and the remaining conjuncts (the condition).
func (x *translator) fullKey(t *table, where partiql.Expr) (storage.Key, []partiql.Expr, error) {
	if where == nil {
		return storage.Key{}, nil, itemRule(apierr.Validation(apierr.MsgKeyEquality))
	}
	ks := t.schema
	rest := conjuncts(where)
	keyItem := storage.Item{}
	attrs := []storage.KeyAttr{ks.Partition}
	if ks.HasSort() {
		attrs = append(attrs, ks.Sort)
	}
	for _, a := range attrs {
		found := false
		for i, c := range rest {
			ve, ok := keyEquality(c, a.Name)
			if !ok {
				continue
			}
			v, err := x.literal(ve, "root")
			if err != nil {
				return storage.Key{}, nil, err
			}
			if v.Kind() != a.Kind {
				return storage.Key{}, nil, itemRule(apierr.Validationf(apierr.MsgPartiQLKeyType, a.Name))
			}
			keyItem[a.Name] = v
			rest = append(rest[:i:i], rest[i+1:]...)
			found = true
			break
		}
		if !found {
			return storage.Key{}, nil, itemRule(apierr.Validation(apierr.MsgKeyEquality))
		}
	}
	key, err := t.keyFromKeyParam(keyItem)
	return key, rest, itemRule(err)
}

// joinConditions translates conjuncts and joins them with AND; "" when
// there are none.
func (x *translator) joinConditions(cs []partiql.Expr) (string, error) {
	parts := make([]string, 0, len(cs))
	for _, c := range cs {
		s, err := x.condition(c)
		if err != nil {
			return "", err
		}
		parts = append(parts, "("+s+")")
	}
	return strings.Join(parts, " AND "), nil
}

// update translates an UPDATE's actions into an UpdateExpression: SET
// path = value (with + - list_append if_not_exists), set_add and
// set_delete as ADD and DELETE, REMOVE. The expression groups the actions
// by clause; order gives them back in the order DynamoDB checks them (for
// Compiler.UpdateInOrder): the reverse of the statement's, as DynamoDB
// Local 3.3.0 shows in the overlap and conflict messages of an UPDATE
// (SET l[0].a = 1 REMOVE l[0][1]: "path one: [l, [0], [1]], path two:
// [l, [0], a]"; an UpdateExpression names them the other way round).
func (x *translator) update(actions []*partiql.Action) (text string, order []int, err error) {
	const nsec = 4 // SET, REMOVE, ADD, DELETE
	var parts [nsec][]string
	type at struct{ sec, i int }
	where := make([]at, 0, len(actions))
	add := func(sec int, part string) {
		where = append(where, at{sec, len(parts[sec])})
		parts[sec] = append(parts[sec], part)
	}
	for _, a := range actions {
		p, err := x.path(a.Path)
		if err != nil {
			return "", nil, err
		}
		if a.Op == partiql.REMOVE {
			add(1, p)
			continue
		}
		if c, ok := a.Value.(*partiql.Call); ok && len(c.Args) == 2 {
			switch strings.ToLower(c.Fun) {
			case "set_add", "set_delete":
				v, err := x.literal(c.Args[1], "root")
				if err != nil {
					return "", nil, err
				}
				sec := 2
				if strings.EqualFold(c.Fun, "set_delete") {
					sec = 3
				}
				add(sec, p+" "+x.value(v))
				continue
			}
		}
		v, err := x.setValue(a.Value)
		if err != nil {
			return "", nil, err
		}
		add(0, p+" = "+v)
	}
	var b strings.Builder
	var start [nsec]int // the text position of each clause's first action
	n := 0
	for sec, kw := range [nsec]string{"SET", "REMOVE", "ADD", "DELETE"} {
		start[sec] = n
		n += len(parts[sec])
		if len(parts[sec]) > 0 {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(kw + " " + strings.Join(parts[sec], ", "))
		}
	}
	order = make([]int, len(where))
	for k, w := range where {
		order[len(where)-1-k] = start[w.sec] + w.i
	}
	return b.String(), order, nil
}

// setValue translates the value of SET path = value.
func (x *translator) setValue(e partiql.Expr) (string, error) {
	switch e := e.(type) {
	case *partiql.Path:
		return x.path(e)
	case *partiql.Paren:
		s, err := x.setValue(e.X)
		return "(" + s + ")", err
	case *partiql.Binary:
		if e.Op != partiql.PLUS && e.Op != partiql.MINUS {
			break
		}
		l, err := x.setValue(e.X)
		if err != nil {
			return "", err
		}
		r, err := x.setValue(e.Y)
		if err != nil {
			return "", err
		}
		return l + " " + e.Op.String() + " " + r, nil
	case *partiql.Call:
		fn := strings.ToLower(e.Fun)
		if fn != "list_append" && fn != "if_not_exists" {
			return "", apierr.Validationf(apierr.MsgUnrecognizedFunc, e.Fun)
		}
		args := make([]string, len(e.Args))
		for i, a := range e.Args {
			s, err := x.setValue(a)
			if err != nil {
				return "", err
			}
			args[i] = s
		}
		return fn + "(" + strings.Join(args, ", ") + ")", nil
	}
	if isValue(e) {
		v, err := x.literal(e, "root")
		if err != nil {
			return "", err
		}
		return x.value(v), nil
	}
	return "", x.errAt(apierr.MsgUnsupportedExpr, e, 1)
}

// checkKeyKinds checks the values a key condition conjunct c compares key
// attribute a with (a = v, a op v, a BETWEEN v AND w) against a's type,
// with DynamoDB Local's message (no AWS record was found).
func (x *translator) checkKeyKinds(c partiql.Expr, a storage.KeyAttr) error {
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
		v, err := x.literal(e, "root")
		if err != nil {
			return err
		}
		kinds[i] = v.Kind()
	}
	if len(kinds) == 2 && kinds[0] != kinds[1] {
		return nil // BETWEEN's own error comes first
	}
	for _, k := range kinds {
		if k != a.Kind {
			return apierr.Validationf(apierr.MsgPartiQLKeyType, a.Name)
		}
	}
	return nil
}
