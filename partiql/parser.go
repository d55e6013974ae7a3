package partiql

// maxDepth caps the nesting of expressions. Statements within DynamoDB's
// 8192-character limit that a person writes never come near it; it keeps a
// hostile statement from exhausting the stack.
const maxDepth = 1000

type tokenInfo struct {
	pos int
	tok Token
	lit string
}

// parser holds the whole token stream of one statement (DynamoDB caps a
// statement at 8192 characters).
type parser struct {
	src    string
	toks   []tokenInfo
	i      int
	depth  int
	params int // ? seen so far
}

// bailout carries a syntax error out of the recursive descent.
type bailout struct{ err *Error }

func newParser(src string) *parser {
	p := &parser{src: src, toks: make([]tokenInfo, 0, len(src)/4+2)}
	var s Scanner
	s.Init(src)
	for {
		pos, tok, lit := s.Scan()
		p.toks = append(p.toks, tokenInfo{pos, tok, lit})
		if tok == EOF {
			break
		}
	}
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
	if p.tok() == SEMICOLON {
		p.next()
	}
	if p.tok() != EOF {
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

func (p *parser) tok() Token     { return p.toks[p.i].tok }
func (p *parser) cur() tokenInfo { return p.toks[p.i] }
func (p *parser) peek(n int) Token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n].tok
	}
	return EOF
}
func (p *parser) next() {
	if p.i < len(p.toks)-1 {
		p.i++
	}
}

// fail reports the current token as a syntax error; want says what the
// grammar expected there.
func (p *parser) fail(want string) {
	t := p.cur()
	kind := KindUnexpectedToken
	switch {
	case t.tok == EOF:
		kind = KindUnexpectedEnd
	case t.tok == ILLEGAL:
		kind = KindIllegal
	case t.tok.IsKeyword():
		kind = KindUnexpectedKeyword
	}
	p.failKind(kind, want)
}

func (p *parser) failKind(kind ErrorKind, want string) {
	t := p.cur()
	line, col := Position(p.src, t.pos)
	panic(bailout{&Error{Kind: kind, Pos: t.pos, Line: line, Column: col, Len: utf16Len(t.lit),
		Tok: t.tok, Lit: t.lit, Want: want}})
}

func (p *parser) expect(t Token) tokenInfo {
	if p.tok() != t {
		p.fail(t.String())
	}
	ti := p.cur()
	p.next()
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
	switch p.tok() {
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
	if p.tok() == ILLEGAL {
		p.fail("SELECT, INSERT, UPDATE, DELETE or EXISTS")
	}
	p.failKind(KindNotStatement, "SELECT, INSERT, UPDATE, DELETE or EXISTS")
	return nil
}

// select := SELECT ( "*" | expr { "," expr } ) FROM target
//
//	[ WHERE expr ] [ ORDER BY orderTerm { "," orderTerm } ]
func (p *parser) parseSelect() *Select {
	s := &Select{Offset: p.expect(SELECT).pos}
	if p.tok() == STAR {
		s.Star = true
		p.next()
	} else {
		s.Projection = p.parseExprList()
	}
	p.expect(FROM)
	s.From = p.parseTarget(true)
	if p.tok() == WHERE {
		p.next()
		s.Where = p.parseExpr()
	}
	if p.tok() == ORDER {
		p.next()
		p.expect(BY)
		for {
			o := OrderTerm{Path: p.parsePath(), Dir: ILLEGAL}
			if t := p.tok(); t == ASC || t == DESC {
				o.Dir = t
				p.next()
			}
			s.OrderBy = append(s.OrderBy, o)
			if p.tok() != COMMA {
				break
			}
			p.next()
		}
	}
	return s
}

// target := name [ "." name ]   (the second name, an index, only in SELECT)
// name   := IDENT | QIDENT
func (p *parser) parseTarget(index bool) Target {
	t := Target{Table: p.parseName()}
	if index && p.tok() == PERIOD {
		p.next()
		n := p.parseName()
		t.Index = &n
	}
	return t
}

func (p *parser) parseName() Name {
	t := p.cur()
	switch t.tok {
	case IDENT:
		p.next()
		return Name{Offset: t.pos, Text: t.lit}
	case QIDENT:
		p.next()
		return Name{Offset: t.pos, Text: Unquote(t.lit), Quoted: true}
	}
	p.fail("identifier")
	return Name{}
}

// insert := INSERT INTO target VALUE expr
func (p *parser) parseInsert() *Insert {
	s := &Insert{Offset: p.expect(INSERT).pos}
	p.expect(INTO)
	s.Into = p.parseTarget(false)
	p.expect(VALUE)
	s.Value = p.parseExpr()
	return s
}

// update := UPDATE target action { action } [ WHERE expr ] [ returning ]
// action := SET path "=" expr { "," path "=" expr } | REMOVE path
func (p *parser) parseUpdate() *Update {
	s := &Update{Offset: p.expect(UPDATE).pos}
	s.Table = p.parseTarget(false)
	for p.tok() == SET || p.tok() == REMOVE {
		t := p.cur()
		p.next()
		if t.tok == REMOVE {
			s.Actions = append(s.Actions, &Action{Offset: t.pos, Op: REMOVE, Path: p.parsePath()})
			continue
		}
		comma := false
		for {
			a := &Action{Offset: t.pos, Op: SET, Comma: comma, Path: p.parsePath()}
			p.expect(EQ)
			a.Value = p.parseExpr()
			s.Actions = append(s.Actions, a)
			if p.tok() != COMMA {
				break
			}
			p.next()
			comma, t = true, p.cur()
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
	s := &Delete{Offset: p.expect(DELETE).pos}
	p.expect(FROM)
	s.From = p.parseTarget(false)
	s.Where = p.parseWhere()
	s.Returning = p.parseReturning()
	return s
}

func (p *parser) parseWhere() Expr {
	if p.tok() != WHERE {
		return nil
	}
	p.next()
	return p.parseExpr()
}

// returning := RETURNING ( ALL | MODIFIED ) ( OLD | NEW ) "*"
func (p *parser) parseReturning() *Returning {
	if p.tok() != RETURNING {
		return nil
	}
	r := &Returning{Offset: p.cur().pos}
	p.next()
	if t := p.tok(); t != ALL && t != MODIFIED {
		p.fail("ALL or MODIFIED")
	}
	r.Which = p.tok()
	p.next()
	if t := p.tok(); t != OLD && t != NEW {
		p.fail("OLD or NEW")
	}
	r.Image = p.tok()
	p.next()
	p.expect(STAR)
	return r
}

// exists := EXISTS "(" select ")"
func (p *parser) parseExists() *Exists {
	s := &Exists{Offset: p.expect(EXISTS).pos}
	p.expect(LPAREN)
	if p.tok() != SELECT {
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
		switch p.tok() {
		case PERIOD:
			p.next()
			n := p.parseName()
			x.Elems = append(x.Elems, PathElem{Offset: n.Offset, Name: n})
		case LBRACK:
			p.next()
			t := p.cur()
			switch t.tok {
			case STRING:
				p.next()
				x.Elems = append(x.Elems, PathElem{Offset: t.pos, Bracket: true,
					Name: Name{Offset: t.pos, Text: Unquote(t.lit)}})
			case MINUS, NUMBER:
				lit := ""
				if t.tok == MINUS {
					p.next()
					lit = "-"
				}
				lit += p.expect(NUMBER).lit
				x.Elems = append(x.Elems, PathElem{Offset: t.pos, IsIndex: true, Index: lit})
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
	for p.tok() == COMMA {
		p.next()
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
		t := p.cur()
		op := t.tok
		negated := false
		if op == NOT && (p.peek(1) == IN || p.peek(1) == BETWEEN) {
			negated = true
			op = p.peek(1)
		}
		prec := op.Precedence()
		if prec < minPrec || prec == LowestPrec || (op == NOT && !negated) {
			return x
		}
		p.next()
		if negated {
			p.next()
		}
		switch op {
		case BETWEEN:
			lo := p.parseBinary(precCmp + 1)
			p.expect(AND)
			hi := p.parseBinary(precCmp + 1)
			x = &Between{OpPos: t.pos, Not: negated, X: x, Lo: lo, Hi: hi}
		case IN:
			x = p.parseIn(t.pos, negated, x)
		case IS:
			is := &Is{OpPos: t.pos, X: x}
			if p.tok() == NOT {
				is.Not = true
				p.next()
			}
			switch w := p.tok(); w {
			case MISSING, NULL, TRUE, FALSE:
				is.What = w
				p.next()
			default:
				p.fail("MISSING or NULL")
			}
			x = is
		default:
			y := p.parseBinary(prec + 1)
			x = &Binary{OpPos: t.pos, Op: op, X: x, Y: y}
		}
	}
}

// in := IN ( "(" exprList ")" | "[" exprList "]" | sum )
func (p *parser) parseIn(pos int, negated bool, x Expr) Expr {
	in := &In{OpPos: pos, Not: negated, X: x, Open: ILLEGAL}
	switch open := p.tok(); open {
	case LPAREN, LBRACK:
		p.next()
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
	t := p.cur()
	switch t.tok {
	case NOT:
		p.next()
		return &Unary{Offset: t.pos, Op: NOT, X: p.parseBinary(precNot)}
	case MINUS, PLUS:
		p.next()
		if n := p.cur(); t.tok == MINUS && n.tok == NUMBER && n.pos == t.pos+1 {
			p.next()
			return &Literal{Offset: t.pos, Tok: NUMBER, Text: "-" + n.lit}
		}
		return &Unary{Offset: t.pos, Op: t.tok, X: p.parseUnary()}
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
	t := p.cur()
	switch t.tok {
	case IDENT:
		if p.peek(1) == LPAREN {
			return p.parseCall()
		}
		return p.parsePath()
	case QIDENT:
		return p.parsePath()
	case STRING:
		p.next()
		return &Literal{Offset: t.pos, Tok: STRING, Text: Unquote(t.lit)}
	case NUMBER:
		p.next()
		return &Literal{Offset: t.pos, Tok: NUMBER, Text: t.lit}
	case TRUE, FALSE, NULL, MISSING:
		p.next()
		return &Literal{Offset: t.pos, Tok: t.tok}
	case PARAM:
		p.next()
		p.params++
		return &Param{Offset: t.pos, N: p.params - 1}
	case LPAREN:
		p.next()
		x := p.parseExpr()
		p.expect(RPAREN)
		return &Paren{Offset: t.pos, X: x}
	case LBRACK:
		p.next()
		l := &ListLit{Offset: t.pos}
		if p.tok() != RBRACK {
			l.Elems = p.parseExprList()
		}
		p.expect(RBRACK)
		return l
	case LBAG:
		p.next()
		b := &BagLit{Offset: t.pos}
		if p.tok() != RBAG {
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
	t := p.cur()
	p.next()
	p.expect(LPAREN)
	c := &Call{Offset: t.pos, Fun: t.lit}
	if p.tok() != RPAREN {
		c.Args = p.parseExprList()
	}
	p.expect(RPAREN)
	// A call may be followed by a path (f(x).a is not DynamoDB's): stop here.
	return c
}

func (p *parser) parseTuple() Expr {
	x := &TupleLit{Offset: p.expect(LBRACE).pos}
	if p.tok() != RBRACE {
		for {
			k := p.parseExpr()
			p.expect(COLON)
			v := p.parseExpr()
			x.Fields = append(x.Fields, Field{Key: k, Value: v})
			if p.tok() != COMMA {
				break
			}
			p.next()
		}
	}
	p.expect(RBRACE)
	return x
}
