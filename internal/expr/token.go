package expr

import "strconv"

// Token is the kind of a lexical token of the expression languages.
type Token int

// The tokens. Keywords are matched case-insensitively; function names are
// plain identifiers (DynamoDB matches them case-sensitively).
const (
	ILLEGAL Token = iota
	EOF

	literalBeg
	IDENT // attribute name: letter (letter | digit | _)*
	NAME  // #placeholder
	VALUE // :placeholder
	INT   // list index: 0 | [1-9][0-9]*
	literalEnd

	operatorBeg
	EQ     // =
	NE     // <>
	LT     // <
	LE     // <=
	GT     // >
	GE     // >=
	PLUS   // +
	MINUS  // -
	LPAREN // (
	RPAREN // )
	LBRACK // [
	RBRACK // ]
	COMMA  // ,
	PERIOD // .
	operatorEnd

	keywordBeg
	AND
	OR
	NOT
	BETWEEN
	IN
	SET
	REMOVE
	ADD
	DELETE
	keywordEnd
)

var tokens = [...]string{
	ILLEGAL: "ILLEGAL",
	EOF:     "<EOF>",
	IDENT:   "IDENT",
	NAME:    "NAME",
	VALUE:   "VALUE",
	INT:     "INT",
	EQ:      "=",
	NE:      "<>",
	LT:      "<",
	LE:      "<=",
	GT:      ">",
	GE:      ">=",
	PLUS:    "+",
	MINUS:   "-",
	LPAREN:  "(",
	RPAREN:  ")",
	LBRACK:  "[",
	RBRACK:  "]",
	COMMA:   ",",
	PERIOD:  ".",
	AND:     "AND",
	OR:      "OR",
	NOT:     "NOT",
	BETWEEN: "BETWEEN",
	IN:      "IN",
	SET:     "SET",
	REMOVE:  "REMOVE",
	ADD:     "ADD",
	DELETE:  "DELETE",
}

// String returns the token's source text for operators and keywords and
// its kind name otherwise.
func (t Token) String() string {
	if t >= 0 && int(t) < len(tokens) && tokens[t] != "" {
		return tokens[t]
	}
	return "token(" + strconv.Itoa(int(t)) + ")"
}

// Binding strengths, lowest first. NOT binds tighter than AND, AND tighter
// than OR; comparisons, BETWEEN and IN bind tighter than all of them.
const (
	LowestPrec = 0
	precOr     = 1
	precAnd    = 2
	precNot    = 3
	precCmp    = 4
	precArith  = 5
)

// Precedence returns the binding strength of a binary (or, for NOT, unary)
// operator token, or LowestPrec for other tokens.
func (t Token) Precedence() int {
	switch t {
	case OR:
		return precOr
	case AND:
		return precAnd
	case NOT:
		return precNot
	case EQ, NE, LT, LE, GT, GE, BETWEEN, IN:
		return precCmp
	case PLUS, MINUS:
		return precArith
	}
	return LowestPrec
}

// IsKeyword reports whether t is a keyword token.
func (t Token) IsKeyword() bool { return keywordBeg < t && t < keywordEnd }

// IsComparison reports whether t is one of = <> < <= > >=.
func (t Token) IsComparison() bool { return t >= EQ && t <= GE }

var conditionKeywords = map[string]Token{
	"AND": AND, "OR": OR, "NOT": NOT, "BETWEEN": BETWEEN, "IN": IN,
}

var updateKeywords = map[string]Token{
	"SET": SET, "REMOVE": REMOVE, "ADD": ADD, "DELETE": DELETE,
}
