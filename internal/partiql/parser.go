package partiql

import (
	"strings"
	"sync"

	"github.com/dynamoemu/dynamoemu/internal/lex"
)

// maxDepth caps the nesting of expressions. Statements within DynamoDB's
// 8192-character limit that a person writes never come near it; it keeps a
// hostile statement from exhausting the stack.
const maxDepth = 1000

// parser holds the whole token stream of one statement (DynamoDB caps a
// statement at 8192 characters).
type parser struct {
	lex.Stream[Token]
	src    string
	depth  int
	params int // ? seen so far
}

// bailout carries a syntax error out of the recursive descent.
type bailout struct{ err *Error }

func newParser(src string) *parser {
	p := &parser{src: src}
	var s lex.Scanner[Token]
	s.Init(src, rules, Lookup)
	p.Fill(s.Scan, EOF, len(src)/4+2)
	return p
}

// Parse parses one statement. A trailing ";" is allowed. Errors are
// *Error values wrapping ErrSyntax.
func Parse(src string) (Statement, error) {
	st, err := parse(src)
	if err != nil {
		return nil, err
	}
	return st, nil
}

func parse(src string) (st Statement, err *Error) {
	p := newParser(src)
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r) // a bug, not a syntax error
			}
			st, err = nil, b.err
		}
	}()
	p.lexErrors()
	st = p.parseStatement()
	if p.Tok() == SEMICOLON {
		p.Next()
	}
	if p.Tok() != EOF {
		p.failKind(KindLeftover, "end of statement")
	}
	return st, nil
}

// ParamCount returns how many ? parameters the statement has.
func ParamCount(st Statement) int {
	n := 0
	visit := func(x Expr) bool {
		if _, ok := x.(*Param); ok {
			n++
		}
		return true
	}
	forEachExpr(st, func(x Expr) { Walk(x, visit) })
	return n
}

// forEachExpr calls f with every top-level expression of st.
func forEachExpr(st Statement, f func(Expr)) {
	switch s := st.(type) {
	case *Select:
		for _, x := range s.Projection {
			f(x)
		}
		if s.Where != nil {
			f(s.Where)
		}
		for _, o := range s.OrderBy {
			f(o.Path)
		}
	case *Insert:
		f(s.Value)
	case *Update:
		for _, a := range s.Actions {
			f(a.Path)
			if a.Value != nil {
				f(a.Value)
			}
		}
		if s.Where != nil {
			f(s.Where)
		}
	case *Delete:
		if s.Where != nil {
			f(s.Where)
		}
	case *Exists:
		forEachExpr(s.Query, f)
	}
}

// fail reports the current token as a syntax error; want says what the
// grammar expected there.
func (p *parser) fail(want string) {
	t := p.Cur()
	kind := KindUnexpectedToken
	switch {
	case t.Tok == EOF:
		kind = KindUnexpectedEnd
	case t.Tok == ILLEGAL:
		kind = KindIllegal
	case t.Tok.IsKeyword():
		kind = KindUnexpectedKeyword
	}
	p.failKind(kind, want)
}

func (p *parser) failKind(kind ErrorKind, want string) { p.failAt(p.Index(), kind, want) }

// failAt reports token i as a syntax error of the given kind.
func (p *parser) failAt(i int, kind ErrorKind, want string) {
	t := p.At(i)
	line, col := Position(p.src, t.Pos)
	panic(bailout{&Error{Kind: kind, Pos: t.Pos, Line: line, Column: col, Len: utf16Len(t.Lit),
		Tok: t.Tok, Lit: t.Lit, Want: want}})
}

func (p *parser) expect(t Token) lex.Item[Token] {
	if p.Tok() != t {
		p.fail(t.String())
	}
	ti := p.Cur()
	p.Next()
	return ti
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.failKind(KindTooDeep, "")
	}
}

func (p *parser) leave() { p.depth-- }

// statement := select | insert | update | fromUpdate | delete | exists
func (p *parser) parseStatement() Statement {
	switch p.Tok() {
	case SELECT:
		return p.parseSelect()
	case INSERT:
		return p.parseInsert()
	case UPDATE:
		return p.parseUpdate()
	case FROM:
		return p.parseFromUpdate()
	case DELETE:
		return p.parseDelete()
	case EXISTS:
		return p.parseExists()
	}
	if p.Tok() == ILLEGAL {
		p.fail("SELECT, INSERT, UPDATE, DELETE or EXISTS")
	}
	p.failKind(KindNotStatement, "SELECT, INSERT, UPDATE, DELETE or EXISTS")
	return nil
}

// select := SELECT ( "*" | expr { "," expr } ) FROM target
//
//	[ WHERE expr ] [ ORDER BY orderTerm { "," orderTerm } ]
//
// An alias (SELECT a AS b, FROM t x, FROM t AS x) is refused.
func (p *parser) parseSelect() *Select {
	s := &Select{Offset: p.expect(SELECT).Pos}
	if p.Tok() == STAR {
		s.Star = true
		p.Next()
	} else {
		for {
			if (p.Tok() == IDENT || p.Tok() == RESERVED) && p.Peek(1) == LPAREN && p.Peek(2) == STAR && p.Peek(3) == RPAREN {
				// An aggregate over all items (COUNT(*)): DynamoDB's parser
				// reads it and its lowering refuses it, after the
				// multi-attribute key refusal (lower.LowerSelect).
				t := p.Cur()
				p.Next()
				p.Next()
				p.Next()
				p.Next()
				s.Projection = append(s.Projection, &Call{Offset: t.Pos, Fun: t.Lit, Star: true})
			} else {
				s.Projection = append(s.Projection, p.parseExpr())
			}
			p.refuseAlias()
			if p.Tok() != COMMA {
				break
			}
			p.Next()
		}
	}
	p.expect(FROM)
	if t := p.Tok(); t == EOF || t == SEMICOLON {
		p.failKind(KindUnexpectedTerm, "table") // AWS: the source of a SELECT is an expression
	}
	s.From = p.parseTarget(true)
	p.refuseAlias()
	if p.Tok() == WHERE {
		p.Next()
		s.Where = p.parseExpr()
	}
	if p.Tok() == ORDER {
		p.Next()
		p.expect(BY)
		for {
			o := OrderTerm{Path: p.parsePath(), Dir: ILLEGAL}
			if t := p.Tok(); t == ASC || t == DESC {
				o.Dir = t
				p.Next()
			}
			s.OrderBy = append(s.OrderBy, o)
			if p.Tok() != COMMA {
				break
			}
			p.Next()
		}
	}
	return s
}

// refuseAlias refuses an alias where one could follow: an identifier, or
// AS.
func (p *parser) refuseAlias() {
	t := p.Cur()
	if t.Tok == IDENT || t.Tok == QIDENT || t.Tok == RESERVED && strings.EqualFold(t.Lit, "AS") {
		p.failKind(KindAliasing, "no alias")
	}
}

// dmlTarget is the table of INSERT INTO, UPDATE, DELETE FROM and FROM ...
// SET: a name must come (AWS: "Expected identifier for simple path"). An
// index after it is read, and refused by the caller as AWS refuses it
// before it looks the table up.
func (p *parser) dmlTarget() Target {
	if t := p.Tok(); t != IDENT && t != QIDENT {
		p.failKind(KindExpectedIdent, "table name")
	}
	return p.parseTarget(true)
}

// target := name [ "." name ]   (the second name, an index, read when index)
// name   := IDENT | QIDENT
func (p *parser) parseTarget(index bool) Target {
	t := Target{Table: p.parseName()}
	if index && p.Tok() == PERIOD {
		p.Next()
		n := p.parseName()
		t.Index = &n
		for p.Tok() == PERIOD { // refused after parsing, as AWS refuses it
			p.Next()
			p.parseName()
			t.Extra++
		}
	}
	return t
}

func (p *parser) parseName() Name {
	t := p.Cur()
	switch t.Tok {
	case IDENT:
		p.Next()
		return Name{Offset: t.Pos, Text: t.Lit}
	case QIDENT:
		p.Next()
		return Name{Offset: t.Pos, Text: Unquote(t.Lit), Quoted: true}
	}
	p.fail("identifier")
	return Name{}
}

// insert := INSERT INTO target VALUE expr
//
// Anything but VALUE after the table is left over (AWS answers an alias
// there with "Unexpected token after expression").
func (p *parser) parseInsert() *Insert {
	s := &Insert{Offset: p.expect(INSERT).Pos}
	p.expect(INTO)
	s.Into = p.dmlTarget()
	if t := p.Tok(); t != VALUE && t != EOF {
		p.failKind(KindLeftover, "VALUE")
	}
	p.expect(VALUE)
	s.Value = p.parseExpr()
	return s
}

// update := UPDATE target action { action } [ WHERE expr ] [ returning ]
func (p *parser) parseUpdate() *Update {
	s := &Update{Offset: p.expect(UPDATE).Pos}
	s.Table = p.dmlTarget()
	p.refuseAlias()
	s.Actions = p.parseActions()
	s.Where = p.parseWhere()
	s.Returning = p.parseReturning()
	return s
}

// fromUpdate := FROM target [ WHERE expr ] action { action } [ returning ]
//
// PartiQL's FROM-first form of UPDATE, which DynamoDB runs as an UPDATE
// (public records of AWS answers); the WHERE clause comes before the
// actions.
func (p *parser) parseFromUpdate() *Update {
	s := &Update{Offset: p.expect(FROM).Pos, From: true}
	s.Table = p.dmlTarget()
	p.refuseAlias()
	s.Where = p.parseWhere()
	s.Actions = p.parseActions()
	s.Returning = p.parseReturning()
	return s
}

// actions := action { action }
// action  := SET path "=" expr { "," path "=" expr } | REMOVE path
func (p *parser) parseActions() []*Action {
	var actions []*Action
	for p.Tok() == SET || p.Tok() == REMOVE {
		t := p.Cur()
		p.Next()
		if t.Tok == REMOVE {
			actions = append(actions, &Action{Offset: t.Pos, Op: REMOVE, Path: p.parsePath()})
			continue
		}
		comma := false
		for {
			a := &Action{Offset: t.Pos, Op: SET, Comma: comma, Path: p.parsePath()}
			p.expect(EQ)
			a.Value = p.parseExpr()
			actions = append(actions, a)
			if p.Tok() != COMMA {
				break
			}
			p.Next()
			comma, t = true, p.Cur()
		}
	}
	if len(actions) == 0 {
		p.fail("SET or REMOVE")
	}
	return actions
}

// delete := DELETE FROM target [ WHERE expr ] [ returning ]
func (p *parser) parseDelete() *Delete {
	s := &Delete{Offset: p.expect(DELETE).Pos}
	p.expect(FROM)
	s.From = p.dmlTarget()
	p.refuseAlias()
	s.Where = p.parseWhere()
	s.Returning = p.parseReturning()
	return s
}

func (p *parser) parseWhere() Expr {
	if p.Tok() != WHERE {
		return nil
	}
	p.Next()
	return p.parseExpr()
}

// returning := RETURNING ( ALL | MODIFIED ) ( OLD | NEW ) "*"
func (p *parser) parseReturning() *Returning {
	if p.Tok() != RETURNING {
		return nil
	}
	r := &Returning{Offset: p.Cur().Pos}
	p.Next()
	if t := p.Tok(); t != ALL && t != MODIFIED {
		p.fail("ALL or MODIFIED")
	}
	r.Which = p.Tok()
	p.Next()
	if t := p.Tok(); t != OLD && t != NEW {
		p.fail("OLD or NEW")
	}
	r.Image = p.Tok()
	p.Next()
	p.expect(STAR)
	return r
}

// exists := EXISTS "(" select ")"
func (p *parser) parseExists() *Exists {
	s := &Exists{Offset: p.expect(EXISTS).Pos}
	p.expect(LPAREN)
	if p.Tok() != SELECT {
		p.fail("SELECT")
	}
	s.Query = p.parseSelect()
	p.expect(RPAREN)
	return s
}

// path := name { "." name | "[" ( [ "-" ] NUMBER | STRING ) "]" }
func (p *parser) parsePath() *Path {
	n := p.parseName()
	x := &Path{Elems: []PathElem{{Offset: n.Offset, Name: n}}}
	p.parsePathRest(x)
	return x
}

func (p *parser) parsePathRest(x *Path) {
	for {
		switch p.Tok() {
		case PERIOD:
			p.Next()
			if t := p.Tok(); t != IDENT && t != QIDENT {
				p.failKind(KindPathComponent, "name")
			}
			n := p.parseName()
			x.Elems = append(x.Elems, PathElem{Offset: n.Offset, Name: n})
		case LBRACK:
			p.Next()
			t := p.Cur()
			switch t.Tok {
			case STRING:
				p.Next()
				x.Elems = append(x.Elems, PathElem{Offset: t.Pos, Bracket: true,
					Name: Name{Offset: t.Pos, Text: Unquote(t.Lit)}})
			case MINUS, NUMBER:
				lit := ""
				if t.Tok == MINUS {
					p.Next()
					lit = "-"
				}
				lit += p.expect(NUMBER).Lit
				x.Elems = append(x.Elems, PathElem{Offset: t.Pos, IsIndex: true, Index: lit})
			default:
				p.fail("list index")
			}
			p.expect(RBRACK)
		default:
			return
		}
	}
}

// exprList := expr { "," expr }
func (p *parser) parseExprList() []Expr {
	xs := []Expr{p.parseExpr()}
	for p.Tok() == COMMA {
		p.Next()
		xs = append(xs, p.parseExpr())
	}
	return xs
}

func (p *parser) parseExpr() Expr { return p.parseBinary(precOr) }

// binary := unary { op binary } by precedence climbing ([Token.Precedence]):
//
//	or    := and { OR and }
//	and   := not { AND not }
//	not   := NOT not | cmp
//	cmp   := sum [ ( "=" | "<>" | "<" | "<=" | ">" | ">=" | LIKE ) sum
//	         | [ NOT ] BETWEEN sum AND sum | [ NOT ] IN ( list | sum )
//	         | IS [ NOT ] ( MISSING | NULL | TRUE | FALSE ) ]
//	sum   := concat-level terms joined by || + - * /
func (p *parser) parseBinary(minPrec int) Expr {
	p.enter()
	defer p.leave()
	x := p.parseUnary()
	for {
		t := p.Cur()
		op := t.Tok
		negated := false
		if op == NOT && (p.Peek(1) == IN || p.Peek(1) == BETWEEN) {
			negated = true
			op = p.Peek(1)
		}
		prec := op.Precedence()
		if prec < minPrec || prec == LowestPrec || (op == NOT && !negated) {
			return x
		}
		p.Next()
		if negated {
			p.Next()
		}
		switch op {
		case BETWEEN:
			lo := p.parseBinary(precCmp + 1)
			p.expect(AND)
			hi := p.parseBinary(precCmp + 1)
			x = &Between{OpPos: t.Pos, Not: negated, X: x, Lo: lo, Hi: hi}
		case IN:
			x = p.parseIn(t.Pos, negated, x)
		case IS:
			is := &Is{OpPos: t.Pos, X: x}
			if p.Tok() == NOT {
				is.Not = true
				p.Next()
			}
			switch w := p.Tok(); w {
			case MISSING, NULL:
				is.What = w
				p.Next()
			default:
				is.Type = p.parseTypeName()
			}
			x = is
		default:
			if t := p.Tok(); t == EOF || t == SEMICOLON {
				p.failKind(KindMissingOperand, "right-hand operand")
			}
			y := p.parseBinary(prec + 1)
			x = &Binary{OpPos: t.Pos, Op: op, X: x, Y: y}
		}
	}
}

// in := IN ( "(" exprList ")" | "[" exprList "]" | sum )
func (p *parser) parseIn(pos int, negated bool, x Expr) Expr {
	in := &In{OpPos: pos, Not: negated, X: x, Open: ILLEGAL}
	switch open := p.Tok(); open {
	case LPAREN, LBRACK:
		p.Next()
		in.Open = open
		if t := p.Tok(); t != RPAREN && t != RBRACK {
			in.Elems = p.parseExprList() // x IN [] parses: DynamoDB refuses it for its meaning
		}
		if open == LPAREN {
			p.expect(RPAREN)
		} else {
			p.expect(RBRACK)
		}
	default:
		in.Right = p.parseBinary(precCmp + 1)
	}
	return in
}

// unary := NOT binary | "-" unary | "+" unary | primary
func (p *parser) parseUnary() Expr {
	p.enter()
	defer p.leave()
	t := p.Cur()
	switch t.Tok {
	case NOT:
		p.Next()
		return &Unary{Offset: t.Pos, Op: NOT, X: p.parseBinary(precNot)}
	case MINUS, PLUS:
		p.Next()
		if n := p.Cur(); t.Tok == MINUS && n.Tok == NUMBER && n.Pos == t.Pos+1 {
			p.Next()
			return &Literal{Offset: t.Pos, Tok: NUMBER, Text: "-" + n.Lit}
		}
		return &Unary{Offset: t.Pos, Op: t.Tok, X: p.parseUnary()}
	}
	return p.parsePrimary()
}

// primary := path | call | STRING | NUMBER | TRUE | FALSE | NULL | MISSING
//
//	| "?" | "(" expr ")" | "[" [ exprList ] "]" | "<<" [ exprList ] ">>"
//	| "{" [ field { "," field } ] "}"
//
// call  := ( IDENT | RESERVED | EXISTS ) "(" [ exprList ] ")"
// field := expr ":" expr
//
// A reserved word is a name only as a function's (size(a), EXISTS(a)).
func (p *parser) parsePrimary() Expr {
	t := p.Cur()
	switch t.Tok {
	case IDENT, RESERVED, EXISTS:
		if p.Peek(1) == LPAREN {
			return p.parseCall()
		}
		if t.Tok == IDENT {
			return p.parsePath()
		}
	case QIDENT:
		return p.parsePath()
	case STRING:
		p.Next()
		return &Literal{Offset: t.Pos, Tok: STRING, Text: Unquote(t.Lit)}
	case NUMBER:
		p.Next()
		return &Literal{Offset: t.Pos, Tok: NUMBER, Text: t.Lit}
	case TRUE, FALSE, NULL, MISSING:
		p.Next()
		return &Literal{Offset: t.Pos, Tok: t.Tok}
	case PARAM:
		p.Next()
		p.params++
		return &Param{Offset: t.Pos, N: p.params - 1}
	case LPAREN:
		p.Next()
		x := p.parseExpr()
		p.expect(RPAREN)
		return &Paren{Offset: t.Pos, X: x}
	case LBRACK:
		p.Next()
		l := &ListLit{Offset: t.Pos}
		if p.Tok() != RBRACK {
			l.Elems = p.parseExprList()
		}
		p.expect(RBRACK)
		return l
	case LBAG:
		p.Next()
		b := &BagLit{Offset: t.Pos}
		if p.Tok() != RBAG {
			b.Elems = p.parseExprList()
		}
		p.expect(RBAG)
		return b
	case LBRACE:
		return p.parseTuple()
	case EOF, SEMICOLON:
		p.failKind(KindUnexpectedTerm, "expression")
	}
	if t.Tok.Precedence() != LowestPrec && t.Tok != NOT {
		p.failKind(KindUnexpectedOperator, "expression")
	}
	p.fail("expression")
	return nil
}

// lexErrors refuses a statement with a token its lexer cannot read, the
// first in the statement, before any syntax error (DynamoDB's lexer reads
// the whole statement first): text that starts no token (a stray
// character, an unterminated string, identifier or comment) and a number
// DynamoDB cannot read.
func (p *parser) lexErrors() {
	for i := 0; i < p.Len(); i++ {
		switch t := p.At(i); t.Tok {
		case ILLEGAL:
			p.failAt(i, KindIllegal, "a token")
		case NUMBER:
			if badNumber(t.Lit) {
				p.failAt(i, KindBadNumber, "a number in range")
			}
		}
	}
}

// badNumber reports a number DynamoDB's parser cannot read: its exponent,
// or its scale (digits after the point less the exponent), does not fit a
// 32-bit integer, as Java's BigDecimal requires (public records of AWS
// answers: 1e2147483648, 1e99999999999 and 1.5e-2147483647 are not well
// formed, with nothing after the colon). A number in that range but past
// DynamoDB's limits (1e126) parses: the check of the statement's values
// refuses it.
func badNumber(lit string) bool {
	mant, exp, hasExp := strings.Cut(strings.ToLower(lit), "e")
	scale := int64(0)
	if _, frac, ok := strings.Cut(mant, "."); ok {
		scale = int64(len(frac))
	}
	if !hasExp {
		return false
	}
	neg := strings.HasPrefix(exp, "-")
	exp = strings.TrimLeft(exp, "+-")
	exp = strings.TrimLeft(exp, "0")
	const maxInt32, minInt32 = 1<<31 - 1, -1 << 31
	if len(exp) > 10 {
		return true
	}
	e := int64(0)
	for i := 0; i < len(exp); i++ {
		e = e*10 + int64(exp[i]-'0')
	}
	if neg {
		e = -e
	}
	return e > maxInt32 || e < minInt32 || scale-e > maxInt32 || scale-e < minInt32
}

func (p *parser) parseCall() Expr {
	t := p.Cur()
	p.Next()
	p.expect(LPAREN)
	c := &Call{Offset: t.Pos, Fun: t.Lit}
	if p.Tok() != RPAREN {
		c.Args = p.parseExprList()
	}
	p.expect(RPAREN)
	// A call may be followed by a path (f(x).a is not DynamoDB's): stop here.
	return c
}

func (p *parser) parseTuple() Expr {
	x := &TupleLit{Offset: p.expect(LBRACE).Pos}
	if p.Tok() != RBRACE {
		for {
			k := p.parseExpr()
			p.expect(COLON)
			v := p.parseExpr()
			x.Fields = append(x.Fields, Field{Key: k, Value: v})
			if p.Tok() != COMMA {
				break
			}
			p.Next()
		}
	}
	p.expect(RBRACE)
	return x
}

// typeNames are the type names IS takes, by spelling (one word, or the
// first of two): the type's name in DynamoDB's messages, the second word
// it needs or may have, and how many integer parameters it may have
// (VARCHAR(3), DECIMAL(5, 2)). The list is PartiQL's; DynamoDB Local 3.3.0
// accepts each (DOUBLE PRECISION names DOUBLE_PRECISION, INT names
// INTEGER, ...) but INT2, INT4, INT8, INTEGER2, INTEGER4, INTEGER8 and
// BIGINT, which AWS's newer parser takes (a public record of AWS answers:
// x IS INT4 parses).
//
// The table is built at its first use, not at the server's start (issue
// 25; internal/lint TestServerInitLazy).
var typeNames = sync.OnceValue(func() map[string]typeSpec {
	return map[string]typeSpec{
		"BOOL": {name: "BOOLEAN"}, "BOOLEAN": {name: "BOOLEAN"},
		"SMALLINT": {name: "SMALLINT"}, "INT2": {name: "SMALLINT"}, "INTEGER2": {name: "SMALLINT"},
		"INT": {name: "INTEGER"}, "INTEGER": {name: "INTEGER"},
		"INT4": {name: "INTEGER4"}, "INTEGER4": {name: "INTEGER4"},
		"INT8": {name: "INTEGER8"}, "INTEGER8": {name: "INTEGER8"}, "BIGINT": {name: "INTEGER8"},
		"FLOAT": {name: "FLOAT", maxArgs: 1}, "REAL": {name: "REAL"},
		"DOUBLE":  {name: "DOUBLE_PRECISION", second: "PRECISION", needed: true, withWord: "DOUBLE_PRECISION"},
		"DECIMAL": {name: "DECIMAL", maxArgs: 2}, "DEC": {name: "DECIMAL", maxArgs: 2},
		"NUMERIC":   {name: "NUMERIC", maxArgs: 2},
		"TIMESTAMP": {name: "TIMESTAMP"}, "DATE": {name: "DATE"}, "TIME": {name: "TIME", maxArgs: 1},
		"CHAR": {name: "CHARACTER", maxArgs: 1}, "CHARACTER": {name: "CHARACTER", second: "VARYING", maxArgs: 1, withWord: "CHARACTER_VARYING"},
		"VARCHAR": {name: "CHARACTER_VARYING", maxArgs: 1},
		"STRING":  {name: "STRING"}, "SYMBOL": {name: "SYMBOL"}, "CLOB": {name: "CLOB"}, "BLOB": {name: "BLOB"},
		"STRUCT": {name: "STRUCT"}, "TUPLE": {name: "TUPLE"}, "LIST": {name: "LIST"}, "SEXP": {name: "SEXP"},
		"BAG": {name: "BAG"},
	}
})

// typeSpec is one entry of typeNames.
type typeSpec struct {
	name     string
	second   string // a second word: "PRECISION" (needed), "VARYING" (optional)
	needed   bool   // the second word is needed
	maxArgs  int
	withWord string // the name with the second word
}

// typeName := word [ word ] [ "(" NUMBER { "," NUMBER } ")" ]
func (p *parser) parseTypeName() *TypeName {
	t := p.Cur()
	word := strings.ToUpper(t.Lit)
	spec, ok := typeNames()[word]
	if !ok || t.Tok != IDENT && t.Tok != RESERVED {
		p.failKind(KindExpectedTypeName, "type name")
	}
	p.Next()
	tn := &TypeName{Offset: t.Pos, Name: spec.name, Spelling: word}
	if spec.second != "" {
		if n := p.Cur(); (n.Tok == IDENT || n.Tok == RESERVED) && strings.EqualFold(n.Lit, spec.second) {
			p.Next()
			tn.Name, tn.Spelling = spec.withWord, word+" "+spec.second
			spec.maxArgs = 1
			if spec.needed {
				spec.maxArgs = 0
			}
		} else if spec.needed {
			p.failKind(KindExpectedTypeName, spec.second)
		}
	}
	if spec.maxArgs > 0 && p.Tok() == LPAREN {
		p.Next()
		for {
			n := p.Cur()
			if n.Tok != NUMBER || strings.Trim(n.Lit, "0123456789") != "" || len(tn.Args) == spec.maxArgs {
				p.fail("integer")
			}
			tn.Args = append(tn.Args, n.Lit)
			p.Next()
			if p.Tok() != COMMA {
				break
			}
			p.Next()
		}
		p.expect(RPAREN)
	}
	return tn
}
