package partiql

import (
	"errors"
	"fmt"
	"sync"

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
	// KindLeftover: a token after a complete statement (AWS: "Unexpected
	// token after expression").
	KindLeftover
	// KindAliasing: an alias on a table or a SELECT list item (AWS: the
	// whole message is "Aliasing is not supported").
	KindAliasing
	// KindUnexpectedTerm: the statement ends (or a ";" comes) where an
	// expression must start (AWS: "Unexpected term").
	KindUnexpectedTerm
	// KindUnexpectedOperator: an infix operator where an expression must
	// start (AWS: "Unexpected operator").
	KindUnexpectedOperator
	// KindMissingOperand: the statement ends after an infix operator (AWS:
	// "Missing right-hand side expression of infix operator").
	KindMissingOperand
	// KindExpectedTypeName: IS followed by something that names no type
	// (AWS: "Expected type name").
	KindExpectedTypeName
	// KindExpectedIdent: no table after DELETE FROM, UPDATE or INSERT INTO
	// (AWS: "Expected identifier for simple path").
	KindExpectedIdent
	// KindPathComponent: after a "." in a path, something that is not a
	// name: a reserved word, a number, the end (AWS: "Invalid path dot
	// component").
	KindPathComponent
	// KindBadNumber: a number literal whose exponent, or whose scale (the
	// digits after the point less the exponent), does not fit a 32-bit
	// integer (AWS: nothing after the colon).
	KindBadNumber
)

var kindNames = [...]string{
	KindNotStatement:       "expected a statement",
	KindUnexpectedToken:    "unexpected token",
	KindUnexpectedKeyword:  "unexpected keyword",
	KindUnexpectedEnd:      "unexpected end of statement",
	KindIllegal:            "illegal text",
	KindTooDeep:            "statement nested too deeply",
	KindLeftover:           "unexpected token after the statement",
	KindAliasing:           "aliases are not supported",
	KindUnexpectedTerm:     "expected an expression",
	KindUnexpectedOperator: "unexpected operator",
	KindMissingOperand:     "missing right-hand operand",
	KindExpectedTypeName:   "expected a type name",
	KindExpectedIdent:      "expected a table name",
	KindPathComponent:      "expected a name after \".\"",
	KindBadNumber:          "number out of range",
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

// MsgMalformed begins DynamoDB's message for a statement that does not
// parse (AWS and DynamoDB Local).
const MsgMalformed = "Statement wasn't well formed, can't be processed: "

// reasons are AWS's words after MsgMalformed, by kind, as public records of
// AWS answers give them. "" is a real answer: AWS puts nothing after the
// colon for a literal or comment its lexer cannot read. The table is built
// at its first use, not at the server's start.
var reasons = sync.OnceValue(func() map[ErrorKind]string {
	return map[ErrorKind]string{
		KindNotStatement:       "Expected data manipulation",
		KindUnexpectedKeyword:  "Unexpected keyword",
		KindLeftover:           "Unexpected token after expression",
		KindUnexpectedTerm:     "Unexpected term",
		KindUnexpectedOperator: "Unexpected operator",
		KindMissingOperand:     "Missing right-hand side expression of infix operator",
		KindExpectedTypeName:   "Expected type name",
		KindExpectedIdent:      "Expected identifier for simple path",
		KindPathComponent:      "Invalid path dot component",
		KindIllegal:            "",
		KindBadNumber:          "",
	}
})

// msgAliasing is AWS's whole message for an alias (no MsgMalformed before
// it; DynamoDB Local says the same).
const msgAliasing = "Aliasing is not supported"

// Message returns DynamoDB's message for the error, src being the
// statement: AWS's wording where a public record of an AWS answer gives it
// (reasons above), else DynamoDB Local's, which follows MsgMalformed with
// the statement itself (for an unexpected token, an early end, a statement
// nested too deeply).
func (e *Error) Message(src string) string {
	if e.Kind == KindAliasing {
		return msgAliasing
	}
	if r, ok := reasons()[e.Kind]; ok {
		return MsgMalformed + r
	}
	return MsgMalformed + src
}
