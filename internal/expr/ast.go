package expr

import (
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Expr is a node of a condition or update-value expression. Every node
// knows its byte position and prints back to canonical source.
type Expr interface {
	Pos() int
	String() string
	exprNode()
}

// PathElem is one element of a document path: an attribute name, a
// #placeholder or a list index.
type PathElem struct {
	Offset  int    // byte offset of the element
	Name    string // identifier or "#placeholder"; "" for an index
	Index   int    // list index when IsIndex (negative: out of range)
	IsIndex bool
	Lit     string // index literal as written (for range errors)
	// Resolved says Name is the attribute name itself, resolved by the
	// caller that built the tree (see [Compiler.CompileCondition]): not a
	// #placeholder, and not checked against DynamoDB's reserved words. The
	// parser never sets it.
	Resolved bool
}

// PathExpr is a document path such as a.#b[2].c.
type PathExpr struct {
	Elems    []PathElem
	resolved Path // filled in by the compiler
	attr     int  // resolved[0]'s index in its condition's attributes (condition.go)
}

// ValueExpr is a :placeholder, or (Name "") a value given by the caller
// that built the tree.
type ValueExpr struct {
	Offset int
	Name   string // ":placeholder"; "" for a value the caller gives in Value
	// Value is the caller's value when Name is "". For a placeholder it is
	// unset: the compiler binds the request's value to the node's slot,
	// beside the program, so that the tree holds no request's values and
	// can be shared (cache.go).
	Value storage.Value
	slot  int // the index of its value among the expression's values, set by the compiler
}

// ConstExpr is a condition that is always true or always false. The parser
// never makes one (the expression languages have no such literal); a
// caller that builds a tree uses it for a condition it has decided already
// (PartiQL's 5 IS NUMERIC).
type ConstExpr struct {
	Offset int
	Value  bool
}

// CallExpr is a function call: attribute_exists(a), size(a), ...
type CallExpr struct {
	Offset int
	Fun    string
	Args   []Expr
}

// ParenExpr is a parenthesized condition or operand.
type ParenExpr struct {
	Offset int
	X      Expr
}

// BinaryExpr is a comparison (= <> < <= > >=), a logical AND/OR, or, in
// update expressions, + or -.
type BinaryExpr struct {
	OpPos int
	Op    Token
	X, Y  Expr
}

// NotExpr is NOT x.
type NotExpr struct {
	Offset int
	X      Expr
}

// BetweenExpr is x BETWEEN lo AND hi.
type BetweenExpr struct {
	OpPos     int
	X, Lo, Hi Expr
}

// InExpr is x IN (a, b, ...).
type InExpr struct {
	OpPos int
	X     Expr
	List  []Expr
}

func (x *PathExpr) Pos() int    { return x.Elems[0].Offset }
func (x *ValueExpr) Pos() int   { return x.Offset }
func (x *CallExpr) Pos() int    { return x.Offset }
func (x *ParenExpr) Pos() int   { return x.Offset }
func (x *BinaryExpr) Pos() int  { return x.X.Pos() }
func (x *NotExpr) Pos() int     { return x.Offset }
func (x *BetweenExpr) Pos() int { return x.X.Pos() }
func (x *InExpr) Pos() int      { return x.X.Pos() }
func (x *ConstExpr) Pos() int   { return x.Offset }

func (*PathExpr) exprNode()    {}
func (*ValueExpr) exprNode()   {}
func (*CallExpr) exprNode()    {}
func (*ParenExpr) exprNode()   {}
func (*BinaryExpr) exprNode()  {}
func (*NotExpr) exprNode()     {}
func (*BetweenExpr) exprNode() {}
func (*InExpr) exprNode()      {}
func (*ConstExpr) exprNode()   {}

func (x *PathExpr) String() string {
	var b strings.Builder
	for i, e := range x.Elems {
		switch {
		case e.IsIndex:
			b.WriteByte('[')
			if e.Lit != "" {
				b.WriteString(e.Lit)
			} else {
				b.WriteString(strconv.Itoa(e.Index))
			}
			b.WriteByte(']')
		case i > 0:
			b.WriteByte('.')
			b.WriteString(e.Name)
		default:
			b.WriteString(e.Name)
		}
	}
	return b.String()
}

// String returns the placeholder, or for a value given by the caller its
// DynamoDB JSON-like brief ({N:5}), which does not parse back.
func (x *ValueExpr) String() string {
	if x.Name == "" {
		return "{" + valueBrief(x.Value) + "}"
	}
	return x.Name
}

// String returns TRUE or FALSE, which do not parse back: the expression
// languages have no boolean literal.
func (x *ConstExpr) String() string {
	if x.Value {
		return "TRUE"
	}
	return "FALSE"
}

func (x *CallExpr) String() string {
	parts := make([]string, len(x.Args))
	for i, a := range x.Args {
		parts[i] = a.String()
	}
	return x.Fun + "(" + strings.Join(parts, ", ") + ")"
}

func (x *ParenExpr) String() string { return "(" + x.X.String() + ")" }

func (x *BinaryExpr) String() string {
	return x.X.String() + " " + x.Op.String() + " " + x.Y.String()
}

func (x *NotExpr) String() string { return "NOT " + x.X.String() }

func (x *BetweenExpr) String() string {
	return x.X.String() + " BETWEEN " + x.Lo.String() + " AND " + x.Hi.String()
}

func (x *InExpr) String() string {
	parts := make([]string, len(x.List))
	for i, a := range x.List {
		parts[i] = a.String()
	}
	return x.X.String() + " IN (" + strings.Join(parts, ", ") + ")"
}

// UpdateAction is one action of an update expression: SET path = Value,
// REMOVE path, ADD path Value, DELETE path Value.
type UpdateAction struct {
	Op    Token // SET, REMOVE, ADD or DELETE
	Path  *PathExpr
	Value Expr // nil for REMOVE
}

// UpdateClause is one SET/REMOVE/ADD/DELETE section.
type UpdateClause struct {
	Offset  int
	Op      Token
	Actions []*UpdateAction
}

// UpdateExpr is a parsed UpdateExpression: its clauses in source order.
type UpdateExpr struct {
	Clauses []*UpdateClause
}

func (a *UpdateAction) String() string {
	switch a.Op {
	case SET:
		return a.Path.String() + " = " + a.Value.String()
	case REMOVE:
		return a.Path.String()
	}
	return a.Path.String() + " " + a.Value.String()
}

func (u *UpdateExpr) String() string {
	var b strings.Builder
	for i, c := range u.Clauses {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.Op.String())
		for j, a := range c.Actions {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteByte(' ')
			b.WriteString(a.String())
		}
	}
	return b.String()
}

// ProjectionExpr is a parsed ProjectionExpression.
type ProjectionExpr struct {
	Paths []*PathExpr
}

func (p *ProjectionExpr) String() string {
	parts := make([]string, len(p.Paths))
	for i, x := range p.Paths {
		parts[i] = x.String()
	}
	return strings.Join(parts, ", ")
}
