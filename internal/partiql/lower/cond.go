package lower

import (
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/lex"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A WHERE clause lowered into expr's condition tree.

// conditionFunc reports whether name (lower case) is a function a WHERE
// clause may call (any case: ATTRIBUTE_EXISTS works on AWS); expr knows
// it by the same name. The lookup tables of this package are switches,
// not package-level maps: nothing to build at the server's start
// (internal/lint TestServerInitLazy).
func conditionFunc(name string) bool {
	switch name {
	case "begins_with", "contains", "attribute_type", "size", "attribute_exists", "attribute_not_exists":
		return true
	}
	return false
}

// comparison maps a PartiQL comparison operator to expr's.
func comparison(op partiql.Token) expr.Token {
	switch op {
	case partiql.EQ:
		return expr.EQ
	case partiql.NE:
		return expr.NE
	case partiql.LT:
		return expr.LT
	case partiql.LE:
		return expr.LE
	case partiql.GT:
		return expr.GT
	case partiql.GE:
		return expr.GE
	}
	return expr.ILLEGAL
}

// isCondition reports whether e stands where a condition may (the
// operands of AND, OR and NOT): a comparison, AND, OR, NOT, BETWEEN, IN,
// IS or a function call (size() too: expr refuses it there).
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

// isPredicate reports whether e has a boolean value: a condition other
// than a call of size() or of a function DynamoDB does not have. DynamoDB
// compares such a value with TRUE or FALSE as with any value
// (attribute_exists(a) = true, (n = 5) = true: DynamoDB Local).
func isPredicate(e partiql.Expr) bool {
	if c, ok := unparen(e).(*partiql.Call); ok {
		name := strings.ToLower(c.Fun)
		return name != "size" && conditionFunc(name)
	}
	return isCondition(e)
}

// condition lowers a WHERE clause or a part of one. Parentheses go: the
// tree holds the grouping (so ((a = 1)) is fine, as on AWS).
func (l *lowerer) condition(e partiql.Expr) (expr.Expr, *Error) {
	switch e := e.(type) {
	case *partiql.Binary:
		switch {
		case e.Op == partiql.AND || e.Op == partiql.OR:
			return l.logical(e)
		case e.Op.IsComparison():
			return l.compare(e)
		}
		return nil, errPlain(sprintf(msgUnsupportedOp, strings.ToLower(e.Op.String())))
	case *partiql.Unary:
		if e.Op == partiql.NOT {
			return l.not(e)
		}
	case *partiql.Paren:
		return l.condition(e.X)
	case *partiql.Between:
		return l.between(e)
	case *partiql.In:
		return l.in(e)
	case *partiql.Is:
		return l.is(e)
	case *partiql.Call:
		return l.call(e)
	}
	return nil, l.errAt(msgUnsupportedExpr, e, 1)
}

// logical lowers x AND y or x OR y, both of them conditions.
func (l *lowerer) logical(e *partiql.Binary) (expr.Expr, *Error) {
	if !isCondition(e.X) || !isCondition(e.Y) {
		return nil, errPlain(msgAndOrArgs)
	}
	x, err := l.condition(e.X)
	if err != nil {
		return nil, err
	}
	y, err := l.condition(e.Y)
	if err != nil {
		return nil, err
	}
	op := expr.AND
	if e.Op == partiql.OR {
		op = expr.OR
	}
	return &expr.BinaryExpr{OpPos: e.OpPos, Op: op, X: x, Y: y}, nil
}

// compare lowers a comparison of two operands; one with a boolean
// value is compared as compareBool does.
func (l *lowerer) compare(e *partiql.Binary) (expr.Expr, *Error) {
	if isPredicate(e.X) || isPredicate(e.Y) {
		return l.compareBool(e)
	}
	x, err := l.operand(e.X)
	if err != nil {
		return nil, err
	}
	y, err := l.operand(e.Y)
	if err != nil {
		return nil, err
	}
	return &expr.BinaryExpr{OpPos: e.OpPos, Op: comparison(e.Op), X: x, Y: y}, nil
}

// not lowers NOT x, x a condition.
func (l *lowerer) not(e *partiql.Unary) (expr.Expr, *Error) {
	if !isCondition(e.X) {
		return nil, errPlain(msgNotArg)
	}
	x, err := l.condition(e.X)
	if err != nil {
		return nil, err
	}
	return &expr.NotExpr{Offset: e.Offset, X: x}, nil
}

// between lowers x [NOT] BETWEEN lo AND hi, none of them boolean.
func (l *lowerer) between(e *partiql.Between) (expr.Expr, *Error) {
	for _, y := range []partiql.Expr{e.X, e.Lo, e.Hi} {
		if isPredicate(y) {
			return nil, errPlain(sprintf(msgBoolOperand, "BETWEEN"))
		}
	}
	ops, err := l.operands(e.X, e.Lo, e.Hi)
	if err != nil {
		return nil, err
	}
	return negate(e.Not, e.OpPos, &expr.BetweenExpr{OpPos: e.OpPos, X: ops[0], Lo: ops[1], Hi: ops[2]}), nil
}

// in lowers x [NOT] IN [elems...]: a list on the right, not empty; a
// boolean x is compared as inBool does.
func (l *lowerer) in(e *partiql.In) (expr.Expr, *Error) {
	if e.Right != nil || len(e.Elems) == 0 {
		return nil, errPlain(msgInRightSide)
	}
	if isPredicate(e.X) {
		return l.inBool(e)
	}
	ops, err := l.operands(append([]partiql.Expr{e.X}, e.Elems...)...)
	if err != nil {
		return nil, err
	}
	return negate(e.Not, e.OpPos, &expr.InExpr{OpPos: e.OpPos, X: ops[0], List: ops[1:]}), nil
}

// negate wraps x in NOT when not is set.
func negate(not bool, pos int, x expr.Expr) expr.Expr {
	if not {
		return &expr.NotExpr{Offset: pos, X: x}
	}
	return x
}

// operand lowers a comparison operand: a path, a function call (size), a
// value.
func (l *lowerer) operand(e partiql.Expr) (expr.Expr, *Error) {
	switch e := e.(type) {
	case *partiql.Path:
		return l.path(e)
	case *partiql.Paren:
		return l.operand(e.X)
	case *partiql.Call:
		return l.call(e)
	case *partiql.Literal:
		if e.Tok == partiql.MISSING {
			return nil, errPlain(msgMissingCompare)
		}
	}
	if isValue(e) {
		v, err := l.value(e, valuePath{})
		if err != nil {
			return nil, err
		}
		return &expr.ValueExpr{Offset: e.Pos(), Value: v}, nil
	}
	if b, ok := e.(*partiql.Binary); ok {
		return nil, errPlain(sprintf(msgUnsupportedOp, strings.ToLower(b.Op.String())))
	}
	return nil, l.errAt(msgUnsupportedExpr, e, 1)
}

func (l *lowerer) operands(es ...partiql.Expr) ([]expr.Expr, *Error) {
	out := make([]expr.Expr, len(es))
	for i, e := range es {
		x, err := l.operand(e)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

// call lowers a function call of a WHERE clause. An unknown function is
// named in lower case with its place, as AWS words it ("Unrecognized
// function: exists at 1:41:6" for EXISTS(a)).
func (l *lowerer) call(c *partiql.Call) (expr.Expr, *Error) {
	name := strings.ToLower(c.Fun)
	if !conditionFunc(name) {
		return nil, l.errAt(msgUnrecognizedFunc, c, lex.UTF16Len(c.Fun), name)
	}
	args, err := l.operands(c.Args...)
	if err != nil {
		return nil, err
	}
	return &expr.CallExpr{Offset: c.Offset, Fun: name, Args: args}, nil
}

// compareBool lowers a comparison one of whose sides has a boolean value
// (a condition, or attribute_exists(a) and the other predicates):
// equality and inequality compare it as DynamoDB Local does, ordering is
// refused as for any BOOL operand.
func (l *lowerer) compareBool(e *partiql.Binary) (expr.Expr, *Error) {
	if e.Op != partiql.EQ && e.Op != partiql.NE {
		return nil, errPlain(sprintf(msgBoolOperand, e.Op.String()))
	}
	eq, err := l.equalBool(e.X, e.Y, e.OpPos)
	if err != nil {
		return nil, err
	}
	if e.Op == partiql.NE {
		return notOf(eq, e.OpPos), nil
	}
	return eq, nil
}

// inBool lowers c IN (v1, v2, ...) for a boolean c: c = v1 OR c = v2 ...
func (l *lowerer) inBool(e *partiql.In) (expr.Expr, *Error) {
	var out expr.Expr
	for _, v := range e.Elems {
		eq, err := l.equalBool(e.X, v, e.OpPos)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = eq
		} else {
			out = &expr.BinaryExpr{OpPos: e.OpPos, Op: expr.OR, X: out, Y: eq}
		}
	}
	if e.Not {
		return notOf(out, e.OpPos), nil
	}
	return out, nil
}

// equalBool lowers a = b where a or b has a boolean value c: c itself (or
// NOT c) against a TRUE or FALSE value, never true against another value,
// and against a path, a function's result or another condition d,
// (c AND d) OR (NOT c AND NOT d) with d's TRUE and FALSE spelled out.
func (l *lowerer) equalBool(a, b partiql.Expr, pos int) (expr.Expr, *Error) {
	if !isPredicate(a) {
		a, b = b, a
	}
	c, err := l.condition(a)
	if err != nil {
		return nil, err
	}
	ub := unparen(b)
	if lit, ok := ub.(*partiql.Literal); ok && lit.Tok == partiql.MISSING {
		return nil, errPlain(msgMissingCompare)
	}
	if !isPredicate(b) && isValue(ub) {
		v, err := l.value(ub, valuePath{})
		if err != nil {
			return nil, err
		}
		if v.Kind() != storage.KindBOOL {
			return &expr.ConstExpr{Offset: pos, Value: false}, nil
		}
		if v.Bool() {
			return c, nil
		}
		return notOf(c, pos), nil
	}
	// c appears twice: lower it again, so each place has a tree of its own.
	c2, _ := l.condition(a)
	var yes, no expr.Expr
	if isPredicate(b) {
		if yes, err = l.condition(b); err != nil {
			return nil, err
		}
		d2, _ := l.condition(b)
		no = notOf(d2, pos)
	} else {
		x, err := l.operand(b)
		if err != nil {
			return nil, err
		}
		x2, _ := l.operand(b)
		yes = &expr.BinaryExpr{OpPos: pos, Op: expr.EQ, X: x, Y: &expr.ValueExpr{Offset: pos, Value: storage.Bool(true)}}
		no = &expr.BinaryExpr{OpPos: pos, Op: expr.EQ, X: x2, Y: &expr.ValueExpr{Offset: pos, Value: storage.Bool(false)}}
	}
	return &expr.BinaryExpr{OpPos: pos, Op: expr.OR,
		X: &expr.BinaryExpr{OpPos: pos, Op: expr.AND, X: c, Y: yes},
		Y: &expr.BinaryExpr{OpPos: pos, Op: expr.AND, X: notOf(c2, pos), Y: no}}, nil
}

// notOf negates a condition, folding a constant.
func notOf(x expr.Expr, pos int) expr.Expr {
	if c, ok := x.(*expr.ConstExpr); ok {
		return &expr.ConstExpr{Offset: c.Offset, Value: !c.Value}
	}
	return &expr.NotExpr{Offset: pos, X: x}
}

// isType maps a type IS tests (DynamoDB Local's list: MISSING, NULL,
// BOOLEAN, BLOB, STRING, NUMERIC, STRUCT, TUPLE, LIST) to its attribute
// type; ok is false for another name (MISSING and NULL are tested apart).
func isType(name string) (k storage.Kind, ok bool) {
	switch name {
	case "BOOLEAN":
		return storage.KindBOOL, true
	case "BLOB":
		return storage.KindB, true
	case "STRING":
		return storage.KindS, true
	case "NUMERIC":
		return storage.KindN, true
	case "STRUCT", "TUPLE":
		return storage.KindM, true
	case "LIST":
		return storage.KindL, true
	}
	return 0, false
}

// is lowers x IS [NOT] MISSING | NULL | type: for a path, attribute_not_exists
// or attribute_type; for a literal, decided here (5 IS NUMERIC is true, as
// DynamoDB Local answers). A missing attribute IS NOT NULL and IS NOT
// STRING (DynamoDB Local). Another type names DynamoDB Local's refusal,
// placed at IS; another left-hand side too.
func (l *lowerer) is(e *partiql.Is) (expr.Expr, *Error) {
	x := unparen(e.X)
	path, isPath := x.(*partiql.Path)
	if !isPath && !isScalarLiteral(x) {
		return nil, errPlain(msgIsOperand) // before the type (DynamoDB Local)
	}
	kind := storage.KindNULL
	switch {
	case e.What == partiql.MISSING:
		kind = storage.KindInvalid
	case e.Type != nil:
		k, ok := isType(e.Type.Name)
		if !ok {
			line, col, ln := l.at(e.OpPos, 2)
			return nil, errf(e.OpPos, msgIsType, e.Type.Name, line, col, ln)
		}
		kind = k
	}
	var out expr.Expr
	if isPath {
		p, err := l.path(path)
		if err != nil {
			return nil, err
		}
		if kind == storage.KindInvalid {
			out = &expr.CallExpr{Offset: e.OpPos, Fun: "attribute_not_exists", Args: []expr.Expr{p}}
		} else {
			out = &expr.CallExpr{Offset: e.OpPos, Fun: "attribute_type", Args: []expr.Expr{p,
				&expr.ValueExpr{Offset: e.OpPos, Value: storage.S(kind.String())}}}
		}
	} else {
		v, err := l.value(x, valuePath{})
		if err != nil {
			return nil, err
		}
		out = &expr.ConstExpr{Offset: e.OpPos, Value: kind != storage.KindInvalid && v.Kind() == kind}
	}
	if e.Not {
		return notOf(out, e.OpPos), nil
	}
	return out, nil
}

// isScalarLiteral reports whether e is a literal IS may test: a string,
// a number (signed too), TRUE, FALSE or NULL; not MISSING, a parameter or
// a collection (DynamoDB Local refuses those).
func isScalarLiteral(e partiql.Expr) bool {
	switch e := e.(type) {
	case *partiql.Literal:
		return e.Tok != partiql.MISSING
	case *partiql.Unary:
		lit, ok := e.X.(*partiql.Literal)
		return ok && lit.Tok == partiql.NUMBER && (e.Op == partiql.MINUS || e.Op == partiql.PLUS)
	}
	return false
}
