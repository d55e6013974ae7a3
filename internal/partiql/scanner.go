package partiql

import (
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/lex"
)

// isIdentStart and isIdentChar report whether c may start and continue
// an unquoted identifier.
func isIdentStart(c byte) bool { return lex.IsLetter(c) || c == '_' }
func isIdentChar(c byte) bool  { return rules.IsWordChar(c) }

// rules are PartiQL's lexical rules (its words go through Lookup):
// identifiers and keywords, decimal numbers, 'strings' and "quoted
// identifiers" (a doubled quote inside stands for one), -- and /* */
// comments, and the operators. Input
// that starts no valid token becomes an ILLEGAL token: one character, or
// the rest of the input for an unterminated string, quoted identifier or
// comment.
var rules = partiqlRules.Build()

// partiqlRules are the rules before Build: a value, not a pointer, so they
// are static data and cost no allocation at init (TestInitAllocationBudget).
var partiqlRules = lex.Rules[Token]{
	EOF:       EOF,
	Space:     " \t\n\r\f\v",
	Comments:  true,
	WordStart: lex.Letters + "_",
	WordChar:  lex.Letters + lex.Digits + "_$",
	Number:    NUMBER,
	Decimal:   true,
	Quotes:    `'"`,
	Tok: [128]Token{
		'\'': STRING, '"': QIDENT,
		'?': PARAM, '=': EQ, '<': LT, '>': GT, '+': PLUS, '-': MINUS, '*': STAR, '/': SLASH,
		'(': LPAREN, ')': RPAREN, '[': LBRACK, ']': RBRACK, '{': LBRACE, '}': RBRACE,
		',': COMMA, '.': PERIOD, ':': COLON, ';': SEMICOLON,
	},
	Two: []lex.Op[Token]{
		{Text: "<>", Tok: NE}, {Text: "!=", Tok: NE}, {Text: "<=", Tok: LE}, {Text: ">=", Tok: GE},
		{Text: "<<", Tok: LBAG}, {Text: ">>", Tok: RBAG}, {Text: "||", Tok: CONCAT},
	},
}

// Unquote returns the text of a STRING or QIDENT literal without its
// quotes, doubled quotes undone. Other text is returned unchanged.
func Unquote(lit string) string {
	if len(lit) < 2 || (lit[0] != '\'' && lit[0] != '"') || lit[len(lit)-1] != lit[0] {
		return lit
	}
	q := lit[:1]
	return strings.ReplaceAll(lit[1:len(lit)-1], q+q, q)
}

// Quote returns s as a literal with quote character q (' or "), doubling
// any q inside.
func Quote(s string, q byte) string {
	qs := string(q)
	return qs + strings.ReplaceAll(s, qs, qs+qs) + qs
}
