package partiql

import (
	"strings"
)

// Node is any node of a parsed statement. Every node knows the byte offset
// where it starts and prints back to canonical source: keywords in upper
// case, single spaces, ", " between list members, strings in single quotes.
type Node interface {
	Pos() int
	String() string
}

// Statement is one of *Select, *Insert, *Update, *Delete and *Exists.
type Statement interface {
	Node
	stmtNode()
}

// Expr is a node of an expression: a path, a literal, a parameter or an
// operator applied to expressions.
type Expr interface {
	Node
	exprNode()
}

// Name is an identifier as written: plain (pk) or quoted ("my-table").
type Name struct {
	Offset int
	Text   string // the name, quotes removed
	Quoted bool
}

func (n Name) String() string {
	if n.Quoted || !isPlainIdent(n.Text) {
		return Quote(n.Text, '"')
	}
	return n.Text
}

// isPlainIdent reports whether s scans as one IDENT token.
func isPlainIdent(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentChar(s[i]) {
			return false
		}
	}
	return Lookup(s) == IDENT
}

// Target names the table of a statement and, for SELECT, optionally an
// index: "table" or "table"."index".
type Target struct {
	Table Name
	Index *Name // nil when no index is named
	Extra int   // components after the index: AWS allows none
}

func (t Target) String() string {
	if t.Index != nil {
		return t.Table.String() + "." + t.Index.String()
	}
	return t.Table.String()
}

// OrderTerm is one term of ORDER BY: a path and an optional direction.
type OrderTerm struct {
	Path *Path
	Dir  Token // ASC, DESC, or ILLEGAL when not given
}

func (o OrderTerm) String() string {
	if o.Dir == ASC || o.Dir == DESC {
		return o.Path.String() + " " + o.Dir.String()
	}
	return o.Path.String()
}

// Select is SELECT projection FROM target [WHERE cond] [ORDER BY terms].
type Select struct {
	Offset     int
	Star       bool   // SELECT *
	Projection []Expr // when not Star
	From       Target
	Where      Expr // nil when absent
	OrderBy    []OrderTerm
}

// Insert is INSERT INTO target VALUE value.
type Insert struct {
	Offset int
	Into   Target
	Value  Expr
}

// Action is one SET path = value or REMOVE path of an UPDATE.
type Action struct {
	Offset int   // offset of the SET/REMOVE keyword, or of the path after a comma
	Op     Token // SET or REMOVE
	Path   *Path
	Value  Expr // nil for REMOVE
	Comma  bool // joined to the previous SET by "," rather than its own SET
}

// Update is UPDATE target actions [WHERE cond] [RETURNING ...], or (From)
// PartiQL's FROM-first form FROM target [WHERE cond] actions [RETURNING
// ...], which DynamoDB runs the same way.
type Update struct {
	Offset    int
	From      bool // written FROM target [WHERE ...] SET ...
	Table     Target
	Actions   []*Action
	Where     Expr
	Returning *Returning
}

// Delete is DELETE FROM target [WHERE cond] [RETURNING ...].
type Delete struct {
	Offset    int
	From      Target
	Where     Expr
	Returning *Returning
}

// Returning is RETURNING (ALL | MODIFIED) (OLD | NEW) *.
type Returning struct {
	Offset int
	Which  Token // ALL or MODIFIED
	Image  Token // OLD or NEW
}

func (r *Returning) String() string {
	return "RETURNING " + r.Which.String() + " " + r.Image.String() + " *"
}

// Exists is EXISTS(SELECT ...), a condition check of ExecuteTransaction.
type Exists struct {
	Offset int
	Query  *Select
}

func (s *Select) Pos() int { return s.Offset }
func (s *Insert) Pos() int { return s.Offset }
func (s *Update) Pos() int { return s.Offset }
func (s *Delete) Pos() int { return s.Offset }
func (s *Exists) Pos() int { return s.Offset }

func (*Select) stmtNode() {}
func (*Insert) stmtNode() {}
func (*Update) stmtNode() {}
func (*Delete) stmtNode() {}
func (*Exists) stmtNode() {}

func (s *Select) String() string {
	var b strings.Builder
	b.WriteString("SELECT ")
	if s.Star {
		b.WriteByte('*')
	} else {
		b.WriteString(joinExprs(s.Projection))
	}
	b.WriteString(" FROM ")
	b.WriteString(s.From.String())
	if s.Where != nil {
		b.WriteString(" WHERE ")
		b.WriteString(s.Where.String())
	}
	for i, o := range s.OrderBy {
		if i == 0 {
			b.WriteString(" ORDER BY ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(o.String())
	}
	return b.String()
}

func (s *Insert) String() string {
	return "INSERT INTO " + s.Into.String() + " VALUE " + s.Value.String()
}

func (a *Action) String() string {
	if a.Op == REMOVE {
		return "REMOVE " + a.Path.String()
	}
	return a.Path.String() + " = " + a.Value.String()
}

func (s *Update) String() string {
	var b strings.Builder
	if s.From {
		b.WriteString("FROM ")
		b.WriteString(s.Table.String())
		writeTail(&b, s.Where, nil)
	} else {
		b.WriteString("UPDATE ")
		b.WriteString(s.Table.String())
	}
	for _, a := range s.Actions {
		switch {
		case a.Comma:
			b.WriteString(", ")
		case a.Op == SET:
			b.WriteString(" SET ")
		default:
			b.WriteByte(' ')
		}
		b.WriteString(a.String())
	}
	if s.From {
		writeTail(&b, nil, s.Returning)
	} else {
		writeTail(&b, s.Where, s.Returning)
	}
	return b.String()
}

func (s *Delete) String() string {
	var b strings.Builder
	b.WriteString("DELETE FROM ")
	b.WriteString(s.From.String())
	writeTail(&b, s.Where, s.Returning)
	return b.String()
}

func writeTail(b *strings.Builder, where Expr, r *Returning) {
	if where != nil {
		b.WriteString(" WHERE ")
		b.WriteString(where.String())
	}
	if r != nil {
		b.WriteByte(' ')
		b.WriteString(r.String())
	}
}

func (s *Exists) String() string { return "EXISTS(" + s.Query.String() + ")" }

// PathElem is one step of a path: a name (first element, .name or
// ['name']) or a list index ([3]).
type PathElem struct {
	Offset  int
	Name    Name   // for a name step
	IsIndex bool   // [n]
	Index   string // the index literal as written, sign included ("-1")
	Bracket bool   // a name step written ['name']
}

// Path is a document path: a.b[1]."c"['d'].
type Path struct {
	Elems []PathElem
}

func (x *Path) String() string {
	var b strings.Builder
	for i, e := range x.Elems {
		switch {
		case e.IsIndex:
			b.WriteString("[" + e.Index + "]")
		case e.Bracket:
			b.WriteString("[" + Quote(e.Name.Text, '\'') + "]")
		case i > 0:
			b.WriteString("." + e.Name.String())
		default:
			b.WriteString(e.Name.String())
		}
	}
	return b.String()
}

// Literal is a scalar literal. Tok is STRING, NUMBER, TRUE, FALSE, NULL or
// MISSING; Text is the string without quotes or the number as written,
// a leading minus sign included.
type Literal struct {
	Offset int
	Tok    Token
	Text   string
}

func (x *Literal) String() string {
	switch x.Tok {
	case STRING:
		return Quote(x.Text, '\'')
	case NUMBER:
		return x.Text
	}
	return x.Tok.String()
}

// Param is a ? parameter; N is its ordinal (0 for the first ? of the
// statement), the index into ExecuteStatement's Parameters.
type Param struct {
	Offset int
	N      int
}

func (x *Param) String() string { return "?" }

// ListLit is [a, b, ...].
type ListLit struct {
	Offset int
	Elems  []Expr
}

func (x *ListLit) String() string { return "[" + joinExprs(x.Elems) + "]" }

// BagLit is <<a, b, ...>>, a set.
type BagLit struct {
	Offset int
	Elems  []Expr
}

func (x *BagLit) String() string { return "<<" + joinExprs(x.Elems) + ">>" }

// Field is one key: value pair of a TupleLit.
type Field struct {
	Key, Value Expr
}

// TupleLit is {'k': v, ...}, a map.
type TupleLit struct {
	Offset int
	Fields []Field
}

func (x *TupleLit) String() string {
	parts := make([]string, len(x.Fields))
	for i, f := range x.Fields {
		parts[i] = f.Key.String() + ": " + f.Value.String()
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// Binary is x op y for AND, OR, comparisons, LIKE, ||, + - * /.
type Binary struct {
	OpPos int
	Op    Token
	X, Y  Expr
}

func (x *Binary) String() string {
	return x.X.String() + " " + x.Op.String() + " " + x.Y.String()
}

// Unary is NOT x, -x or +x.
type Unary struct {
	Offset int
	Op     Token
	X      Expr
}

func (x *Unary) String() string {
	if x.Op == NOT {
		return "NOT " + x.X.String()
	}
	s := x.X.String()
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
		return x.Op.String() + " " + s
	}
	return x.Op.String() + s
}

// Between is x [NOT] BETWEEN lo AND hi.
type Between struct {
	OpPos     int
	Not       bool
	X, Lo, Hi Expr
}

func (x *Between) String() string {
	return x.X.String() + not(x.Not) + " BETWEEN " + x.Lo.String() + " AND " + x.Hi.String()
}

// In is x [NOT] IN list. A list written in the statement is Elems with
// Open LPAREN or LBRACK; otherwise (x IN ?) Right holds the operand.
type In struct {
	OpPos int
	Not   bool
	X     Expr
	Open  Token // LPAREN or LBRACK for a written list; ILLEGAL with Right
	Elems []Expr
	Right Expr
}

func (x *In) String() string {
	s := x.X.String() + not(x.Not) + " IN "
	switch x.Open {
	case LPAREN:
		return s + "(" + joinExprs(x.Elems) + ")"
	case LBRACK:
		return s + "[" + joinExprs(x.Elems) + "]"
	}
	return s + x.Right.String()
}

// Is is x IS [NOT] (MISSING | NULL | type). What is MISSING or NULL, or
// ILLEGAL with Type set.
type Is struct {
	OpPos int
	Not   bool
	X     Expr
	What  Token
	Type  *TypeName
}

func (x *Is) String() string {
	s := x.X.String() + " IS "
	if x.Not {
		s += "NOT "
	}
	if x.Type != nil {
		return s + x.Type.String()
	}
	return s + x.What.String()
}

// TypeName is a type after IS: BOOL, STRING, DOUBLE PRECISION, DECIMAL(5,
// 2), ...
type TypeName struct {
	Offset   int
	Name     string   // the type as DynamoDB's messages name it: BOOLEAN, DOUBLE_PRECISION, ...
	Spelling string   // as written, upper case: BOOL, DOUBLE PRECISION
	Args     []string // integer parameters as written
}

func (t *TypeName) String() string {
	if len(t.Args) == 0 {
		return t.Spelling
	}
	return t.Spelling + "(" + strings.Join(t.Args, ", ") + ")"
}

// Call is a function call: begins_with(a, 'x'), size(a), ...
type Call struct {
	Offset int
	Fun    string // as written
	Args   []Expr
	Star   bool // f(*), only as an element of a SELECT list (no Args)
}

func (x *Call) String() string {
	if x.Star {
		return x.Fun + "(*)"
	}
	return x.Fun + "(" + joinExprs(x.Args) + ")"
}

// Paren is (x).
type Paren struct {
	Offset int
	X      Expr
}

func (x *Paren) String() string { return "(" + x.X.String() + ")" }

func (x *Path) Pos() int     { return x.Elems[0].Offset }
func (x *Literal) Pos() int  { return x.Offset }
func (x *Param) Pos() int    { return x.Offset }
func (x *ListLit) Pos() int  { return x.Offset }
func (x *BagLit) Pos() int   { return x.Offset }
func (x *TupleLit) Pos() int { return x.Offset }
func (x *Binary) Pos() int   { return x.X.Pos() }
func (x *Unary) Pos() int    { return x.Offset }
func (x *Between) Pos() int  { return x.X.Pos() }
func (x *In) Pos() int       { return x.X.Pos() }
func (x *Is) Pos() int       { return x.X.Pos() }
func (x *Call) Pos() int     { return x.Offset }
func (x *Paren) Pos() int    { return x.Offset }

func (*Path) exprNode()     {}
func (*Literal) exprNode()  {}
func (*Param) exprNode()    {}
func (*ListLit) exprNode()  {}
func (*BagLit) exprNode()   {}
func (*TupleLit) exprNode() {}
func (*Binary) exprNode()   {}
func (*Unary) exprNode()    {}
func (*Between) exprNode()  {}
func (*In) exprNode()       {}
func (*Is) exprNode()       {}
func (*Call) exprNode()     {}
func (*Paren) exprNode()    {}

func not(b bool) string {
	if b {
		return " NOT"
	}
	return ""
}

func joinExprs(xs []Expr) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = x.String()
	}
	return strings.Join(parts, ", ")
}

// Walk visits x and its children in source order (pre-order) while f
// returns true.
func Walk(x Expr, f func(Expr) bool) {
	if x == nil || !f(x) {
		return
	}
	switch x := x.(type) {
	case *ListLit:
		walkAll(x.Elems, f)
	case *BagLit:
		walkAll(x.Elems, f)
	case *TupleLit:
		for _, fl := range x.Fields {
			Walk(fl.Key, f)
			Walk(fl.Value, f)
		}
	case *Binary:
		Walk(x.X, f)
		Walk(x.Y, f)
	case *Unary:
		Walk(x.X, f)
	case *Between:
		Walk(x.X, f)
		Walk(x.Lo, f)
		Walk(x.Hi, f)
	case *In:
		Walk(x.X, f)
		walkAll(x.Elems, f)
		Walk(x.Right, f)
	case *Is:
		Walk(x.X, f)
	case *Call:
		walkAll(x.Args, f)
	case *Paren:
		Walk(x.X, f)
	}
}

func walkAll(xs []Expr, f func(Expr) bool) {
	for _, x := range xs {
		Walk(x, f)
	}
}
