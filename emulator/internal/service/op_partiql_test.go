package service

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

func stmtBody(stmt string, extra string) string {
	b, _ := json.Marshal(stmt)
	return `{"Statement":` + string(b) + extra + `}`
}

func TestExecuteStatementPlans(t *testing.T) {
	r := newReadEnv(t)
	r.fillRange()
	tests := []struct {
		name, stmt, want string
	}{
		{"query", "SELECT * FROM rng WHERE pk = 'a'", "1 2 3 4 5"},
		{"query reversed", "SELECT * FROM rng WHERE pk = 'a' AND sk >= 2 ORDER BY sk DESC", "5 4 3 2"},
		{"key on the right", "SELECT * FROM rng WHERE 'a' = pk AND 4 < sk", "5"},
		{"<> on the sort key is a filter", "SELECT * FROM rng WHERE pk = 'a' AND sk <> 3", "1 2 4 5"},
		{"partition key of another type in a list", "SELECT * FROM rng WHERE pk IN [1, 'b']", "1 2 3"},
		{"or is a scan", "SELECT * FROM rng WHERE pk = 'b' OR v = 50", "1 2 3 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := r.ok("ExecuteStatement", stmtBody(tt.stmt, ""))
			keys := sortKeys(t, out, "sk")
			got := strings.Join(keys, " ")
			if strings.Contains(tt.name, "scan") {
				got = strings.Join(sortedCopy(keys), " ")
			}
			if got != tt.want {
				t.Errorf("%s: got %q, want %q", tt.stmt, got, tt.want)
			}
		})
	}
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func TestExecuteStatementPagingAndCapacity(t *testing.T) {
	r := newReadEnv(t)
	r.fillRange()
	out := r.ok("ExecuteStatement", stmtBody("SELECT * FROM rng WHERE pk = 'a'", `,"Limit":2,"ReturnConsumedCapacity":"TOTAL"`))
	if got := strings.Join(sortKeys(t, out, "sk"), " "); got != "1 2" {
		t.Fatalf("first page: got %q, want %q", got, "1 2")
	}
	tok, _ := out["NextToken"].(string)
	if tok == "" {
		t.Fatal("no NextToken")
	}
	if cc, _ := out["ConsumedCapacity"].(map[string]any); cc["TableName"] != "rng" {
		t.Errorf("ConsumedCapacity: got %v", out["ConsumedCapacity"])
	}
	out = r.ok("ExecuteStatement", stmtBody("SELECT * FROM rng WHERE pk = 'a'", `,"Limit":10,"NextToken":"`+tok+`"`))
	if got := strings.Join(sortKeys(t, out, "sk"), " "); got != "3 4 5" {
		t.Fatalf("second page: got %q, want %q", got, "3 4 5")
	}
	if _, ok := out["NextToken"]; ok {
		t.Errorf("last page has a NextToken")
	}
	r.wantError("ExecuteStatement", stmtBody("SELECT * FROM rng WHERE pk = 'b'", `,"NextToken":"`+tok+`"`),
		"ValidationException", apierr.MsgNextTokenMismatch)
	r.wantError("ExecuteStatement", stmtBody("SELECT * FROM rng", `,"NextToken":"%%%"`),
		"ValidationException", apierr.MsgPartiQLInvalidNextToken)
}

func TestExecuteStatementErrors(t *testing.T) {
	r := newReadEnv(t)
	r.fillRange()
	tests := []struct {
		body, typ, msg string
	}{
		{`{}`, "ValidationException", "1 validation error detected: Value null at 'statement' failed to satisfy constraint: Member must not be null"},
		{stmtBody("SELEC * FROM rng", ""), "ValidationException", apierr.MsgStatementMalformed + apierr.MsgExpectedDML},
		{stmtBody("SELECT * FROM rng WHERE pk = FROM", ""), "ValidationException", apierr.MsgStatementMalformed + apierr.MsgUnexpectedKeyword},
		{stmtBody("SELECT * FROM rng WHERE", ""), "ValidationException", apierr.MsgStatementMalformed + "Unexpected term"}, // AWS (partiql/errors.go)
		{stmtBody("SELECT * FROM rng WHERE pk = ?", `,"Parameters":[]`), "ValidationException",
			"1 validation error detected: Value '[]' at 'parameters' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{stmtBody("INSERT INTO rng VALUE {'pk': 'a', 'sk': 1}", ""), "DuplicateItemException", apierr.MsgDuplicateItem},
		{stmtBody("INSERT INTO rng VALUE {'pk': 'a', 'sk': 'x'}", ""), "ValidationException",
			"One or more parameter values were invalid: Type mismatch for key sk expected: N actual: S"},
		{stmtBody("UPDATE rng SET pk = 'z' WHERE pk = 'a' AND sk = 1", ""), "ValidationException",
			"One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key"},
		{stmtBody("SELECT count(*) FROM rng", ""), "ValidationException", "Unexpected path component at 1:8:5"}, // AWS (nubo-db/dynoxide's capture)
		{stmtBody("SELECT size(a) FROM rng", ""), "ValidationException", "Unexpected path component at 1:8:4"},
		{stmtBody("SELECT * FROM rng.idx WHERE pk = 'a'", ""), "ValidationException", apierr.MsgPartiQLNoSuchIndex},
		// Key values of another type, as DynamoDB Local answers.
		{stmtBody("SELECT * FROM rng WHERE pk = 1", ""), "ValidationException", "Key attribute's data type should match its data type in table's schema: Key pk"},
		{stmtBody("SELECT * FROM rng WHERE pk = 'a' AND sk = 'x'", ""), "ValidationException", "Key attribute's data type should match its data type in table's schema: Key sk"},
		{stmtBody("SELECT * FROM rng WHERE pk = 'a' AND sk = [1]", ""), "ValidationException", "Key attribute's data type should match its data type in table's schema: Key sk"},
		{stmtBody("SELECT * FROM rng WHERE pk = ''", ""), "ValidationException", "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: pk"},
		{stmtBody("DELETE FROM rng WHERE pk = 'a' AND sk = 'x'", ""), "ValidationException", "Key attribute's data type should match its data type in table's schema: Key sk"},
	}
	for _, tt := range tests {
		r.wantError("ExecuteStatement", tt.body, tt.typ, tt.msg)
	}
}

// FuzzExecuteStatement sends arbitrary statements and parameters to a
// table with items: every answer is a 200 or a 400, never a 500.
func FuzzExecuteStatement(f *testing.F) {
	for _, s := range []string{
		"SELECT * FROM rng WHERE pk = 'a' AND sk > ?",
		"SELECT sk, v, m.l[1] FROM rng WHERE pk IN ['a', 'b'] AND v BETWEEN ? AND 40",
		"SELECT * FROM rng WHERE pk = 'a' AND (x IS MISSING OR v IS NOT NULL) ORDER BY sk DESC",
		"INSERT INTO rng VALUE {'pk': ?, 'sk': 9, 'l': [1, 'x', {'a': <<1, 2>>}]}",
		"UPDATE rng SET v = v + ? SET l = list_append(l, [1]) REMOVE s WHERE pk = 'a' AND sk = 1 RETURNING ALL OLD *",
		"UPDATE rng SET ss = set_add(ss, <<'a'>>) WHERE pk = 'b' AND sk = 2 RETURNING MODIFIED NEW *",
		"DELETE FROM rng WHERE pk = 'a' AND sk = 2 AND begins_with(s, ?) RETURNING ALL OLD *",
		"SELECT * FROM rng WHERE contains(s, ?) AND size(s) > 1 AND attribute_type(v, 'N')",
		"EXISTS(SELECT * FROM rng WHERE pk = 'a')",
		"FROM rng WHERE pk = 'a' AND sk = 1 AND (v = 10 OR v = 11) SET w = ? REMOVE s",
		"SELECT * FROM rng WHERE pk = 'a' AND attribute_exists(v) = true AND s IS STRING AND v IS NOT NULL",
		"DELETE FROM rng WHERE pk = 'b' AND sk = 9 AND v = ?",
		"SELECT * FROM \"rng\".\"nope\" WHERE pk = 'a'",
	} {
		f.Add(s, `[{"S":"a"}]`)
		f.Add(s, `[{"N":"1"},{"L":[]}]`)
	}
	e := newTestService(f, Config{})
	r := &readEnv{t: f, e: e}
	r.fillRange()
	f.Fuzz(func(t *testing.T, stmt, params string) {
		var ps []json.RawMessage
		extra := ""
		if json.Unmarshal([]byte(params), &ps) == nil && ps != nil {
			extra = `,"Parameters":` + params
		}
		res, body := doService(t, e, "DynamoDB_20120810.ExecuteStatement", testkit.DefaultAuth, stmtBody(stmt, extra))
		if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusBadRequest {
			t.Fatalf("%q %s: status %d: %s", stmt, params, res.StatusCode, body)
		}
	})
}

func TestExecuteStatementPartitionIn(t *testing.T) {
	r := newReadEnv(t)
	r.fillRange()
	// (A member given twice is refused: partiql/lower/overlap.go.)
	stmt := "SELECT * FROM rng WHERE pk IN ['b', 'zz', 'a'] AND sk >= 2"
	var got []string
	tok := ""
	for pages := 0; pages < 10; pages++ {
		extra := `,"Limit":2`
		if tok != "" {
			extra += `,"NextToken":"` + tok + `"`
		}
		out := r.ok("ExecuteStatement", stmtBody(stmt, extra))
		for _, it := range out["Items"].([]any) {
			m := it.(map[string]any)
			got = append(got, m["pk"].(map[string]any)["S"].(string)+m["sk"].(map[string]any)["N"].(string))
		}
		tok, _ = out["NextToken"].(string)
		if tok == "" {
			break
		}
	}
	// Partitions in the order the list gives them, seeking.
	if g, w := strings.Join(got, " "), "b2 b3 a2 a3 a4 a5"; g != w {
		t.Errorf("got %q, want %q", g, w)
	}
}

// Errors found by the expression compiler carry no "Invalid ...Expression: "
// prefix in PartiQL (DynamoDB Local 3.3.0).
func TestExecuteStatementExprErrors(t *testing.T) {
	r := newReadEnv(t)
	r.fillRange()
	tests := []struct{ stmt, msg string }{
		{"SELECT * FROM rng WHERE pk='a' AND sk BETWEEN 5 AND 1",
			"The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:5}, upper bound operand: AttributeValue: {N:1}"},
		{"SELECT * FROM rng WHERE pk='a' AND attribute_type(v, 'Q')",
			"Invalid attribute type name found; type: Q, valid types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}"},
		{"SELECT * FROM rng WHERE pk='a' AND begins_with(v, 1)",
			"Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"},
		{"UPDATE rng SET a.b = 1 WHERE pk='a' AND sk=1", "The document path provided in the update expression is invalid for update"},
		{"UPDATE rng SET x = 1 SET x = 2 WHERE pk='a' AND sk=1",
			"Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [x], path two: [x]"},
		{"UPDATE rng SET v = v + 'a' WHERE pk='a' AND sk=1", "Incorrect operand type for operator or function; operator or function: +, operand type: S"},
		{"SELECT * FROM rng WHERE pk='a' AND contains(v)", "Incorrect number of operands for operator or function; operator or function: contains, number of operands: 1"},
		{"SELECT * FROM rng WHERE pk='a' AND v", "The arguments to AND/OR must be Expressions"},
		{"SELECT * FROM rng WHERE pk='a' AND NOT v", "The argument to NOT must be a Type or Expression"},
	}
	for _, tt := range tests {
		r.wantError("ExecuteStatement", stmtBody(tt.stmt, ""), "ValidationException", tt.msg)
	}
}

func TestExecuteStatementProjectionChecks(t *testing.T) {
	r := newReadEnv(t)
	r.fillRange()
	// DynamoDB Local words this one "path one: [m,a,b], path two: [m,a]";
	// the emulator keeps expr's ProjectionExpression rendering.
	status, out := r.call("ExecuteStatement", stmtBody("SELECT m.a, \"m\".\"a\".b FROM rng WHERE pk = 'a'", ""))
	msg, _ := out["message"].(string)
	if status != http.StatusBadRequest || !strings.HasPrefix(msg, "Two document paths overlap with each other;") {
		t.Errorf("got %d %v, want the overlap error", status, out)
	}
}

// BenchmarkExecuteStatement runs a key lookup through the HTTP handler:
// the statement text is parsed once (cache), translated and compiled per
// request.
func BenchmarkExecuteStatement(b *testing.B) {
	r := newReadEnv(b)
	r.fillRange()
	body := stmtBody("SELECT * FROM rng WHERE pk = ? AND sk = 3", `,"Parameters":[{"S":"a"}]`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, out := doService(b, r.e, "DynamoDB_20120810.ExecuteStatement", testkit.DefaultAuth, body)
		if res.StatusCode != http.StatusOK {
			b.Fatal(out)
		}
	}
}
