package expr

import (
	"strconv"

	"github.com/dynamoemu/dynamoemu/internal/lex"
)

// maxParseDepth caps recursion. Inputs within DynamoDB's 4 KB size limit
// never reach it; it protects direct callers of the Parse functions.
const maxParseDepth = 2500

// parser holds the whole token stream of one expression (at most a few KB),
// which lets syntax errors quote the neighbouring tokens as DynamoDB does.
type parser struct {
	lex.Stream[Token]
	src   string
	param string // "ConditionExpression", ... for messages
	mode  Mode
	depth int
}

// bailout carries a syntax error out of the recursive descent.
type bailout struct{ err *Error }

func newParser(param, src string, mode Mode) *parser {
	p := &parser{src: src, param: param, mode: mode}
	var s lex.Scanner[Token]
	s.Init(src, rules, words[mode])
	p.Fill(s.Scan, EOF, 0)
	return p
}

// run calls f, turning a syntax-error bailout into an error value. Other
// panics are bugs and propagate.
func (p *parser) run(f func()) (err *Error) {
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			err = b.err
		}
	}()
	f()
	return nil
}

// syntaxError reports the current token the way DynamoDB does: the token's
// text and the source from the previous token through the next one.
func (p *parser) syntaxError() {
	i := p.Index()
	t := p.Cur()
	start := 0
	if i > 0 {
		start = p.At(i - 1).Pos
	}
	end := len(p.src)
	if t.Tok != EOF && i+1 < p.Len() && p.At(i+1).Tok != EOF {
		n := p.At(i + 1)
		end = n.Pos + len(n.Lit)
	}
	lit := t.Lit
	if t.Tok == EOF {
		lit = "<EOF>"
	}
	panic(bailout{exprError(p.param, t.Pos, sprintf(msgSyntax, lit, p.src[start:end]))})
}

func (p *parser) expect(t Token) int {
	if p.Tok() != t {
		p.syntaxError()
	}
	pos := p.Cur().Pos
	p.Next()
	return pos
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxParseDepth {
		p.syntaxError()
	}
}

func (p *parser) leave() { p.depth-- }

// Node classes decide where a node may appear.
type class uint8

const (
	classOperand   class = iota // path, value, (operand)
	classCondition              // comparison, BETWEEN, IN, AND, OR, NOT, (condition)
	classCall                   // function call: either, checked after parsing
)

func classOf(x Expr) class {
	switch x := x.(type) {
	case *PathExpr, *ValueExpr:
		return classOperand
	case *CallExpr:
		return classCall
	case *ParenExpr:
		return classOf(x.X)
	case *BinaryExpr:
		if x.Op == PLUS || x.Op == MINUS {
			return classOperand
		}
	}
	return classCondition
}

// path := (IDENT | NAME) { "." (IDENT | NAME) | "[" INT "]" }
func (p *parser) parsePath() *PathExpr {
	t := p.Cur()
	if t.Tok != IDENT && t.Tok != NAME {
		p.syntaxError()
	}
	x := &PathExpr{Elems: []PathElem{{Offset: t.Pos, Name: t.Lit}}}
	p.Next()
	for {
		switch p.Tok() {
		case PERIOD:
			p.Next()
			t := p.Cur()
			if t.Tok != IDENT && t.Tok != NAME {
				p.syntaxError()
			}
			x.Elems = append(x.Elems, PathElem{Offset: t.Pos, Name: t.Lit})
			p.Next()
		case LBRACK:
			p.Next()
			t := p.Cur()
			if t.Tok != INT {
				p.syntaxError()
			}
			n, err := strconv.Atoi(t.Lit)
			if err != nil || n > maxListIndex {
				n = -1 // out of range; reported by the checker
			}
			x.Elems = append(x.Elems, PathElem{Offset: t.Pos, Index: n, IsIndex: true, Lit: t.Lit})
			p.Next()
			p.expect(RBRACK)
		default:
			return x
		}
	}
}

const maxListIndex = 1<<31 - 1

// operand := path | VALUE | call | "(" operand ")"
// call    := IDENT "(" operand { "," operand } ")"
func (p *parser) parseOperand() Expr {
	p.enter()
	defer p.leave()
	t := p.Cur()
	switch t.Tok {
	case IDENT:
		if p.Peek(1) == LPAREN {
			return p.parseCall(p.parseOperand)
		}
		return p.parsePath()
	case NAME:
		return p.parsePath()
	case VALUE:
		p.Next()
		return &ValueExpr{Offset: t.Pos, Name: t.Lit}
	case LPAREN:
		p.Next()
		x := p.parseOperand()
		p.expect(RPAREN)
		return &ParenExpr{Offset: t.Pos, X: x}
	}
	p.syntaxError()
	return nil
}

func (p *parser) parseCall(arg func() Expr) *CallExpr {
	t := p.Cur()
	p.Next()
	p.expect(LPAREN)
	c := &CallExpr{Offset: t.Pos, Fun: t.Lit}
	c.Args = append(c.Args, arg())
	for p.Tok() == COMMA {
		p.Next()
		c.Args = append(c.Args, arg())
	}
	p.expect(RPAREN)
	return c
}

// condition := unary { binop ... } by precedence climbing:
//
//	or     := and { OR and }
//	and    := not { AND not }
//	not    := NOT not | cmp
//	cmp    := operand ( comparator operand | BETWEEN operand AND operand
//	          | IN "(" operand { "," operand } ")" ) | call | "(" condition ")"
func (p *parser) parseBinary(minPrec int) Expr {
	p.enter()
	defer p.leave()
	x := p.parseUnary()
	for {
		t := p.Cur()
		prec := t.Tok.Precedence()
		if prec < minPrec || prec == LowestPrec || t.Tok == NOT || t.Tok == PLUS || t.Tok == MINUS {
			return x
		}
		switch {
		case t.Tok == AND || t.Tok == OR:
			if classOf(x) == classOperand {
				p.syntaxError()
			}
			p.Next()
			y := p.parseBinary(prec + 1)
			if classOf(y) == classOperand {
				p.syntaxError()
			}
			x = &BinaryExpr{OpPos: t.Pos, Op: t.Tok, X: x, Y: y}
		default: // comparison, BETWEEN, IN
			if classOf(x) == classCondition {
				p.syntaxError()
			}
			p.Next()
			switch t.Tok {
			case BETWEEN:
				lo := p.parseOperand()
				p.expect(AND)
				hi := p.parseOperand()
				x = &BetweenExpr{OpPos: t.Pos, X: x, Lo: lo, Hi: hi}
			case IN:
				p.expect(LPAREN)
				in := &InExpr{OpPos: t.Pos, X: x}
				in.List = append(in.List, p.parseOperand())
				for p.Tok() == COMMA {
					p.Next()
					in.List = append(in.List, p.parseOperand())
				}
				p.expect(RPAREN)
				x = in
			default:
				y := p.parseOperand()
				x = &BinaryExpr{OpPos: t.Pos, Op: t.Tok, X: x, Y: y}
			}
		}
	}
}

func (p *parser) parseUnary() Expr {
	t := p.Cur()
	switch t.Tok {
	case NOT:
		p.Next()
		x := p.parseBinary(precNot)
		if classOf(x) == classOperand {
			p.syntaxError()
		}
		return &NotExpr{Offset: t.Pos, X: x}
	case LPAREN:
		p.Next()
		x := p.parseBinary(precOr)
		p.expect(RPAREN)
		return &ParenExpr{Offset: t.Pos, X: x}
	}
	return p.parseOperand()
}

// ParseCondition parses a ConditionExpression, FilterExpression or
// KeyConditionExpression (param names it in error messages). It checks
// syntax only; the Compiler does the rest.
func ParseCondition(param, src string) (Expr, error) {
	x, err := parseCondition(param, src)
	if err != nil {
		return nil, err
	}
	return x, nil
}

func parseCondition(param, src string) (Expr, *Error) {
	if err := checkText(param, src); err != nil {
		return nil, err
	}
	p := newParser(param, src, ModeCondition)
	var x Expr
	if err := p.run(func() {
		x = p.parseBinary(precOr)
		if p.Tok() != EOF || classOf(x) == classOperand {
			p.syntaxError()
		}
	}); err != nil {
		return nil, err
	}
	if err := checkParens(param, x); err != nil {
		return nil, err
	}
	return x, nil
}

// checkText applies the checks DynamoDB makes before parsing.
func checkText(param, src string) *Error {
	if src == "" {
		return exprError(param, 0, msgEmpty)
	}
	if n := utf16Len(src); n > maxExpressionSize {
		// Condition-language expressions state their size; projections
		// and updates do not.
		if param == paramProjection || param == paramUpdate {
			return exprError(param, maxExpressionSize, msgSizeNoCount)
		}
		return exprError(param, maxExpressionSize, sprintf(msgSize, n))
	}
	return nil
}

// maxExpressionSize is DynamoDB's limit on an expression's length (4 KB).
const maxExpressionSize = 4096

func utf16Len(s string) int { return lex.UTF16Len(s) }

// checkParens rejects a parenthesis directly around another one.
func checkParens(param string, x Expr) *Error {
	var err *Error
	walk(x, func(n Expr) bool {
		if err != nil {
			return false
		}
		if p, ok := n.(*ParenExpr); ok {
			if _, ok := p.X.(*ParenExpr); ok {
				err = exprError(param, p.Offset, msgRedundantParens)
				return false
			}
		}
		return true
	})
	return err
}

// walk visits x and its children in source order (pre-order) while f
// returns true.
func walk(x Expr, f func(Expr) bool) {
	if x == nil || !f(x) {
		return
	}
	switch x := x.(type) {
	case *CallExpr:
		for _, a := range x.Args {
			walk(a, f)
		}
	case *ParenExpr:
		walk(x.X, f)
	case *BinaryExpr:
		walk(x.X, f)
		walk(x.Y, f)
	case *NotExpr:
		walk(x.X, f)
	case *BetweenExpr:
		walk(x.X, f)
		walk(x.Lo, f)
		walk(x.Hi, f)
	case *InExpr:
		walk(x.X, f)
		for _, a := range x.List {
			walk(a, f)
		}
	}
}

// ParseUpdate parses an UpdateExpression (syntax only).
func ParseUpdate(src string) (*UpdateExpr, error) {
	u, err := parseUpdate(src)
	if err != nil {
		return nil, err
	}
	return u, nil
}

const paramUpdate = "UpdateExpression"

// update := clause { clause }
// clause := SET path "=" value { "," path "=" value }
//
//	| REMOVE path { "," path }
//	| ADD path VALUE { "," path VALUE }
//	| DELETE path VALUE { "," path VALUE }
func parseUpdate(src string) (*UpdateExpr, *Error) {
	if err := checkText(paramUpdate, src); err != nil {
		return nil, err
	}
	p := newParser(paramUpdate, src, ModeUpdate)
	u := &UpdateExpr{}
	err := p.run(func() {
		for {
			t := p.Cur()
			switch t.Tok {
			case SET, REMOVE, ADD, DELETE:
			default:
				p.syntaxError()
			}
			p.Next()
			c := &UpdateClause{Offset: t.Pos, Op: t.Tok}
			for {
				a := &UpdateAction{Op: t.Tok, Path: p.parsePath()}
				switch t.Tok {
				case SET:
					p.expect(EQ)
					a.Value = p.parseSetValue()
				case ADD, DELETE:
					v := p.Cur()
					p.expect(VALUE)
					a.Value = &ValueExpr{Offset: v.Pos, Name: v.Lit}
				}
				c.Actions = append(c.Actions, a)
				if p.Tok() != COMMA {
					break
				}
				p.Next()
			}
			u.Clauses = append(u.Clauses, c)
			if p.Tok() == EOF {
				return
			}
		}
	})
	if err != nil {
		return nil, err
	}
	for _, c := range u.Clauses {
		for _, a := range c.Actions {
			if a.Value != nil {
				if err := checkParens(paramUpdate, a.Value); err != nil {
					return nil, err
				}
			}
		}
	}
	return u, nil
}

// value   := setOperand [ ("+" | "-") setOperand ]
// setOperand := path | VALUE | call | "(" value ")"
func (p *parser) parseSetValue() Expr {
	x := p.parseSetOperand()
	if t := p.Cur(); t.Tok == PLUS || t.Tok == MINUS {
		p.Next()
		y := p.parseSetOperand()
		x = &BinaryExpr{OpPos: t.Pos, Op: t.Tok, X: x, Y: y}
	}
	return x
}

func (p *parser) parseSetOperand() Expr {
	p.enter()
	defer p.leave()
	t := p.Cur()
	switch t.Tok {
	case IDENT:
		if p.Peek(1) == LPAREN {
			return p.parseCall(p.parseSetOperand)
		}
		return p.parsePath()
	case NAME:
		return p.parsePath()
	case VALUE:
		p.Next()
		return &ValueExpr{Offset: t.Pos, Name: t.Lit}
	case LPAREN:
		p.Next()
		x := p.parseSetValue()
		p.expect(RPAREN)
		return &ParenExpr{Offset: t.Pos, X: x}
	}
	p.syntaxError()
	return nil
}

const paramProjection = "ProjectionExpression"

// ParseProjection parses a ProjectionExpression: path { "," path }.
func ParseProjection(src string) (*ProjectionExpr, error) {
	x, err := parseProjection(src)
	if err != nil {
		return nil, err
	}
	return x, nil
}

func parseProjection(src string) (*ProjectionExpr, *Error) {
	if err := checkText(paramProjection, src); err != nil {
		return nil, err
	}
	p := newParser(paramProjection, src, ModeProjection)
	x := &ProjectionExpr{}
	err := p.run(func() {
		x.Paths = append(x.Paths, p.parsePath())
		for p.Tok() == COMMA {
			p.Next()
			x.Paths = append(x.Paths, p.parsePath())
		}
		if p.Tok() != EOF {
			p.syntaxError()
		}
	})
	if err != nil {
		return nil, err
	}
	return x, nil
}
