package expr

import (
	"strings"
	"unicode/utf8"

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

// A Scanner splits expression text into tokens. Scan always makes progress:
// every byte of input ends up in exactly one token, and input that starts no
// valid token becomes a one-character ILLEGAL token.
type Scanner struct {
	src      string
	offset   int
	keywords map[string]Token
}

// Init prepares s to scan src in the given mode.
func (s *Scanner) Init(src string, mode Mode) {
	s.src = src
	s.offset = 0
	switch mode {
	case ModeCondition:
		s.keywords = conditionKeywords
	case ModeUpdate:
		s.keywords = updateKeywords
	default:
		s.keywords = nil
	}
}

func isLetter(c byte) bool { return lex.IsLetter(c) }
func isDigit(c byte) bool  { return lex.IsDigit(c) }
func isNameChar(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '_'
}
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// Scan returns the next token: its byte offset, kind and source text. At the
// end of input it returns (len(src), EOF, "").
func (s *Scanner) Scan() (pos int, tok Token, lit string) {
	for s.offset < len(s.src) && isSpace(s.src[s.offset]) {
		s.offset++
	}
	pos = s.offset
	if pos >= len(s.src) {
		return pos, EOF, ""
	}
	var end int
	switch c := s.src[pos]; {
	case isLetter(c):
		end, tok = s.scanWord(pos)
	case isDigit(c):
		end, tok = scanInt(s.src, pos), INT
	case c == '#' || c == ':':
		end, tok = scanPlaceholder(s.src, pos)
	default:
		end, tok = scanOperator(s.src, pos)
	}
	s.offset = end
	return pos, tok, s.src[pos:end]
}

// scanWord returns the end of the name starting at pos, and its token:
// the keyword of the scanner's mode it spells in any case, else IDENT.
func (s *Scanner) scanWord(pos int) (int, Token) {
	end := scanName(s.src, pos+1)
	if s.keywords == nil {
		return end, IDENT
	}
	if kw, ok := s.keywords[strings.ToUpper(s.src[pos:end])]; ok {
		return end, kw
	}
	return end, IDENT
}

// scanName returns the end of the run of name characters from pos.
func scanName(src string, pos int) int {
	for pos < len(src) && isNameChar(src[pos]) {
		pos++
	}
	return pos
}

// scanInt returns the end of the integer starting at pos: a 0 alone
// (DynamoDB's list indexes have no leading zeros), else its digits.
func scanInt(src string, pos int) int {
	end := pos + 1
	if src[pos] == '0' {
		return end
	}
	for end < len(src) && isDigit(src[end]) {
		end++
	}
	return end
}

// scanPlaceholder returns the end and token of the #name (NAME) or
// :value (VALUE) starting at pos; a # or : with no name after it is a
// one-character ILLEGAL token.
func scanPlaceholder(src string, pos int) (int, Token) {
	end := scanName(src, pos+1)
	switch {
	case end == pos+1:
		return end, ILLEGAL
	case src[pos] == '#':
		return end, NAME
	}
	return end, VALUE
}

// oneChar maps a character that is a token by itself to its token;
// ILLEGAL (the zero) for the others.
var oneChar = [utf8.RuneSelf]Token{
	'=': EQ, '<': LT, '>': GT, '+': PLUS, '-': MINUS, '(': LPAREN, ')': RPAREN,
	'[': LBRACK, ']': RBRACK, ',': COMMA, '.': PERIOD,
}

// scanOperator returns the end and token of the operator or punctuation
// starting at pos: <>, <= or >= when it stands there, else one
// character's token (oneChar). Any other character is ILLEGAL, a whole
// one when it is not ASCII.
func scanOperator(src string, pos int) (int, Token) {
	c := src[pos]
	if c >= utf8.RuneSelf {
		_, size := utf8.DecodeRuneInString(src[pos:])
		return pos + size, ILLEGAL
	}
	if pos+1 < len(src) {
		switch next := src[pos+1]; {
		case c == '<' && next == '>':
			return pos + 2, NE
		case c == '<' && next == '=':
			return pos + 2, LE
		case c == '>' && next == '=':
			return pos + 2, GE
		}
	}
	return pos + 1, oneChar[c]
}
