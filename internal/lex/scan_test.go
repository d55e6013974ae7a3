package lex

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The tokens of the test languages.
const (
	tIllegal = iota
	tEOF
	tWord
	tKeyword
	tNumber
	tName
	tString
	tQuoted
	tEq
	tLt
	tNe
	tLe
	tMinus
	tPeriod
)

// testRules are a language with every rule on (PartiQL's shape) and one
// with the fewest (the expression languages').
var testRules = []*Rules[int]{
	(&Rules[int]{
		EOF: tEOF, Space: " \t\n", Comments: true,
		WordStart: Letters + "_", WordChar: Letters + Digits + "_$",
		Number: tNumber, Decimal: true, Quotes: `'"`,
		Tok: [128]int{'\'': tString, '"': tQuoted, '=': tEq, '<': tLt, '-': tMinus, '.': tPeriod},
		Two: []Op[int]{{Text: "<>", Tok: tNe}, {Text: "!=", Tok: tNe}, {Text: "<=", Tok: tLe}},
	}).Build(),
	(&Rules[int]{
		EOF: tEOF, Space: " ",
		WordStart: Letters, WordChar: Letters + Digits + "_",
		Number: tNumber, Sigils: "#:",
		Tok: [128]int{'#': tName, ':': tName, '=': tEq, '<': tLt, '-': tMinus, '.': tPeriod},
		Two: []Op[int]{{Text: "<>", Tok: tNe}},
	}).Build(),
}

// word is the test languages' words: "and" a keyword in any case.
func word(w string) int {
	if strings.EqualFold(w, "and") {
		return tKeyword
	}
	return tWord
}

type token struct {
	pos, tok int
	lit      string
}

func scanAll(src string, r *Rules[int]) []token {
	var s Scanner[int]
	s.Init(src, r, word)
	var out []token
	for {
		pos, tok, lit := s.Scan()
		out = append(out, token{pos, tok, lit})
		if tok == tEOF {
			return out
		}
	}
}

func TestScan(t *testing.T) {
	full, least := testRules[0], testRules[1]
	tests := []struct {
		r    *Rules[int]
		src  string
		want []token
	}{
		{full, "a_1$ AND 'it''s' \"q\"", []token{{0, tWord, "a_1$"}, {5, tKeyword, "AND"}, {9, tString, "'it''s'"}, {17, tQuoted, `"q"`}, {20, tEOF, ""}}},
		{full, "1.5e+3 .5 1e 7.", []token{{0, tNumber, "1.5e+3"}, {7, tNumber, ".5"}, {10, tNumber, "1"}, {11, tWord, "e"}, {13, tNumber, "7."}, {15, tEOF, ""}}},
		{full, "a--x\n<>/* c */!=<=<", []token{{0, tWord, "a"}, {5, tNe, "<>"}, {14, tNe, "!="}, {16, tLe, "<="}, {18, tLt, "<"}, {19, tEOF, ""}}},
		{full, "a /* open", []token{{0, tWord, "a"}, {2, tIllegal, "/* open"}, {9, tEOF, ""}}},
		{full, "'open", []token{{0, tIllegal, "'open"}, {5, tEOF, ""}}},
		{full, "#é!", []token{{0, tIllegal, "#"}, {1, tIllegal, "é"}, {3, tIllegal, "!"}, {4, tEOF, ""}}},
		{least, "0012 #a_1 : .5 a--b", []token{{0, tNumber, "0"}, {1, tNumber, "0"}, {2, tNumber, "12"}, {5, tName, "#a_1"}, {10, tIllegal, ":"}, {12, tPeriod, "."}, {13, tNumber, "5"}, {15, tWord, "a"}, {16, tMinus, "-"}, {17, tMinus, "-"}, {18, tWord, "b"}, {19, tEOF, ""}}},
		{least, "_\t<=", []token{{0, tIllegal, "_"}, {1, tIllegal, "\t"}, {2, tLt, "<"}, {3, tEq, "="}, {4, tEOF, ""}}},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, scanAll(tt.src, tt.r), "%q", tt.src)
	}
}

func TestBuild(t *testing.T) {
	r := testRules[1]
	require.True(t, r.IsWordChar('a') && r.IsWordChar('_') && r.IsWordChar('7'))
	require.False(t, r.IsWordChar('-') || r.IsWordChar(0xff) || r.IsWordChar(0))
	var s Scanner[int]
	require.Panics(t, func() { s.Init("a", &Rules[int]{}, word) })
}

// FuzzScanner checks, in both test languages, that the scanner makes
// progress, that each token is its source text at its place, that only
// space and comments lie between tokens, and that the stream ends with
// one EOF at the end of input.
func FuzzScanner(f *testing.F) {
	for _, s := range []string{"a_1$ AND 'it''s' \"q\"", "1.5e+3 .5 1e 7.", "a--x\n<>/* c */!=<=<", "a /* open",
		"'open", "#é!", "0012 #a_1 : .5 a--b", "\xff\xfe<\x00", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, r := range testRules {
			toks := scanAll(src, r)
			end := 0
			for i, tk := range toks {
				if tk.pos < end || tk.pos > len(src) || src[tk.pos:tk.pos+len(tk.lit)] != tk.lit {
					t.Fatalf("%q: token %d %+v out of place (previous end %d)", src, i, tk, end)
				}
				if tk.tok != tEOF && tk.lit == "" {
					t.Fatalf("%q: empty token %+v", src, tk)
				}
				if gap := src[end:tk.pos]; !blank(gap, r) {
					t.Fatalf("%q: %q skipped between tokens", src, gap)
				}
				end = tk.pos + len(tk.lit)
			}
			if last := toks[len(toks)-1]; last.pos != len(src) {
				t.Fatalf("%q: EOF at %d", src, last.pos)
			}
		}
	})
}

// blank reports whether gap is only space and, where r has them, closed
// comments or a line comment.
func blank(gap string, r *Rules[int]) bool {
	for i := 0; i < len(gap); {
		switch {
		case strings.IndexByte(r.Space, gap[i]) >= 0:
			i++
		case !r.Comments:
			return false
		case strings.HasPrefix(gap[i:], "--"):
			n := strings.IndexByte(gap[i:], '\n')
			if n < 0 {
				return true
			}
			i += n + 1
		case strings.HasPrefix(gap[i:], "/*"):
			n := strings.Index(gap[i+2:], "*/")
			if n < 0 {
				return false
			}
			i += n + 4
		default:
			return false
		}
	}
	return true
}
