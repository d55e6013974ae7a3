package partiql

import (
	"errors"
	"fmt"

	"github.com/dynamoemu/dynamoemu/internal/lex"
)

// ErrSyntax is wrapped by every *Error: the statement is not well formed.
var ErrSyntax = errors.New("partiql: statement not well formed")

// ErrorKind classifies a syntax error, so a caller can choose DynamoDB's
// wording for it.
type ErrorKind uint8

// The kinds of syntax error.
const (
	// KindNotStatement: the text does not start with SELECT, INSERT,
	// UPDATE, DELETE or EXISTS (AWS: "Expected data manipulation").
	KindNotStatement ErrorKind = iota + 1
	// KindUnexpectedToken: an operator, literal or identifier where the
	// grammar does not allow it.
	KindUnexpectedToken
	// KindUnexpectedKeyword: a keyword where the grammar does not allow it
	// (AWS: "Unexpected keyword").
	KindUnexpectedKeyword
	// KindUnexpectedEnd: the statement ends too early.
	KindUnexpectedEnd
	// KindIllegal: text that starts no token: a stray character, or an
	// unterminated string, quoted identifier or comment.
	KindIllegal
	// KindTooDeep: nesting past the parser's depth cap.
	KindTooDeep
)

var kindNames = [...]string{
	KindNotStatement:      "expected a statement",
	KindUnexpectedToken:   "unexpected token",
	KindUnexpectedKeyword: "unexpected keyword",
	KindUnexpectedEnd:     "unexpected end of statement",
	KindIllegal:           "illegal text",
	KindTooDeep:           "statement nested too deeply",
}

func (k ErrorKind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("ErrorKind(%d)", int(k))
}

// Error is a syntax error. It carries what a caller needs to word it as
// DynamoDB does: the kind, the offending token and its place (a byte
// offset, plus Line and Column as DynamoDB counts them, and the token's
// length in characters). The text of Error() is for people and logs, not
// DynamoDB's message: the emulator words that.
type Error struct {
	Kind   ErrorKind
	Pos    int    // byte offset of the offending token
	Line   int    // 1-based line of Pos
	Column int    // 1-based column of Pos, in UTF-16 code units
	Len    int    // length of the offending token in UTF-16 code units (0 at the end)
	Tok    Token  // the offending token (EOF at the end)
	Lit    string // its source text
	Want   string // what the grammar expected there, for people
}

func (e *Error) Error() string {
	what := e.Lit
	if e.Tok == EOF {
		what = "end of statement"
	}
	s := fmt.Sprintf("partiql: %d:%d: %s %q", e.Line, e.Column, e.Kind, what)
	if e.Kind == KindUnexpectedEnd {
		s = fmt.Sprintf("partiql: %d:%d: %s", e.Line, e.Column, e.Kind)
	}
	if e.Want != "" {
		s += ", expected " + e.Want
	}
	return s
}

// Unwrap returns ErrSyntax.
func (e *Error) Unwrap() error { return ErrSyntax }

// Position returns the 1-based line and column of byte offset off in src,
// the column counted in UTF-16 code units as DynamoDB (a Java service)
// counts them. Lines end at "\n".
func Position(src string, off int) (line, col int) { return lex.Position(src, off) }

func utf16Len(s string) int { return lex.UTF16Len(s) }
