package expr

import (
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/lex"
)

// Mode selects which words the scanner treats as keywords.
type Mode uint8

// Scanner modes, one per expression grammar.
const (
	ModeCondition  Mode = iota // AND OR NOT BETWEEN IN
	ModeUpdate                 // SET REMOVE ADD DELETE
	ModeProjection             // no keywords
)

// isNameChar reports whether c may be in an attribute name after its
// first letter, or in a #name or :value after its sign.
func isNameChar(c byte) bool { return rules.IsWordChar(c) }

// rules are the expression languages' lexical rules (the modes differ in
// their keywords only: words): an attribute name is a letter then name
// characters; a list index is a 0 alone or digits with no leading zero;
// # and : start a NAME and a VALUE; no strings, no comments.
var rules = exprRules.Build()

// exprRules are the rules before Build: a value, not a pointer, so they
// are static data and cost no allocation at init (TestInitAllocationBudget).
var exprRules = lex.Rules[Token]{
	EOF:       EOF,
	Space:     " \t\n\r",
	WordStart: lex.Letters,
	WordChar:  lex.Letters + lex.Digits + "_",
	Number:    INT,
	Sigils:    "#:",
	Tok: [128]Token{
		'#': NAME, ':': VALUE,
		'=': EQ, '<': LT, '>': GT, '+': PLUS, '-': MINUS, '(': LPAREN, ')': RPAREN,
		'[': LBRACK, ']': RBRACK, ',': COMMA, '.': PERIOD,
	},
	Two: []lex.Op[Token]{{Text: "<>", Tok: NE}, {Text: "<=", Tok: LE}, {Text: ">=", Tok: GE}},
}

// words gives, for each mode, the token of a word: the keyword of the
// mode it spells in any case, else IDENT.
var words = [...]func(string) Token{
	ModeCondition:  keywordsIn(conditionKeywords),
	ModeUpdate:     keywordsIn(updateKeywords),
	ModeProjection: func(string) Token { return IDENT },
}

func keywordsIn(kw map[string]Token) func(string) Token {
	return func(word string) Token {
		if t, ok := kw[strings.ToUpper(word)]; ok {
			return t
		}
		return IDENT
	}
}
