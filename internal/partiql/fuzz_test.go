package partiql

import (
	"errors"
	"testing"
)

// FuzzParse checks that Parse never panics, that every error is an *Error
// placed inside the statement, and that the canonical form of every
// statement parses back to itself.
func FuzzParse(f *testing.F) {
	for _, tt := range parseTests {
		f.Add(tt.src)
	}
	f.Add("SELECT * FROM t WHERE pk = 'a")
	f.Add("UPDATE t REMOVE x, y WHERE pk = 'c'")
	f.Add("SELECT * FROM t WHERE x = x'0a' /*")
	f.Fuzz(func(t *testing.T, src string) {
		st, err := Parse(src)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrSyntax) {
				t.Fatalf("error %T %v", err, err)
			}
			if e.Pos < 0 || e.Pos > len(src) || e.Line < 1 || e.Column < 1 {
				t.Fatalf("error outside the statement: %+v", e)
			}
			return
		}
		s1 := st.String()
		again, err := Parse(s1)
		if err != nil {
			t.Fatalf("canonical form %q of %q does not parse: %v", s1, src, err)
		}
		if s2 := again.String(); s2 != s1 {
			t.Fatalf("canonical form unstable: %q then %q", s1, s2)
		}
	})
}
