package expr

import (
	"strings"
	"testing"
)

// parseAny parses src with the grammar of kind and returns its canonical
// source.
func parseAny(kind, src string) (string, error) {
	switch kind {
	case "update":
		u, err := ParseUpdate(src)
		if err != nil {
			return "", err
		}
		return u.String(), nil
	case "projection":
		p, err := ParseProjection(src)
		if err != nil {
			return "", err
		}
		return p.String(), nil
	}
	x, err := ParseCondition("ConditionExpression", src)
	if err != nil {
		return "", err
	}
	return x.String(), nil
}

func TestParseCanonical(t *testing.T) {
	tests := []struct {
		name, kind, src, want string
	}{
		{"compare", "condition", "a=:v", "a = :v"},
		{"keywords any case", "condition", "a bEtWeEn :x aNd :y", "a BETWEEN :x AND :y"},
		{"precedence kept by tree", "condition", "a = :v OR b = :v AND NOT c = :v", "a = :v OR b = :v AND NOT c = :v"},
		{"parens kept", "condition", "(a = :v OR b = :v) AND c = :v", "(a = :v OR b = :v) AND c = :v"},
		{"in", "condition", "a IN(:a,:b ,:c)", "a IN (:a, :b, :c)"},
		{"functions", "condition", "begins_with(a.b[2], :p) AND size(#n) > :z", "begins_with(a.b[2], :p) AND size(#n) > :z"},
		{"paren operand", "condition", "(a) = :v", "(a) = :v"},
		{"whitespace in path", "condition", "a . b [ 1 ] = :v", "a.b[1] = :v"},
		{"update all clauses", "update", "set a=:v , b = a + :n remove c, d[1] add e :n delete f :s", "SET a = :v, b = a + :n REMOVE c, d[1] ADD e :n DELETE f :s"},
		{"update functions", "update", "SET a = list_append(if_not_exists(a, :e), :l)", "SET a = list_append(if_not_exists(a, :e), :l)"},
		{"update paren", "update", "SET a = (:a + :b)", "SET a = (:a + :b)"},
		{"projection", "projection", "a,b.c , d[0]", "a, b.c, d[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseAny(tt.kind, tt.src)
			if err != nil {
				t.Fatalf("parse %q: %v", tt.src, err)
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			again, err := parseAny(tt.kind, got)
			if err != nil || again != got {
				t.Errorf("round trip: got %q, %v; want %q", again, err, got)
			}
		})
	}
}

// TestRoundTripOracle round-trips every expression of the goldens that
// parses: parse -> String -> parse gives the same String.
func TestRoundTripOracle(t *testing.T) {
	n := 0
	for _, c := range readOracle(t, "testdata/oracle.txt") {
		kind := c.kind
		if kind != "update" && kind != "projection" {
			kind = "condition"
		}
		s1, err := parseAny(kind, c.expr)
		if err != nil {
			continue
		}
		s2, err := parseAny(kind, s1)
		if err != nil || s1 != s2 {
			t.Errorf("%s %q: first %q, second %q (%v)", kind, c.expr, s1, s2, err)
		}
		n++
	}
	if n < 100 {
		t.Errorf("only %d expressions round-tripped", n)
	}
}

func TestErrorPositions(t *testing.T) {
	tests := []struct {
		src string
		pos int
	}{
		{"a = :v AND", 10},
		{"a = :v $", 7},
		{"a[x] = :v", 2},
	}
	for _, tt := range tests {
		_, err := ParseCondition("ConditionExpression", tt.src)
		e, ok := err.(*Error)
		if !ok {
			t.Fatalf("%q: got %v, want *Error", tt.src, err)
		}
		if e.Pos != tt.pos {
			t.Errorf("%q: got pos %d, want %d", tt.src, e.Pos, tt.pos)
		}
	}
}

func TestScannerProgress(t *testing.T) {
	src := "a.#b[10] <> :c AND é!=\"x\" <= >= ( ) , + - 0012"
	s := newScanner(src, ModeCondition)
	var parts []string
	last := -1
	for {
		pos, tok, lit := s.Scan()
		if pos <= last && tok != EOF {
			t.Fatalf("no progress at %d", pos)
		}
		last = pos
		if tok == EOF {
			break
		}
		parts = append(parts, lit)
	}
	if got := strings.Join(parts, ""); got != strings.Join(strings.Fields(src), "") {
		t.Errorf("tokens %q do not cover the input", parts)
	}
}

func TestPrecedence(t *testing.T) {
	if !(OR.Precedence() < AND.Precedence() && AND.Precedence() < NOT.Precedence() && NOT.Precedence() < EQ.Precedence()) {
		t.Error("want OR < AND < NOT < comparisons")
	}
	if IDENT.Precedence() != LowestPrec {
		t.Error("non-operators must have the lowest precedence")
	}
}
