package partiql

import (
	"errors"
	"strings"
	"testing"
)

// parseTests is the corpus of statements that parse: source and canonical
// form. The fuzz target is seeded with it.
var parseTests = []struct {
	name, src, want string
}{
	{"select star", "select * from t", "SELECT * FROM t"},
	{"select quoted table", `SELECT * FROM "my-table"`, `SELECT * FROM "my-table"`},
	{"select index", `SELECT * FROM "t"."by-date" WHERE gsi = 'x'`, `SELECT * FROM "t"."by-date" WHERE gsi = 'x'`},
	{"projection paths", `SELECT a, "b c", a.b[1].c, m['k'] FROM t`, `SELECT a, "b c", a.b[1].c, m['k'] FROM t`},
	{"aggregate over all items", `select count(*), a FROM t`, `SELECT count(*), a FROM t`}, // read, refused by lower
	{"where key", "SELECT * FROM t WHERE pk='a' AND sk>=3", "SELECT * FROM t WHERE pk = 'a' AND sk >= 3"},
	{"all comparisons", "SELECT * FROM t WHERE a=1 OR a<>1 OR a!=1 OR a<1 OR a<=1 OR a>1 OR a>=1",
		"SELECT * FROM t WHERE a = 1 OR a <> 1 OR a <> 1 OR a < 1 OR a <= 1 OR a > 1 OR a >= 1"},
	{"precedence kept by tree", "SELECT * FROM t WHERE a = 1 OR b = 2 AND NOT c = 3", "SELECT * FROM t WHERE a = 1 OR b = 2 AND NOT c = 3"},
	{"parens", "SELECT * FROM t WHERE (a = 1 OR b = 2) AND c = 3", "SELECT * FROM t WHERE (a = 1 OR b = 2) AND c = 3"},
	{"in paren list", "SELECT * FROM t WHERE pk IN ('a','b')", "SELECT * FROM t WHERE pk IN ('a', 'b')"},
	{"in bracket list", "SELECT * FROM t WHERE pk IN ['a', ?]", "SELECT * FROM t WHERE pk IN ['a', ?]"},
	{"in param", "SELECT * FROM t WHERE x IN ?", "SELECT * FROM t WHERE x IN ?"},
	{"not in", "SELECT * FROM t WHERE x NOT IN [1]", "SELECT * FROM t WHERE x NOT IN [1]"},
	{"in nothing", "SELECT * FROM t WHERE x IN [] OR y IN ()", "SELECT * FROM t WHERE x IN [] OR y IN ()"},
	{"between", "select * from t where sk between 1 and 2 and x = 3", "SELECT * FROM t WHERE sk BETWEEN 1 AND 2 AND x = 3"},
	{"not between", "SELECT * FROM t WHERE sk NOT BETWEEN ? AND ?", "SELECT * FROM t WHERE sk NOT BETWEEN ? AND ?"},
	{"functions", "SELECT * FROM t WHERE begins_with(pk, 'a') AND contains(x, 'y') AND attribute_type(x, 'S') AND size(x) > 1",
		"SELECT * FROM t WHERE begins_with(pk, 'a') AND contains(x, 'y') AND attribute_type(x, 'S') AND size(x) > 1"},
	{"is missing", "SELECT * FROM t WHERE x is missing AND y IS NOT MISSING", "SELECT * FROM t WHERE x IS MISSING AND y IS NOT MISSING"},
	{"is null", "SELECT * FROM t WHERE x IS NULL AND y IS NOT NULL", "SELECT * FROM t WHERE x IS NULL AND y IS NOT NULL"},
	{"order by", "SELECT * FROM t WHERE pk = 'a' ORDER BY sk DESC, pk asc", "SELECT * FROM t WHERE pk = 'a' ORDER BY sk DESC, pk ASC"},
	{"order by plain", "SELECT * FROM t WHERE pk = 'a' ORDER BY sk", "SELECT * FROM t WHERE pk = 'a' ORDER BY sk"},
	{"params numbered", "SELECT * FROM t WHERE pk = ? AND sk = ?", "SELECT * FROM t WHERE pk = ? AND sk = ?"},
	{"string escapes", "SELECT * FROM t WHERE x = 'it''s'", "SELECT * FROM t WHERE x = 'it''s'"},
	{"quoted ident escapes", `SELECT * FROM t WHERE "a""b" = 1`, `SELECT * FROM t WHERE "a""b" = 1`},
	{"keyword as quoted name", `SELECT "value" FROM "select"`, `SELECT "value" FROM "select"`},
	{"numbers", "SELECT * FROM t WHERE x = -1.5 AND y = .5 AND z = 1e5 AND w = 2E-3 AND v = +1",
		"SELECT * FROM t WHERE x = -1.5 AND y = .5 AND z = 1e5 AND w = 2E-3 AND v = +1"},
	{"arithmetic", "SELECT * FROM t WHERE x = a + b * 2 - c / 3", "SELECT * FROM t WHERE x = a + b * 2 - c / 3"},
	{"minus of negative", "SELECT * FROM t WHERE x = - -1", "SELECT * FROM t WHERE x = - -1"},
	{"concat and like", "SELECT * FROM t WHERE x = 'a' || 'b' OR y LIKE 'a%'", "SELECT * FROM t WHERE x = 'a' || 'b' OR y LIKE 'a%'"},
	{"collections", "SELECT * FROM t WHERE x = {'a': 1} OR x = [1, 2] OR x = <<1,2>> OR x = [] OR x = {}",
		"SELECT * FROM t WHERE x = {'a': 1} OR x = [1, 2] OR x = <<1, 2>> OR x = [] OR x = {}"},
	{"comments and semicolon", "SELECT * -- all\nFROM t /* the table */ WHERE pk = 'c';", "SELECT * FROM t WHERE pk = 'c'"},
	{"negative index", "SELECT * FROM t WHERE a[-1] = 3", "SELECT * FROM t WHERE a[-1] = 3"},
	{"unknown function", "SELECT * FROM t WHERE foo(x) = 1", "SELECT * FROM t WHERE foo(x) = 1"},
	{"insert", "insert into t value {'pk': 'a', 'sk': 1, 'ss': <<'a','b'>>, 'l': [1, 'x', true, null], 'm': {'k': MISSING}}",
		"INSERT INTO t VALUE {'pk': 'a', 'sk': 1, 'ss': <<'a', 'b'>>, 'l': [1, 'x', TRUE, NULL], 'm': {'k': MISSING}}"},
	{"insert params", `INSERT INTO "t" VALUE {'pk': ?, 'n': ?}`, `INSERT INTO "t" VALUE {'pk': ?, 'n': ?}`},
	{"update", "UPDATE t SET x = 1, y = 'a' SET z = x + 1 REMOVE w WHERE pk = 'a' AND sk = 1",
		"UPDATE t SET x = 1, y = 'a' SET z = x + 1 REMOVE w WHERE pk = 'a' AND sk = 1"},
	{"update functions returning", "UPDATE t SET l = list_append(l, [1]) SET s = set_add(s, <<'q'>>) WHERE pk = 'a' returning all new *",
		"UPDATE t SET l = list_append(l, [1]) SET s = set_add(s, <<'q'>>) WHERE pk = 'a' RETURNING ALL NEW *"},
	{"update remove first", "UPDATE t REMOVE a.b[2] SET c = ? WHERE pk = ?", "UPDATE t REMOVE a.b[2] SET c = ? WHERE pk = ?"},
	{"delete", "delete from t where pk = 'a' and sk = 1", "DELETE FROM t WHERE pk = 'a' AND sk = 1"},
	{"delete returning", "DELETE FROM t WHERE pk = 'a' RETURNING ALL OLD *", "DELETE FROM t WHERE pk = 'a' RETURNING ALL OLD *"},
	{"delete condition", "DELETE FROM t WHERE pk = 'a' AND x IS MISSING", "DELETE FROM t WHERE pk = 'a' AND x IS MISSING"},
	{"exists", "EXISTS(SELECT * FROM t WHERE pk = 'a')", "EXISTS(SELECT * FROM t WHERE pk = 'a')"},
	{"not paren", "SELECT * FROM t WHERE NOT (a = 1)", "SELECT * FROM t WHERE NOT (a = 1)"},
	{"path with spaces", "SELECT * FROM t WHERE a . b [ 1 ] . c = 1", "SELECT * FROM t WHERE a.b[1].c = 1"},
	{"from-first update", "from t where pk = 'k' set c = 1", "FROM t WHERE pk = 'k' SET c = 1"},
	{"from-first remove returning", "FROM \"t\" WHERE pk = ? SET c = ?, d = 2 REMOVE e RETURNING ALL NEW *",
		"FROM \"t\" WHERE pk = ? SET c = ?, d = 2 REMOVE e RETURNING ALL NEW *"},
	{"from-first without where", "FROM t SET c = 1", "FROM t SET c = 1"},
	{"is types", "SELECT * FROM t WHERE a IS bool AND b IS NOT String AND c IS double precision AND d IS character varying(3) AND e IS decimal(5,2) AND f IS INT4",
		"SELECT * FROM t WHERE a IS BOOL AND b IS NOT STRING AND c IS DOUBLE PRECISION AND d IS CHARACTER VARYING(3) AND e IS DECIMAL(5, 2) AND f IS INT4"},
	{"function result compared", "SELECT * FROM t WHERE attribute_exists(x) = true AND begins_with(a, 'b') <> false",
		"SELECT * FROM t WHERE attribute_exists(x) = TRUE AND begins_with(a, 'b') <> FALSE"},
	{"reserved words as functions", "SELECT * FROM t WHERE SIZE(a) > 1 AND EXISTS(b) AND count(c) = 1",
		"SELECT * FROM t WHERE SIZE(a) > 1 AND EXISTS(b) AND count(c) = 1"},
	{"reserved words quoted", `SELECT "key", m."inner", m['size'] FROM t WHERE "value" = 1`,
		`SELECT "key", m."inner", m['size'] FROM t WHERE "value" = 1`},
	{"numbers at the edge", "SELECT * FROM t WHERE a = 1e2147483647 AND b = 1.5e-2147483646 AND c = 1e126",
		"SELECT * FROM t WHERE a = 1e2147483647 AND b = 1.5e-2147483646 AND c = 1e126"},
}

func TestParseCanonical(t *testing.T) {
	for _, tt := range parseTests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := Parse(tt.src)
			if err != nil {
				t.Fatalf("parse %q: %v", tt.src, err)
			}
			got := st.String()
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			again, err := Parse(got)
			if err != nil {
				t.Fatalf("round trip: %q does not parse: %v", got, err)
			}
			if again.String() != got {
				t.Errorf("round trip: got %q, want %q", again.String(), got)
			}
		})
	}
}

func TestParseTree(t *testing.T) {
	st, err := Parse(`SELECT a.b[1] FROM "t"."i" WHERE pk = ? AND x IN [?, 2] ORDER BY sk DESC`)
	if err != nil {
		t.Fatal(err)
	}
	s, ok := st.(*Select)
	if !ok {
		t.Fatalf("got %T, want *Select", st)
	}
	if got, want := s.From.Table.Text, "t"; got != want {
		t.Errorf("table: got %q, want %q", got, want)
	}
	if s.From.Index == nil || s.From.Index.Text != "i" {
		t.Errorf("index: got %v, want i", s.From.Index)
	}
	and := s.Where.(*Binary)
	if and.Op != AND {
		t.Fatalf("got op %v, want AND", and.Op)
	}
	if got := and.X.(*Binary).Y.(*Param).N; got != 0 {
		t.Errorf("first param: got %d, want 0", got)
	}
	if got := and.Y.(*In).Elems[0].(*Param).N; got != 1 {
		t.Errorf("second param: got %d, want 1", got)
	}
	if got, want := ParamCount(st), 2; got != want {
		t.Errorf("ParamCount: got %d, want %d", got, want)
	}
	if got, want := s.OrderBy[0].Dir, DESC; got != want {
		t.Errorf("order: got %v, want %v", got, want)
	}
	p := s.Projection[0].(*Path)
	if got, want := p.Elems[1].Offset, 9; got != want {
		t.Errorf("path elem offset: got %d, want %d", got, want)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		kind ErrorKind
		pos  int
		line int
		col  int
		len  int
	}{
		{"not a statement", "SELEC * FROM t", KindNotStatement, 0, 1, 1, 5},
		{"expression statement", "FOO", KindNotStatement, 0, 1, 1, 3},
		{"blank", "   ", KindNotStatement, 3, 1, 4, 0},
		{"missing table", "SELECT * FROM", KindUnexpectedTerm, 13, 1, 14, 0},
		{"where without condition", "SELECT * FROM t WHERE", KindUnexpectedTerm, 21, 1, 22, 0},
		{"where then semicolon", "SELECT * FROM t WHERE;", KindUnexpectedTerm, 21, 1, 22, 1},
		{"where not", "SELECT * FROM t WHERE NOT", KindUnexpectedTerm, 25, 1, 26, 0},
		{"where paren", "SELECT * FROM t WHERE (", KindUnexpectedTerm, 23, 1, 24, 0},
		{"where order by", "SELECT * FROM t WHERE ORDER BY pk", KindUnexpectedKeyword, 22, 1, 23, 5},
		{"where is null", "SELECT * FROM t WHERE IS NULL", KindUnexpectedOperator, 22, 1, 23, 2},
		{"like as operand", "SELECT * FROM t WHERE pk = LIKE", KindUnexpectedOperator, 27, 1, 28, 4},
		{"dangling and", "SELECT * FROM t WHERE pk = 'a' AND", KindMissingOperand, 34, 1, 35, 0},
		{"dangling or", "SELECT * FROM t WHERE pk = 'a' OR", KindMissingOperand, 33, 1, 34, 0},
		{"double equals", "SELECT * FROM t WHERE pk == 'a'", KindUnexpectedOperator, 26, 1, 27, 1},
		{"unterminated string", "SELECT * FROM t WHERE pk = 'a", KindIllegal, 27, 1, 28, 2},
		{"stray character", "SELECT * FROM t WHERE pk = 'a' $", KindIllegal, 31, 1, 32, 1},
		{"hash comment", "SELECT * FROM t WHERE pk = 1 # note", KindIllegal, 29, 1, 30, 1},
		{"lexer first", "SELEC * FROM t WHERE pk = 1 # note", KindIllegal, 28, 1, 29, 1},
		{"exponent past int32", "SELECT * FROM t WHERE pk = 1e2147483648", KindBadNumber, 27, 1, 28, 12},
		{"far larger exponent", "SELECT * FROM t WHERE pk = 1e99999999999", KindBadNumber, 27, 1, 28, 13},
		{"scale past int32", "SELECT * FROM t WHERE pk = 1.5e-2147483647", KindBadNumber, 27, 1, 28, 15},
		{"negative scale past int32", "SELECT * FROM t WHERE pk = -1e-2147483648", KindBadNumber, 28, 1, 29, 13},
		{"keyword as operand", "SELECT * FROM t WHERE pk = FROM", KindUnexpectedKeyword, 27, 1, 28, 4},
		{"reserved word as a name", "SELECT * FROM t WHERE key = 1", KindUnexpectedKeyword, 22, 1, 23, 3},
		{"reserved word after a dot", "SELECT * FROM t WHERE attribute_exists(m.inner)", KindPathComponent, 41, 1, 42, 5},
		{"keyword after a dot", "SELECT * FROM t WHERE m.value = 1", KindPathComponent, 24, 1, 25, 5},
		{"nothing after a dot", "SELECT * FROM t WHERE m. = 1", KindPathComponent, 25, 1, 26, 1},
		{"values keyword", "INSERT INTO t VALUES {'a': 1}", KindLeftover, 14, 1, 15, 6},
		{"insert alias", "INSERT INTO t x VALUE {'a': 1}", KindLeftover, 14, 1, 15, 1},
		{"remove with comma", "UPDATE t REMOVE x, y WHERE pk = 'c'", KindLeftover, 17, 1, 18, 1},
		{"is five", "SELECT * FROM t WHERE x IS 5", KindExpectedTypeName, 27, 1, 28, 1},
		{"is foo", "SELECT * FROM t WHERE x IS FOO", KindExpectedTypeName, 27, 1, 28, 3},
		{"is true", "SELECT * FROM t WHERE x IS TRUE", KindExpectedTypeName, 27, 1, 28, 4},
		{"double without precision", "SELECT * FROM t WHERE x IS DOUBLE", KindExpectedTypeName, 33, 1, 34, 0},
		{"type with too many parameters", "SELECT * FROM t WHERE x IS VARCHAR(1, 2)", KindUnexpectedToken, 38, 1, 39, 1},
		{"type without parameters", "SELECT * FROM t WHERE x IS STRING(3)", KindLeftover, 33, 1, 34, 1},
		{"binary literal", "SELECT * FROM t WHERE x = x'0a'", KindLeftover, 27, 1, 28, 4},
		{"second line", "SELECT *\nFROM t\nWHERE pk = = 1", KindUnexpectedOperator, 27, 3, 12, 1},
		{"column in utf-16", "SELECT * FROM t WHERE '😀' = = 1", KindUnexpectedOperator, 31, 1, 30, 1},
		{"no actions", "UPDATE t WHERE pk = 1", KindUnexpectedKeyword, 9, 1, 10, 5},
		{"trailing tokens", "DELETE FROM t WHERE pk = 1 pk", KindLeftover, 27, 1, 28, 2},
		{"number split from its exponent", "SELECT * FROM t WHERE pk = 1 e5", KindLeftover, 29, 1, 30, 2},
		{"stray parenthesis", "SELECT * FROM t WHERE pk = 1)", KindLeftover, 28, 1, 29, 1},
		{"order by on a delete", "DELETE FROM t WHERE pk = 1 ORDER BY pk", KindLeftover, 27, 1, 28, 5},
		{"order by before where", "SELECT * FROM t ORDER BY pk WHERE pk = 1", KindLeftover, 28, 1, 29, 5},
		{"table alias", "SELECT * FROM t x WHERE pk = 'x'", KindAliasing, 16, 1, 17, 1},
		{"table alias with as", "SELECT * FROM t AS x WHERE pk = 'x'", KindAliasing, 16, 1, 17, 2},
		{"update alias", "UPDATE t x SET a = 3 WHERE pk = 'x'", KindAliasing, 9, 1, 10, 1},
		{"delete alias", "DELETE FROM t x WHERE pk = 'x'", KindAliasing, 14, 1, 15, 1},
		{"projection alias", "SELECT a AS b FROM t", KindAliasing, 9, 1, 10, 2},
		{"from-first alias", "FROM t x WHERE pk = 'a' SET c = 1", KindAliasing, 7, 1, 8, 1},
		{"delete from nothing", "DELETE FROM", KindExpectedIdent, 11, 1, 12, 0},
		{"delete from semicolon", "DELETE FROM;", KindExpectedIdent, 11, 1, 12, 1},
		{"delete from where", "DELETE FROM WHERE pk = 'a'", KindExpectedIdent, 12, 1, 13, 5},
		{"from-first set then where", "FROM t SET c = 1 WHERE pk = 'x'", KindLeftover, 17, 1, 18, 5},
		{"from-first without actions", "FROM t WHERE pk = 'a'", KindUnexpectedEnd, 21, 1, 22, 0},
		{"unclosed comment", "SELECT * FROM t /* x", KindIllegal, 16, 1, 17, 4},
		{"returning shape", "DELETE FROM t WHERE pk = 1 RETURNING ALL *", KindUnexpectedToken, 41, 1, 42, 1},
		{"too deep", "SELECT * FROM t WHERE " + strings.Repeat("(", 2000) + "a = 1" + strings.Repeat(")", 2000), KindTooDeep, 0, 0, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.src)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v, want *Error", err)
			}
			if !errors.Is(err, ErrSyntax) {
				t.Errorf("got %v, want it to wrap ErrSyntax", err)
			}
			if e.Kind != tt.kind {
				t.Errorf("kind: got %v, want %v (%v)", e.Kind, tt.kind, e)
			}
			if tt.kind == KindTooDeep {
				return
			}
			if e.Pos != tt.pos || e.Line != tt.line || e.Column != tt.col || e.Len != tt.len {
				t.Errorf("place: got pos %d %d:%d:%d, want pos %d %d:%d:%d (%v)",
					e.Pos, e.Line, e.Column, e.Len, tt.pos, tt.line, tt.col, tt.len, e)
			}
		})
	}
}

func TestScannerProgress(t *testing.T) {
	src := `SELECT "a""b", 'c''d' FROM t WHERE x <> 1 != 2 << >> <= >= || ? é $ 1.5e3 .5 -- c`
	s := newScanner(src)
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
	want := strings.Join(strings.Fields(strings.TrimSuffix(src, "-- c")), "")
	if got := strings.Join(parts, ""); got != want {
		t.Errorf("tokens %q do not cover the input", parts)
	}
}

func TestScannerTokens(t *testing.T) {
	tests := []struct {
		src  string
		want []Token
	}{
		{"<<1>>", []Token{LBAG, NUMBER, RBAG}},
		{"a<>b", []Token{IDENT, NE, IDENT}},
		{"a!=b", []Token{IDENT, NE, IDENT}},
		{"a<b", []Token{IDENT, LT, IDENT}},
		{"select SeLeCt", []Token{SELECT, SELECT}},
		{`"x" 'y'`, []Token{QIDENT, STRING}},
		{"1e 1e+ 1e+2", []Token{NUMBER, IDENT, NUMBER, IDENT, PLUS, NUMBER}},
		{"!", []Token{ILLEGAL}},
		{"|", []Token{ILLEGAL}},
	}
	for _, tt := range tests {
		s := newScanner(tt.src)
		var got []Token
		for {
			_, tok, _ := s.Scan()
			if tok == EOF {
				break
			}
			got = append(got, tok)
		}
		if len(got) != len(tt.want) {
			t.Errorf("%q: got %v, want %v", tt.src, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%q: got %v, want %v", tt.src, got, tt.want)
				break
			}
		}
	}
}

func TestPrecedence(t *testing.T) {
	order := []Token{OR, AND, NOT, EQ, CONCAT, PLUS, STAR}
	for i := 1; i < len(order); i++ {
		if order[i-1].Precedence() >= order[i].Precedence() {
			t.Errorf("want %v < %v", order[i-1], order[i])
		}
	}
	if IDENT.Precedence() != LowestPrec {
		t.Error("non-operators must have the lowest precedence")
	}
}

func TestTokenStrings(t *testing.T) {
	for tok := ILLEGAL; tok < keywordEnd; tok++ {
		if tok == literalBeg || tok == literalEnd || tok == operatorBeg || tok == operatorEnd || tok == keywordBeg {
			continue
		}
		if strings.HasPrefix(tok.String(), "token(") {
			t.Errorf("token %d has no name", int(tok))
		}
		if tok.IsKeyword() && tok != RESERVED && Lookup(tok.String()) != tok {
			t.Errorf("keyword %v does not look itself up", tok)
		}
	}
}

// TestErrorMessage: DynamoDB's message for a statement that does not parse,
// AWS's words where a public record of an AWS answer gives them (the
// paritysuite/dynamodb-conformance records, tests/tier3/error-messages/
// partiqlGrammar.test.ts), else DynamoDB Local's (the statement echoed).
func TestErrorMessage(t *testing.T) {
	tests := []struct{ src, want string }{
		{"SELECT * FROM t WHERE pk = 1 foo", MsgMalformed + "Unexpected token after expression"},
		{"INSERT INTO t x VALUE {'pk': 'x'}", MsgMalformed + "Unexpected token after expression"},
		{"SELECT * FROM t WHERE pk = 1e99999999999", MsgMalformed},
		{"SELECT * FROM t WHERE pk = 1 /* note", MsgMalformed},
		{"SELECT * FROM t AS x WHERE pk = 'x'", "Aliasing is not supported"},
		{"SELECT * FROM t WHERE", MsgMalformed + "Unexpected term"},
		{"SELECT * FROM t WHERE pk = 'p1' OR", MsgMalformed + "Missing right-hand side expression of infix operator"},
		{"SELECT * FROM t WHERE ORDER BY pk", MsgMalformed + "Unexpected keyword"},
		{"SELECT * FROM t WHERE pk = 'a' AND x IS FOO", MsgMalformed + "Expected type name"},
		{"SELECT * FROM t WHERE IS NULL", MsgMalformed + "Unexpected operator"},
		{"DELETE FROM WHERE pk = 'a'", MsgMalformed + "Expected identifier for simple path"},
		{"SELECT * FROM t WHERE attribute_exists(m.inner)", MsgMalformed + "Invalid path dot component"},
		{"SELEC * FROM t", MsgMalformed + "Expected data manipulation"},
		{"SELECT * FROM t WHERE x BETWEEN 1", MsgMalformed + "SELECT * FROM t WHERE x BETWEEN 1"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.src)
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%q: got %v, want *Error", tt.src, err)
		}
		if got := e.Message(tt.src); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.src, got, tt.want)
		}
	}
}

// TestParseIsType: the type after IS, as DynamoDB's messages name it.
func TestParseIsType(t *testing.T) {
	tests := []struct{ src, name string }{
		{"x IS BOOL", "BOOLEAN"}, {"x IS int", "INTEGER"}, {"x IS INT4", "INTEGER4"}, {"x IS BIGINT", "INTEGER8"},
		{"x IS DOUBLE PRECISION", "DOUBLE_PRECISION"}, {"x IS CHARACTER VARYING", "CHARACTER_VARYING"},
		{"x IS VARCHAR(3)", "CHARACTER_VARYING"}, {"x IS CHAR(2)", "CHARACTER"}, {"x IS DEC(3, 1)", "DECIMAL"},
		{"x IS NUMERIC", "NUMERIC"}, {"x IS TUPLE", "TUPLE"}, {"x IS STRUCT", "STRUCT"}, {"x IS TIME(3)", "TIME"},
	}
	for _, tt := range tests {
		st, err := Parse("SELECT * FROM t WHERE " + tt.src)
		if err != nil {
			t.Fatalf("%q: %v", tt.src, err)
		}
		is := st.(*Select).Where.(*Is)
		if is.Type == nil || is.Type.Name != tt.name {
			t.Errorf("%q: got %+v, want type %s", tt.src, is.Type, tt.name)
		}
	}
}
