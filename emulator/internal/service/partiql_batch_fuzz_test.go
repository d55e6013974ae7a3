package service

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
)

// FuzzBatchExecuteStatement sends two arbitrary statements, the first with
// arbitrary parameters, as a BatchExecuteStatement to a table with items:
// every answer is a 200 or a 400, never a 500; a 200 answers each
// statement (an Item, an Error or neither), and a batch that writes
// nothing (refused, or of SELECTs) changes nothing.
func FuzzBatchExecuteStatement(f *testing.F) {
	for _, p := range [][3]string{
		{"SELECT * FROM rng WHERE pk = ? AND sk = 1", `[{"S":"a"}]`, "SELECT nope FROM rng WHERE pk = 'b' AND sk = 2"},
		{"SELECT v, m.l[1] FROM rng WHERE pk = 'a' AND sk = ?", `[{"N":"1"}]`, "SELECT * FROM rng WHERE pk = 'a'"},
		{"UPDATE rng SET v = v + ? WHERE pk = 'a' AND sk = 1 AND (v = 10 OR v = 11)", `[{"N":"1"}]`, "FROM rng WHERE pk = 'b' AND sk = 1 SET w = 1"},
		{"INSERT INTO rng VALUE {'pk': ?, 'sk': 9}", `[{"S":"n"}]`, "DELETE FROM rng WHERE pk = 'a' AND sk = 2 AND v IS NUMERIC"},
		{"SELECT * FROM \"rng\".\"nope\" WHERE pk = 'a' AND sk = 1", `[]`, "EXISTS(SELECT * FROM rng WHERE pk = 'a' AND sk = 1 AND v = 1)"},
		{"DELETE FROM rng WHERE pk = ? AND sk = 1", `[{"N":"1"}]`, "DELETE FROM rng WHERE pk = 'a' AND sk = 1"},
	} {
		f.Add(p[0], p[1], p[2])
	}
	e := newTestService(f, Config{})
	r := &readEnv{t: f, e: e}
	r.fillRange()
	f.Fuzz(func(t *testing.T, s1, params, s2 string) {
		first := map[string]any{"Statement": s1}
		var ps []json.RawMessage
		if json.Unmarshal([]byte(params), &ps) == nil && ps != nil {
			first["Parameters"] = ps
		}
		body, err := json.Marshal(map[string]any{"Statements": []any{first, map[string]any{"Statement": s2}}})
		if err != nil {
			t.Skip() // parameters that do not re-encode
		}
		scan := func() string {
			_, out := doService(t, e, "DynamoDB_20120810.Scan", testkit.DefaultAuth, `{"TableName":"rng"}`)
			return out
		}
		before := scan()
		res, out := doService(t, e, "DynamoDB_20120810.BatchExecuteStatement", testkit.DefaultAuth, string(body))
		switch res.StatusCode {
		case http.StatusOK:
			var got struct{ Responses []map[string]json.RawMessage }
			if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Responses) != 2 {
				t.Fatalf("%q %s %q: answer %s, want two responses", s1, params, s2, out)
			}
			writes := false
			for _, s := range []string{s1, s2} {
				st, err := partiql.Parse(s)
				switch st.(type) {
				case *partiql.Insert, *partiql.Update, *partiql.Delete:
					writes = writes || err == nil
				}
			}
			if !writes {
				if after := scan(); after != before {
					t.Fatalf("%q %q: a batch of reads changed the table", s1, s2)
				}
			}
		case http.StatusBadRequest:
			if after := scan(); after != before {
				t.Fatalf("%q %s %q: refused (%s) but changed the table", s1, params, s2, out)
			}
		default:
			t.Fatalf("%q %s %q: status %d: %s", s1, params, s2, res.StatusCode, out)
		}
	})
}
