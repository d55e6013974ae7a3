package partiql

import (
	"strconv"
	"strings"
	"sync"
)

// Token is the kind of a lexical token of DynamoDB's PartiQL.
type Token int

// The tokens. Keywords are matched case-insensitively; function names are
// plain identifiers.
const (
	ILLEGAL Token = iota
	EOF

	literalBeg
	IDENT  // unquoted identifier: (letter | _) (letter | digit | _ | $)*
	QIDENT // "quoted identifier" ("" inside stands for ")
	STRING // 'string literal' ('' inside stands for ')
	NUMBER // 12, 1.5, .5, 1e3 (no sign)
	PARAM  // ?
	literalEnd

	operatorBeg
	EQ        // =
	NE        // <> or !=
	LT        // <
	LE        // <=
	GT        // >
	GE        // >=
	PLUS      // +
	MINUS     // -
	STAR      // *
	SLASH     // /
	CONCAT    // ||
	LPAREN    // (
	RPAREN    // )
	LBRACK    // [
	RBRACK    // ]
	LBRACE    // {
	RBRACE    // }
	LBAG      // <<
	RBAG      // >>
	COMMA     // ,
	PERIOD    // .
	COLON     // :
	SEMICOLON // ;
	operatorEnd

	keywordBeg
	SELECT
	FROM
	WHERE
	ORDER
	BY
	ASC
	DESC
	INSERT
	INTO
	VALUE
	UPDATE
	SET
	REMOVE
	DELETE
	RETURNING
	ALL
	MODIFIED
	OLD
	NEW
	EXISTS
	AND
	OR
	NOT
	IN
	BETWEEN
	IS
	LIKE
	MISSING
	NULL
	TRUE
	FALSE
	RESERVED // any other reserved word (reserved.go): size, key, inner, string, ...
	keywordEnd
)

var tokens = [...]string{
	ILLEGAL:   "ILLEGAL",
	EOF:       "<EOF>",
	IDENT:     "IDENT",
	QIDENT:    "QIDENT",
	STRING:    "STRING",
	NUMBER:    "NUMBER",
	PARAM:     "?",
	EQ:        "=",
	NE:        "<>",
	LT:        "<",
	LE:        "<=",
	GT:        ">",
	GE:        ">=",
	PLUS:      "+",
	MINUS:     "-",
	STAR:      "*",
	SLASH:     "/",
	CONCAT:    "||",
	LPAREN:    "(",
	RPAREN:    ")",
	LBRACK:    "[",
	RBRACK:    "]",
	LBRACE:    "{",
	RBRACE:    "}",
	LBAG:      "<<",
	RBAG:      ">>",
	COMMA:     ",",
	PERIOD:    ".",
	COLON:     ":",
	SEMICOLON: ";",
	SELECT:    "SELECT",
	FROM:      "FROM",
	WHERE:     "WHERE",
	ORDER:     "ORDER",
	BY:        "BY",
	ASC:       "ASC",
	DESC:      "DESC",
	INSERT:    "INSERT",
	INTO:      "INTO",
	VALUE:     "VALUE",
	UPDATE:    "UPDATE",
	SET:       "SET",
	REMOVE:    "REMOVE",
	DELETE:    "DELETE",
	RETURNING: "RETURNING",
	ALL:       "ALL",
	MODIFIED:  "MODIFIED",
	OLD:       "OLD",
	NEW:       "NEW",
	EXISTS:    "EXISTS",
	AND:       "AND",
	OR:        "OR",
	NOT:       "NOT",
	IN:        "IN",
	BETWEEN:   "BETWEEN",
	IS:        "IS",
	LIKE:      "LIKE",
	MISSING:   "MISSING",
	NULL:      "NULL",
	TRUE:      "TRUE",
	FALSE:     "FALSE",
	RESERVED:  "RESERVED",
}

// String returns the token's source text for operators and keywords and
// its kind name otherwise.
func (t Token) String() string {
	if t >= 0 && int(t) < len(tokens) && tokens[t] != "" {
		return tokens[t]
	}
	return "token(" + strconv.Itoa(int(t)) + ")"
}

// Binding strengths, lowest first: OR < AND < NOT < comparisons (= <> < <=
// > >= IN BETWEEN IS LIKE) < || < + - < * /.
const (
	LowestPrec = 0
	precOr     = 1
	precAnd    = 2
	precNot    = 3
	precCmp    = 4
	precConcat = 5
	precAdd    = 6
	precMul    = 7
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
	case EQ, NE, LT, LE, GT, GE, IN, BETWEEN, IS, LIKE:
		return precCmp
	case CONCAT:
		return precConcat
	case PLUS, MINUS:
		return precAdd
	case STAR, SLASH:
		return precMul
	}
	return LowestPrec
}

// IsKeyword reports whether t is a keyword token.
func (t Token) IsKeyword() bool { return keywordBeg < t && t < keywordEnd }

// IsLiteral reports whether t is an identifier, literal or parameter token.
func (t Token) IsLiteral() bool { return literalBeg < t && t < literalEnd }

// IsComparison reports whether t is one of = <> < <= > >=.
func (t Token) IsComparison() bool { return t >= EQ && t <= GE }

// keywords maps a keyword's text to its token; built on first use, not
// at start-up (a server that never sees PartiQL never needs it).
var keywords = sync.OnceValue(func() map[string]Token {
	m := make(map[string]Token, keywordEnd-keywordBeg)
	for t := keywordBeg + 1; t < RESERVED; t++ {
		m[tokens[t]] = t
	}
	return m
})

// Lookup maps an identifier to its keyword token, RESERVED for a reserved
// word the grammar has no token for, or IDENT.
func Lookup(word string) Token {
	up := strings.ToUpper(word)
	if t, ok := keywords()[up]; ok {
		return t
	}
	if reservedWords()[up] {
		return RESERVED
	}
	return IDENT
}
