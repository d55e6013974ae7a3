package lex

import (
	"strings"
	"unicode/utf8"
)

// Character sets to build rules from.
const (
	Letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	Digits  = "0123456789"
)

// Rules are one language's lexical rules, which a [Scanner] follows; make
// them ready with [Rules.Build] before the first scan. T is the language's
// token kind; its zero value is the ILLEGAL token.
//
// A token is, tried in this order at a byte that is not space: a word (a
// WordStart byte, then WordChar bytes; the scanner's word function gives
// its token, keyword or identifier), a number (digits; see Decimal), a
// placeholder (a Sigils byte and one or more WordChar bytes), a quoted
// text (a Quotes byte through the next one not doubled), an operator (a
// Two pair, else a byte of Tok). Anything else is one ILLEGAL character, a
// whole rune when it is not ASCII.
type Rules[T comparable] struct {
	EOF T
	// Space, WordStart and WordChar list ASCII characters.
	Space               string
	WordStart, WordChar string
	// Comments: "--" to the end of the line and "/*" through "*/" are
	// space too; an unclosed "/*" is ILLEGAL through the end of input.
	Comments bool
	Number   T
	// Decimal numbers are digits [. digits] [e [+|-] digits], or start
	// with "." and a digit; otherwise a number is a 0 alone or a run of
	// digits (a list index, no leading zeros).
	Decimal bool
	// Sigils are the bytes that start a placeholder (alone, the byte is
	// ILLEGAL); Quotes are the quote bytes (an unclosed quote is ILLEGAL
	// through the end of input).
	Sigils, Quotes string
	// Tok maps a byte to the token it stands for: an operator or
	// punctuation mark by itself, a sigil's placeholder, a quote's quoted
	// text. Two lists the two-byte operators, which win over Tok.
	Tok [utf8.RuneSelf]T
	Two []Op[T]

	// class holds, for each byte, the flags of what it may start or
	// continue: one table lookup per byte on the scanner's hot path.
	class [256]uint8
	built bool
}

// The flags of class.
const (
	fSpace = 1 << iota
	fWordStart
	fWordChar
	fSigil
	fQuote
	fTwo     // starts a Two operator
	fComment // starts a comment: - or / in a language with comments
)

// Build makes r ready to scan with and returns it.
func (r *Rules[T]) Build() *Rules[T] {
	set := func(chars string, f uint8) {
		for i := 0; i < len(chars); i++ {
			r.class[chars[i]] |= f
		}
	}
	set(r.Space, fSpace)
	set(r.WordStart, fWordStart)
	set(r.WordChar, fWordChar)
	set(r.Sigils, fSigil)
	set(r.Quotes, fQuote)
	for _, op := range r.Two {
		r.class[op.Text[0]] |= fTwo
	}
	if r.Comments {
		set("-/", fComment)
	}
	r.built = true
	return r
}

// IsWordChar reports whether c may continue a word.
func (r *Rules[T]) IsWordChar(c byte) bool { return r.class[c]&fWordChar != 0 }

// Op is a two-character operator and its token.
type Op[T comparable] struct {
	Text string
	Tok  T
}

// A Scanner splits source text into the tokens of its [Rules]. Scan always
// makes progress: every byte outside spaces and comments ends up in
// exactly one token.
type Scanner[T comparable] struct {
	src  string
	off  int
	r    *Rules[T]
	word func(string) T
}

// Init prepares s to scan src by r, which [Rules.Build] made ready; word
// gives the token of a word (a keyword's or an identifier's).
func (s *Scanner[T]) Init(src string, r *Rules[T], word func(string) T) {
	if !r.built {
		panic("lex: Rules used before Build")
	}
	s.src, s.off, s.r, s.word = src, 0, r, word
}

// Scan returns the next token: its byte offset, kind and source text. At
// the end of input it returns (len(src), r.EOF, "").
func (s *Scanner[T]) Scan() (pos int, tok T, lit string) {
	r, src := s.r, s.src
	if !s.skip() {
		pos, s.off = s.off, len(src)
		return pos, tok, src[pos:]
	}
	pos = s.off
	if pos >= len(src) {
		return pos, r.EOF, ""
	}
	var end int
	c := src[pos]
	switch f := r.class[c]; {
	case f&fWordStart != 0:
		end = r.run(src, pos+1)
		tok = s.word(src[pos:end])
	case IsDigit(c) || r.Decimal && c == '.' && pos+1 < len(src) && IsDigit(src[pos+1]):
		end, tok = r.number(src, pos), r.Number
	case f&fSigil != 0:
		end = r.run(src, pos+1)
		if end == pos+1 {
			break // ILLEGAL
		}
		tok = r.Tok[c]
	case f&fQuote != 0:
		end, tok = s.quoted(pos)
	default:
		end, tok = r.operator(src, pos, f)
	}
	s.off = end
	return pos, tok, src[pos:end]
}

// skip passes over space and comments. It reports false, with s.off at
// the comment, when a block comment is not closed.
func (s *Scanner[T]) skip() bool {
	src, r := s.src, s.r
	for s.off < len(src) {
		f := r.class[src[s.off]]
		switch {
		case f&fSpace != 0:
			s.off++
		case f&fComment == 0:
			return true
		case strings.HasPrefix(src[s.off:], "--"):
			end := strings.IndexByte(src[s.off:], '\n')
			if end < 0 {
				s.off = len(src)
			} else {
				s.off += end + 1
			}
		case strings.HasPrefix(src[s.off:], "/*"):
			end := strings.Index(src[s.off+2:], "*/")
			if end < 0 {
				return false
			}
			s.off += 2 + end + 2
		default:
			return true
		}
	}
	return true
}

// run returns the end of the run of word characters in src from pos.
func (r *Rules[T]) run(src string, pos int) int {
	for pos < len(src) && r.class[src[pos]]&fWordChar != 0 {
		pos++
	}
	return pos
}

// digits returns the end of the run of digits in src from pos.
func digits(src string, pos int) int {
	for pos < len(src) && IsDigit(src[pos]) {
		pos++
	}
	return pos
}

// number returns the end of the number starting at pos (see
// [Rules.Decimal]).
func (r *Rules[T]) number(src string, pos int) int {
	if !r.Decimal {
		if src[pos] == '0' {
			return pos + 1
		}
		return digits(src, pos+1)
	}
	end := digits(src, pos)
	if end < len(src) && src[end] == '.' {
		end = digits(src, end+1)
	}
	if end < len(src) && (src[end] == 'e' || src[end] == 'E') {
		e := end + 1
		if e < len(src) && (src[e] == '+' || src[e] == '-') {
			e++
		}
		if e < len(src) && IsDigit(src[e]) {
			end = digits(src, e)
		}
	}
	return end
}

// quoted returns the end and token of the quoted text starting at pos; a
// doubled quote inside stands for one. An unclosed one is ILLEGAL through
// the end of input.
func (s *Scanner[T]) quoted(pos int) (int, T) {
	src := s.src
	q := src[pos]
	for end := pos + 1; end < len(src); end++ {
		if src[end] != q {
			continue
		}
		if end+1 < len(src) && src[end+1] == q {
			end++
			continue
		}
		return end + 1, s.r.Tok[q]
	}
	var illegal T
	return len(src), illegal
}

// operator returns the end and token of the operator or punctuation
// starting at pos: a Two pair when one stands there, else Tok's token of
// the byte. A byte past ASCII is ILLEGAL with the rest of its rune.
func (r *Rules[T]) operator(src string, pos int, f uint8) (int, T) {
	c := src[pos]
	if c >= utf8.RuneSelf {
		_, size := utf8.DecodeRuneInString(src[pos:])
		var illegal T
		return pos + size, illegal
	}
	if f&fTwo != 0 && pos+1 < len(src) {
		next := src[pos+1]
		for _, op := range r.Two {
			if op.Text[0] == c && op.Text[1] == next {
				return pos + 2, op.Tok
			}
		}
	}
	return pos + 1, r.Tok[c]
}
