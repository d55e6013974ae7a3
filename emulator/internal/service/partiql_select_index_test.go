package service

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// newIndexSelectEnv is a table ixt (pk S, sk N) with a GSI gxi (g S, gs N,
// KEYS_ONLY) and an LSI lxi (ls S, INCLUDE [a]), and ten items.
func newIndexSelectEnv(t testing.TB) *readEnv {
	t.Helper()
	r := newReadEnv(t)
	r.ok("CreateTable", `{"TableName":"ixt","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},
			{"AttributeName":"g","AttributeType":"S"},{"AttributeName":"gs","AttributeType":"N"},{"AttributeName":"ls","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"GlobalSecondaryIndexes":[{"IndexName":"gxi","KeySchema":[{"AttributeName":"g","KeyType":"HASH"},{"AttributeName":"gs","KeyType":"RANGE"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}],
		"LocalSecondaryIndexes":[{"IndexName":"lxi","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"ls","KeyType":"RANGE"}],"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["a"]}}]}`)
	var items []string
	for i := 1; i <= 10; i++ {
		items = append(items, fmt.Sprintf(`{"pk":{"S":"p%d"},"sk":{"N":"%d"},"g":{"S":"x%d"},"gs":{"N":"%d"},"ls":{"S":"l%d"},"a":{"N":"%d"},"b":{"S":"b"}}`,
			i%2, i, i%3, 20-i, i, i*10))
	}
	r.putItems("ixt", items)
	return r
}

func TestSelectIndexCapacityAndToken(t *testing.T) {
	r := newIndexSelectEnv(t)
	_, out := r.call("ExecuteStatement", stmtBody(`SELECT * FROM "ixt"."gxi" WHERE g = 'x1'`, `,"Limit":2,"ReturnConsumedCapacity":"INDEXES"`))
	cc, _ := out["ConsumedCapacity"].(map[string]any)
	if _, ok := cc["GlobalSecondaryIndexes"].(map[string]any)["gxi"]; !ok {
		t.Errorf("ConsumedCapacity %v: want the index's units under GlobalSecondaryIndexes", cc)
	}
	tok, _ := out["NextToken"].(string)
	raw, err := base64.StdEncoding.DecodeString(tok)
	if err != nil {
		t.Fatalf("NextToken %q: %v", tok, err)
	}
	// The last item read (gs ascending in partition x1: sk 10, 7) with
	// the index's and the table's keys, before the token's tail (the
	// statement's fingerprint and a check).
	if got, want := string(raw), `{"g":{"S":"x1"},"gs":{"N":"13"},"pk":{"S":"p1"},"sk":{"N":"7"}}`; !strings.HasPrefix(got, want) || len(got) != len(want)+24 {
		t.Errorf("NextToken holds %q, want %s and 24 bytes", got, want)
	}
	for _, bad := range []string{"!", base64.StdEncoding.EncodeToString([]byte(`{"pk":{"S":"p1"},"sk":{"N":"7"}}`))} {
		r.wantError("ExecuteStatement", stmtBody(`SELECT * FROM "ixt"."gxi" WHERE g = 'x1'`, `,"NextToken":"`+bad+`"`),
			"ValidationException", apierr.MsgPartiQLInvalidNextToken)
	}
	// The token of this index, on the table or on another index.
	for _, other := range []string{`SELECT * FROM "ixt" WHERE g = 'x1'`, `SELECT * FROM "ixt"."lxi" WHERE g = 'x1'`} {
		r.wantError("ExecuteStatement", stmtBody(other, `,"NextToken":"`+tok+`"`),
			"ValidationException", apierr.MsgNextTokenMismatch)
	}
}

// FuzzSelectIndex sends arbitrary SELECTs of an index and NextTokens:
// every answer is a 200 or a 400.
func FuzzSelectIndex(f *testing.F) {
	for _, s := range []string{
		`SELECT * FROM "ixt"."gxi" WHERE g = 'x1' AND gs > 12`,
		`SELECT pk, a FROM "ixt"."lxi" WHERE pk = 'p0' ORDER BY ls DESC`,
		`SELECT * FROM "ixt"."gxi" WHERE g IN ['x0', 'x2'] AND a > 3`,
		`SELECT * FROM "ixt"."lxi" WHERE ls BETWEEN 'l1' AND 'l5'`,
	} {
		f.Add(s, "")
		f.Add(s, base64.StdEncoding.EncodeToString([]byte(`{"g":{"S":"x1"},"gs":{"N":"13"},"pk":{"S":"p1"},"sk":{"N":"7"}}`)))
	}
	r := newIndexSelectEnv(f)
	e := r.e
	f.Fuzz(func(t *testing.T, stmt, token string) {
		extra := `,"Limit":3`
		if token != "" {
			extra += fmt.Sprintf(`,"NextToken":%q`, token)
		}
		res, body := doService(t, e, "DynamoDB_20120810.ExecuteStatement", testkit.DefaultAuth, stmtBody(stmt, extra))
		if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusBadRequest {
			t.Fatalf("%q %q: status %d: %s", stmt, token, res.StatusCode, body)
		}
	})
}
