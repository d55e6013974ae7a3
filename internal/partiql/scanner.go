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
	c := s.src[pos]
	end := pos + 1
	two := func(next byte, t2, t1 Token) Token {
		if end < len(s.src) && s.src[end] == next {
			end++
			return t2
		}
		return t1
	}
	switch {
	case isIdentStart(c):
		for end < len(s.src) && isIdentChar(s.src[end]) {
			end++
		}
		tok = Lookup(s.src[pos:end])
	case isDigit(c) || c == '.' && end < len(s.src) && isDigit(s.src[end]):
		end = scanNumber(s.src, pos)
		tok = NUMBER
	case c == '\'' || c == '"':
		end, tok = scanQuoted(s.src, pos)
	case c == '?':
		tok = PARAM
	case c == '=':
		tok = EQ
	case c == '!':
		tok = two('=', NE, ILLEGAL)
	case c == '<':
		tok = LT
		if end < len(s.src) {
			switch s.src[end] {
			case '>':
				tok, end = NE, end+1
			case '=':
				tok, end = LE, end+1
			case '<':
				tok, end = LBAG, end+1
			}
		}
	case c == '>':
		tok = GT
		if end < len(s.src) {
			switch s.src[end] {
			case '=':
				tok, end = GE, end+1
			case '>':
				tok, end = RBAG, end+1
			}
		}
	case c == '|':
		tok = two('|', CONCAT, ILLEGAL)
	case c == '+':
		tok = PLUS
	case c == '-':
		tok = MINUS
	case c == '*':
		tok = STAR
	case c == '/':
		tok = SLASH
	case c == '(':
		tok = LPAREN
	case c == ')':
		tok = RPAREN
	case c == '[':
		tok = LBRACK
	case c == ']':
		tok = RBRACK
	case c == '{':
		tok = LBRACE
	case c == '}':
		tok = RBRACE
	case c == ',':
		tok = COMMA
	case c == '.':
		tok = PERIOD
	case c == ':':
		tok = COLON
	case c == ';':
		tok = SEMICOLON
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
