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
	c := s.src[pos]
	end := pos + 1
	switch {
	case isLetter(c):
		for end < len(s.src) && isNameChar(s.src[end]) {
			end++
		}
		tok = IDENT
		if s.keywords != nil {
			if kw, ok := s.keywords[strings.ToUpper(s.src[pos:end])]; ok {
				tok = kw
			}
		}
	case c == '0':
		tok = INT
	case isDigit(c):
		for end < len(s.src) && isDigit(s.src[end]) {
			end++
		}
		tok = INT
	case c == '#' || c == ':':
		for end < len(s.src) && isNameChar(s.src[end]) {
			end++
		}
		switch {
		case end == pos+1:
			tok = ILLEGAL
		case c == '#':
			tok = NAME
		default:
			tok = VALUE
		}
	case c == '=':
		tok = EQ
	case c == '<':
		tok = LT
		if end < len(s.src) {
			switch s.src[end] {
			case '>':
				tok, end = NE, end+1
			case '=':
				tok, end = LE, end+1
			}
		}
	case c == '>':
		tok = GT
		if end < len(s.src) && s.src[end] == '=' {
			tok, end = GE, end+1
		}
	case c == '+':
		tok = PLUS
	case c == '-':
		tok = MINUS
	case c == '(':
		tok = LPAREN
	case c == ')':
		tok = RPAREN
	case c == '[':
		tok = LBRACK
	case c == ']':
		tok = RBRACK
	case c == ',':
		tok = COMMA
	case c == '.':
		tok = PERIOD
	default:
		tok = ILLEGAL
		if c >= utf8.RuneSelf {
			_, size := utf8.DecodeRuneInString(s.src[pos:])
			end = pos + size
		}
	}
	s.offset = end
	return pos, tok, s.src[pos:end]
}
