package emulator

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/conventions"
)

// TestBoundaryNamespacedKeys: a key whose credential names a namespace
// (two keys sharing one account's tables) is still the key the
// conventions' callers map binds to a tenant. The namespace selects the
// tables; the key that signed is the caller: bound to tenant001, it may
// not read tenant002's item nor reconfigure the opted-in table, and the
// key bound to no tenant keeps both rights.
func TestBoundaryNamespacedKeys(t *testing.T) {
	const bound, free, secret = "AKIDNSBOUND00001", "AKIDNSFREE000001", "namespaced-secret"
	cfg := &conventions.Config{
		Tables:  []conventions.TableConfig{{Match: "*-command", Policy: conventions.Policy{Roles: conventions.RoleCommand, Disabled: []string{"A3", "B6"}}}},
		Callers: map[string]string{bound: "tenant001"},
	}
	e := newIAMEmulator(t, Options{Conventions: cfg, Credentials: []Credential{
		{AccessKeyID: bound, SecretAccessKey: secret, Namespace: "acct"},
		{AccessKeyID: free, SecretAccessKey: secret, Namespace: "acct"},
	}})
	api := func(key, op, body string) (int, string) {
		req := httptest.NewRequest(http.MethodPost, "http://localhost/", strings.NewReader(body))
		req.Host = "localhost"
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
		signFor(t, key, secret, "dynamodb", "us-east-1")(req, []byte(body))
		rec := httptest.NewRecorder()
		e.Handler().ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	code, body := api(free, "CreateTable", `{"TableName":"n-command","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}`)
	require.Equal(t, http.StatusOK, code, body)
	code, body = api(free, "PutItem", `{"TableName":"n-command","Item":{"pk":{"S":"ORDER#tenant002"},"sk":{"S":"1"}}}`)
	require.Equal(t, http.StatusOK, code, body)

	get := `{"TableName":"n-command","Key":{"pk":{"S":"ORDER#tenant002"},"sk":{"S":"1"}}}`
	update := `{"TableName":"n-command","StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"}}`
	for _, c := range []struct{ op, body string }{{"GetItem", get}, {"UpdateTable", update}} {
		code, body = api(bound, c.op, c.body)
		require.Equal(t, http.StatusBadRequest, code, "%s by the bound key: %s", c.op, body)
		require.Contains(t, body, "AccessDeniedException", c.op)
		require.Contains(t, body, "[conventions B10]", c.op)
	}
	code, body = api(free, "GetItem", get)
	require.Equal(t, http.StatusOK, code, body)
	require.Contains(t, body, "ORDER#tenant002")
	code, body = api(free, "UpdateTable", update)
	require.Equal(t, http.StatusOK, code, body)
}
