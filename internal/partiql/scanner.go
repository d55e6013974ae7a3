package partiql

import (
	"strings"
	"unicode/utf8"

	"github.com/dynamoemu/dynamoemu/internal/lex"
)

// A Scanner splits statement text into tokens. Scan always makes progress:
// every byte outside spaces and comments ends up in exactly one token, and
// input that starts no valid token becomes an ILLEGAL token (one character,
// or the rest of the input for an unterminated string, quoted identifier or
// comment).
type Scanner struct {
	src    string
	offset int
}

// Init prepares s to scan src.
func (s *Scanner) Init(src string) {
	s.src = src
	s.offset = 0
}

func isLetter(c byte) bool { return lex.IsLetter(c) }
func isDigit(c byte) bool  { return lex.IsDigit(c) }
func isIdentStart(c byte) bool {
	return isLetter(c) || c == '_'
}
func isIdentChar(c byte) bool { return isIdentStart(c) || isDigit(c) || c == '$' }
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// skip passes over white space and comments (-- to the end of the line,
// /* ... */). It reports false, with s.offset at the comment, when a block
// comment is not closed.
func (s *Scanner) skip() bool {
	for s.offset < len(s.src) {
		c := s.src[s.offset]
		switch {
		case isSpace(c):
			s.offset++
		case strings.HasPrefix(s.src[s.offset:], "--"):
			end := strings.IndexByte(s.src[s.offset:], '\n')
			if end < 0 {
				s.offset = len(s.src)
			} else {
				s.offset += end + 1
			}
		case strings.HasPrefix(s.src[s.offset:], "/*"):
			end := strings.Index(s.src[s.offset+2:], "*/")
			if end < 0 {
				return false
			}
			s.offset += 2 + end + 2
		default:
			return true
		}
	}
	return true
}

// Scan returns the next token: its byte offset, kind and source text. At the
// end of input it returns (len(src), EOF, "").
func (s *Scanner) Scan() (pos int, tok Token, lit string) {
	if !s.skip() {
		pos = s.offset
		s.offset = len(s.src)
		return pos, ILLEGAL, s.src[pos:]
	}
	pos = s.offset
	if pos >= len(s.src) {
		return pos, EOF, ""
	}
	var end int
	switch c := s.src[pos]; {
	case isIdentStart(c):
		end = scanIdent(s.src, pos)
		tok = Lookup(s.src[pos:end])
	case isDigit(c) || c == '.' && pos+1 < len(s.src) && isDigit(s.src[pos+1]):
		end, tok = scanNumber(s.src, pos), NUMBER
	case c == '\'' || c == '"':
		end, tok = scanQuoted(s.src, pos)
	default:
		end, tok = scanOperator(s.src, pos)
	}
	s.offset = end
	return pos, tok, s.src[pos:end]
}

// scanIdent returns the end of the identifier or keyword starting at pos.
func scanIdent(src string, pos int) int {
	end := pos + 1
	for end < len(src) && isIdentChar(src[end]) {
		end++
	}
	return end
}

// oneChar maps a character that is a token by itself to its token;
// ILLEGAL (the zero) for the others.
var oneChar = [utf8.RuneSelf]Token{
	'?': PARAM, '=': EQ, '<': LT, '>': GT, '+': PLUS, '-': MINUS, '*': STAR, '/': SLASH,
	'(': LPAREN, ')': RPAREN, '[': LBRACK, ']': RBRACK, '{': LBRACE, '}': RBRACE,
	',': COMMA, '.': PERIOD, ':': COLON, ';': SEMICOLON,
}

// scanOperator returns the end and token of the operator or punctuation
// starting at pos: the longest of <> != <= >= << >> || that stands there,
// else one character's token (oneChar). Any other character is ILLEGAL,
// a whole one when it is not ASCII.
func scanOperator(src string, pos int) (int, Token) {
	c := src[pos]
	if c >= utf8.RuneSelf {
		_, size := utf8.DecodeRuneInString(src[pos:])
		return pos + size, ILLEGAL
	}
	if pos+1 < len(src) {
		if tok := twoChar(c, src[pos+1]); tok != ILLEGAL {
			return pos + 2, tok
		}
	}
	return pos + 1, oneChar[c]
}

// twoChar is the token of the two characters c, next, or ILLEGAL when
// they are not one.
func twoChar(c, next byte) Token {
	switch {
	case c == '<' && next == '>', c == '!' && next == '=':
		return NE
	case c == '<' && next == '=':
		return LE
	case c == '>' && next == '=':
		return GE
	case c == '<' && next == '<':
		return LBAG
	case c == '>' && next == '>':
		return RBAG
	case c == '|' && next == '|':
		return CONCAT
	}
	return ILLEGAL
}

// scanNumber returns the end of the number starting at pos:
// digits [ "." digits ] [ ("e"|"E") [ "+"|"-" ] digits ], or "." digits ...
func scanNumber(src string, pos int) int {
	end := pos
	for end < len(src) && isDigit(src[end]) {
		end++
	}
	if end < len(src) && src[end] == '.' {
		end++
		for end < len(src) && isDigit(src[end]) {
			end++
		}
	}
	if end < len(src) && (src[end] == 'e' || src[end] == 'E') {
		e := end + 1
		if e < len(src) && (src[e] == '+' || src[e] == '-') {
			e++
		}
		if e < len(src) && isDigit(src[e]) {
			for e < len(src) && isDigit(src[e]) {
				e++
			}
			end = e
		}
	}
	return end
}

// scanQuoted scans a 'string' or "identifier"; a doubled quote stands for
// one. An unterminated one is ILLEGAL through the end of input.
func scanQuoted(src string, pos int) (int, Token) {
	q := src[pos]
	for end := pos + 1; end < len(src); end++ {
		if src[end] != q {
			continue
		}
		if end+1 < len(src) && src[end+1] == q {
			end++
			continue
		}
		if q == '\'' {
			return end + 1, STRING
		}
		return end + 1, QIDENT
	}
	return len(src), ILLEGAL
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
