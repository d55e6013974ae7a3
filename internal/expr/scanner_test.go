package expr

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/lex"
)

// newScanner returns a scanner of src in mode.
func newScanner(src string, mode Mode) *lex.Scanner[Token] {
	s := new(lex.Scanner[Token])
	s.Init(src, rules, words[mode])
	return s
}

// scanAll is every token of src in mode, with its text, EOF left out.
func scanAll(src string, mode Mode) (toks []Token, lits []string) {
	s := newScanner(src, mode)
	for {
		_, tok, lit := s.Scan()
		if tok == EOF {
			return toks, lits
		}
		toks, lits = append(toks, tok), append(lits, lit)
	}
}

// TestScanWord: a name is a keyword of the scanner's mode in any case,
// an IDENT in another mode; it runs over letters, digits and _.
func TestScanWord(t *testing.T) {
	toks, lits := scanAll("and Or x_1y SET", ModeCondition)
	require.Equal(t, []Token{AND, OR, IDENT, IDENT}, toks)
	require.Equal(t, []string{"and", "Or", "x_1y", "SET"}, lits)
	toks, _ = scanAll("and set Remove", ModeUpdate)
	require.Equal(t, []Token{IDENT, SET, REMOVE}, toks)
	toks, _ = scanAll("and set", ModeProjection)
	require.Equal(t, []Token{IDENT, IDENT}, toks)
}

// TestScanNumbersAndPlaceholders: a 0 is an INT alone, other digits run
// on; # and : start a NAME and a VALUE, ILLEGAL with no name after them.
func TestScanNumbersAndPlaceholders(t *testing.T) {
	toks, lits := scanAll("0012 340 #a_1 :v9 # : #.", ModeCondition)
	require.Equal(t, []Token{INT, INT, INT, INT, NAME, VALUE, ILLEGAL, ILLEGAL, ILLEGAL, PERIOD}, toks)
	require.Equal(t, []string{"0", "0", "12", "340", "#a_1", ":v9", "#", ":", "#", "."}, lits)
}

// TestScanOperator: every operator and punctuation mark scans to its
// token, <> <= >= taken whole, also at the end of input; a character
// that starts no token is one ILLEGAL token (a whole rune when it is not
// ASCII).
func TestScanOperator(t *testing.T) {
	tests := []struct {
		src  string
		end  int
		want Token
	}{
		{"=", 1, EQ}, {"+", 1, PLUS}, {"-", 1, MINUS}, {"(", 1, LPAREN}, {")", 1, RPAREN},
		{"[", 1, LBRACK}, {"]", 1, RBRACK}, {",", 1, COMMA}, {".", 1, PERIOD},
		{"<", 1, LT}, {"<>", 2, NE}, {"<=", 2, LE}, {"<<", 1, LT}, {">", 1, GT}, {">=", 2, GE}, {"><", 1, GT},
		{"!=", 1, ILLEGAL}, {"*", 1, ILLEGAL}, {"\x00", 1, ILLEGAL}, {"é", 2, ILLEGAL}, {"\xff", 1, ILLEGAL},
	}
	for _, tt := range tests {
		pos, tok, lit := newScanner(tt.src, ModeCondition).Scan()
		end := pos + len(lit)
		require.Equal(t, tt.want, tok, "%q", tt.src)
		require.Equal(t, tt.end, end, "%q", tt.src)
	}
}
