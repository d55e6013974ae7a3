package partiql

import "github.com/dynamoemu/dynamoemu/internal/lex"

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
	var s Scanner
	s.Init(src)
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
	st = p.parseStatement()
	if p.Tok() == SEMICOLON {
		p.Next()
	}
	if p.Tok() != EOF {
		p.fail("end of statement")
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

func (p *parser) failKind(kind ErrorKind, want string) {
	t := p.Cur()
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

// statement := select | insert | update | delete | exists
func (p *parser) parseStatement() Statement {
	switch p.Tok() {
	case SELECT:
		return p.parseSelect()
	case INSERT:
		return p.parseInsert()
	case UPDATE:
		return p.parseUpdate()
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
func (p *parser) parseSelect() *Select {
	s := &Select{Offset: p.expect(SELECT).Pos}
	if p.Tok() == STAR {
		s.Star = true
		p.Next()
	} else {
		s.Projection = p.parseExprList()
	}
	p.expect(FROM)
	s.From = p.parseTarget(true)
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

// target := name [ "." name ]   (the second name, an index, only in SELECT)
// name   := IDENT | QIDENT
func (p *parser) parseTarget(index bool) Target {
	t := Target{Table: p.parseName()}
	if index && p.Tok() == PERIOD {
		p.Next()
		n := p.parseName()
		t.Index = &n
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
func (p *parser) parseInsert() *Insert {
	s := &Insert{Offset: p.expect(INSERT).Pos}
	p.expect(INTO)
	s.Into = p.parseTarget(false)
	p.expect(VALUE)
	s.Value = p.parseExpr()
	return s
}

// update := UPDATE target action { action } [ WHERE expr ] [ returning ]
// action := SET path "=" expr { "," path "=" expr } | REMOVE path
func (p *parser) parseUpdate() *Update {
	s := &Update{Offset: p.expect(UPDATE).Pos}
	s.Table = p.parseTarget(false)
	for p.Tok() == SET || p.Tok() == REMOVE {
		t := p.Cur()
		p.Next()
		if t.Tok == REMOVE {
			s.Actions = append(s.Actions, &Action{Offset: t.Pos, Op: REMOVE, Path: p.parsePath()})
			continue
		}
		comma := false
		for {
			a := &Action{Offset: t.Pos, Op: SET, Comma: comma, Path: p.parsePath()}
			p.expect(EQ)
			a.Value = p.parseExpr()
			s.Actions = append(s.Actions, a)
			if p.Tok() != COMMA {
				break
			}
			p.Next()
			comma, t = true, p.Cur()
		}
	}
	if len(s.Actions) == 0 {
		p.fail("SET or REMOVE")
	}
	s.Where = p.parseWhere()
	s.Returning = p.parseReturning()
	return s
}

// delete := DELETE FROM target [ WHERE expr ] [ returning ]
func (p *parser) parseDelete() *Delete {
	s := &Delete{Offset: p.expect(DELETE).Pos}
	p.expect(FROM)
	s.From = p.parseTarget(false)
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
			case MISSING, NULL, TRUE, FALSE:
				is.What = w
				p.Next()
			default:
				p.fail("MISSING or NULL")
			}
			x = is
		default:
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
		in.Elems = p.parseExprList()
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
// call  := IDENT "(" [ exprList ] ")"
// field := expr ":" expr
func (p *parser) parsePrimary() Expr {
	t := p.Cur()
	switch t.Tok {
	case IDENT:
		if p.Peek(1) == LPAREN {
			return p.parseCall()
		}
		return p.parsePath()
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
	}
	p.fail("expression")
	return nil
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
