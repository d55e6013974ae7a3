package mcp

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// TestMatchHandler: the console's matcher answers what design_match
// answers, for a request on a table not yet created and on one that
// exists; without a design it says so; a bad body is a
// ValidationException; mounted in the emulator it sits behind the admin
// guard.
func TestMatchHandler(t *testing.T) {
	f := newFixture(t, "memory", Options{})
	h := MatchHandler(f.emu)
	post := func(body string) (int, string) {
		t.Helper()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, adminpath.DesignMatch, strings.NewReader(body)))
		return rec.Code, rec.Body.String()
	}
	code, body := post(`{"namespace":"local/us-east-1","operation":"GetItem","request":{"TableName":"Posts","Key":{"pk":{"S":"POST#1"},"sk":{"S":"post"}}}}`)
	require.Equal(t, http.StatusOK, code, body)
	require.JSONEq(t, `{"design":"","note":"no design is set: the server's -design flag, PUT /dynamoemu/report/design or the MCP design_set tool sets one"}`, body)

	design, _ := json.Marshal(postsDesign)
	f.ok("design_set", `{"design":`+string(design)+`}`)
	requests := []struct{ op, req string }{
		{"GetItem", `{"TableName":"Posts","Key":{"pk":{"S":"POST#1"},"sk":{"S":"post"}}}`},
		{"Query", `{"TableName":"Posts","IndexName":"byUser","KeyConditionExpression":"userId = :u","ExpressionAttributeValues":{":u":{"S":"ann"}}}`},
		{"Scan", `{"TableName":"Posts","FilterExpression":"#u = :u","ExpressionAttributeNames":{"#u":"userId"},"ExpressionAttributeValues":{":u":{"S":"ann"}}}`},
		{"BatchGetItem", `{"RequestItems":{"Posts":{"Keys":[{"pk":{"S":"POST#1"},"sk":{"S":"post"}},{"pk":{"S":"USER#1"},"sk":{"S":"x"}}]}}}`},
	}
	check := func(when string) {
		t.Helper()
		for _, r := range requests {
			want := f.ok("design_match", `{"operation":"`+r.op+`","request":`+r.req+`}`)
			code, got := post(`{"namespace":"local/us-east-1","operation":"` + r.op + `","request":` + r.req + `}`)
			require.Equal(t, http.StatusOK, code, got)
			require.JSONEq(t, want, got, "%s, %s: the console's answer differs from design_match's", when, r.op)
		}
	}
	check("before the table exists")
	f.ok("create_table", `{"TableName":"Posts","BillingMode":"PAY_PER_REQUEST","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},{"AttributeName":"userId","AttributeType":"S"}],
		"GlobalSecondaryIndexes":[{"IndexName":"byUser","KeySchema":[{"AttributeName":"userId","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`)
	check("with the table")
	// Another namespace has no table Posts, but the design declares it.
	code, body = post(`{"namespace":"other/eu-west-1","operation":"Scan","request":{"TableName":"Posts"}}`)
	require.Equal(t, http.StatusOK, code, body)
	require.Contains(t, body, "does not exist yet")

	for _, c := range []struct{ body, want string }{
		{`{"operation":"Scan","request":{"TableName":"Posts"},"namespaces":"x"}`, `unknown field \"namespaces\"`},
		{`{"namespace":"nope","operation":"Scan","request":{"TableName":"Posts"}}`, `namespace \"nope\" is not AKID/region`},
		{`{"operation":"Scan","request":{}}`, "the request names no TableName"},
		{`{"operation":"Scann","request":{"TableName":"Posts"}}`, `operation \"Scann\"`},
		{`{"operation":"Scan","request":{"TableName":"Nope"}}`, "ResourceNotFoundException"},
		{`[`, "the body is"},
	} {
		code, body := post(c.body)
		require.Equal(t, http.StatusBadRequest, code, "%s: %s", c.body, body)
		require.Contains(t, body, c.want, c.body)
		require.Contains(t, body, `"__type"`, c.body)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, adminpath.DesignMatch, nil))
	require.Equal(t, http.StatusMethodNotAllowed, rec.Code)

	// Mounted: the admin guard refuses a page of another origin.
	m := &Mount{}
	emu, err := emulator.New(emulator.Options{DesignMatch: m})
	require.NoError(t, err)
	t.Cleanup(func() { _ = emu.Close() })
	m.Set(MatchHandler(emu))
	srv := httptest.NewServer(emu.Handler())
	t.Cleanup(srv.Close)
	send := func(origin string) int {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+adminpath.DesignMatch, strings.NewReader(`{"operation":"Scan","request":{"TableName":"Posts"}}`))
		req.Header.Set("Content-Type", "application/json")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		return res.StatusCode
	}
	require.Equal(t, http.StatusOK, send(""), "a script on the machine")
	require.Equal(t, http.StatusForbidden, send("https://evil.example"), "a page of another origin")
}

// FuzzMatchHandler: any body gets a JSON answer, 200 or 400, never a
// panic or a 500.
func FuzzMatchHandler(f *testing.F) {
	f.Add(`{"namespace":"local/us-east-1","operation":"Query","request":{"TableName":"Posts","IndexName":"byUser","KeyConditionExpression":"userId = :u","ExpressionAttributeValues":{":u":{"S":"ann"}}}}`)
	f.Add(`{"operation":"BatchWriteItem","request":{"RequestItems":{"Posts":[{"PutRequest":{"Item":{"pk":{"S":"POST#1"},"sk":{"S":"post"}}}}]}}}`)
	f.Add(`{"operation":"TransactWriteItems","request":{"TransactItems":[{"Put":{"TableName":"Posts","Item":{"pk":{"N":"1"}}}}]}}`)
	f.Add(`{"namespace":"a/b","operation":"GetItem","request":null}`)
	emu, err := emulator.New(emulator.Options{})
	require.NoError(f, err)
	f.Cleanup(func() { _ = emu.Close() })
	require.NoError(f, emu.Reports().SetDesign([]byte(postsDesign)))
	h := MatchHandler(emu)
	f.Fuzz(func(t *testing.T, body string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, adminpath.DesignMatch, strings.NewReader(body)))
		if rec.Code != http.StatusOK && rec.Code != http.StatusBadRequest {
			t.Fatalf("%q: status %d: %s", body, rec.Code, rec.Body)
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%q: the answer is not JSON: %s", body, rec.Body)
		}
	})
}
