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
func isNameChar(c byte) bool { return rules[ModeProjection].IsWordChar(c) }

// keywordsIn returns the token of a word in a mode whose keywords are kw:
// the keyword it spells in any case, else IDENT.
func keywordsIn(kw map[string]Token) func(string) Token {
	return func(word string) Token {
		if t, ok := kw[strings.ToUpper(word)]; ok {
			return t
		}
		return IDENT
	}
}

// rules are the expression languages' lexical rules, one set per mode (the
// modes differ in their keywords only): an attribute name is a letter
// then name characters; a list index is a 0 alone or digits with no
// leading zero; # and : start a NAME and a VALUE; no strings, no comments.
var rules = func() (r [ModeProjection + 1]lex.Rules[Token]) {
	base := lex.Rules[Token]{
		EOF:       EOF,
		Space:     " \t\n\r",
		WordStart: lex.Letters,
		WordChar:  lex.Letters + lex.Digits + "_",
		Number:    INT,
		Sigil:     [128]Token{'#': NAME, ':': VALUE},
		One: [128]Token{
			'=': EQ, '<': LT, '>': GT, '+': PLUS, '-': MINUS, '(': LPAREN, ')': RPAREN,
			'[': LBRACK, ']': RBRACK, ',': COMMA, '.': PERIOD,
		},
		Two: []lex.Op[Token]{{Text: "<>", Tok: NE}, {Text: "<=", Tok: LE}, {Text: ">=", Tok: GE}},
	}
	for m, kw := range map[Mode]map[string]Token{ModeCondition: conditionKeywords, ModeUpdate: updateKeywords} {
		r[m] = base
		r[m].Word = keywordsIn(kw)
	}
	r[ModeProjection] = base
	r[ModeProjection].Word = func(string) Token { return IDENT }
	for m := range r {
		r[m].Build()
	}
	return r
}()
