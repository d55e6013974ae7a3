package partiql

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/lex"
)

// newScanner returns a scanner of src.
func newScanner(src string) *lex.Scanner[Token] {
	s := new(lex.Scanner[Token])
	s.Init(src, rules, Lookup)
	return s
}

// first returns the end and token of the first token of src.
func first(src string) (int, Token) {
	pos, tok, lit := newScanner(src).Scan()
	return pos + len(lit), tok
}

// TestScanOperator: every operator and punctuation mark scans to its
// token, the two-character ones taken whole, also at the end of input,
// and a character that starts no token is one ILLEGAL token (a whole
// rune when it is not ASCII).
func TestScanOperator(t *testing.T) {
	tests := []struct {
		src  string
		end  int
		want Token
	}{
		{"?", 1, PARAM}, {"=", 1, EQ}, {"+", 1, PLUS}, {"-1", 1, MINUS}, {"*", 1, STAR}, {"/", 1, SLASH},
		{"(", 1, LPAREN}, {")", 1, RPAREN}, {"[", 1, LBRACK}, {"]", 1, RBRACK}, {"{", 1, LBRACE}, {"}", 1, RBRACE},
		{",", 1, COMMA}, {".", 1, PERIOD}, {".a", 1, PERIOD}, {":", 1, COLON}, {";", 1, SEMICOLON},
		{"<", 1, LT}, {"<a", 1, LT}, {"<>", 2, NE}, {"<=", 2, LE}, {"<<", 2, LBAG}, {"<<<", 2, LBAG},
		{">", 1, GT}, {">=", 2, GE}, {">>", 2, RBAG}, {"><", 1, GT},
		{"!=", 2, NE}, {"!", 1, ILLEGAL}, {"!<", 1, ILLEGAL},
		{"||", 2, CONCAT}, {"|", 1, ILLEGAL}, {"|a", 1, ILLEGAL},
		{"@", 1, ILLEGAL}, {"\x00", 1, ILLEGAL}, {"\x7f", 1, ILLEGAL}, {"é", 2, ILLEGAL}, {"\xff", 1, ILLEGAL},
	}
	for _, tt := range tests {
		end, tok := first(tt.src)
		require.Equal(t, tt.want, tok, "%q", tt.src)
		require.Equal(t, tt.end, end, "%q", tt.src)
	}
}

// TestScanIdent: an identifier runs over letters, digits, _ and $ and
// stops at anything else; Scan makes a keyword of one in any case.
func TestScanIdent(t *testing.T) {
	for src, end := range map[string]int{"a": 1, "a1_$b c": 5, "_x.y": 2, "ab-c": 2, "abé": 2} {
		got, _ := first(src)
		require.Equal(t, end, got, "%q", src)
	}
	s := newScanner("wHeRe where_ x$1")
	for _, want := range []struct {
		tok Token
		lit string
	}{{WHERE, "wHeRe"}, {IDENT, "where_"}, {IDENT, "x$1"}, {EOF, ""}} {
		_, tok, lit := s.Scan()
		require.Equal(t, want.tok, tok)
		require.Equal(t, want.lit, lit)
	}
}
