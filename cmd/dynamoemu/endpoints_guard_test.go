package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
	"github.com/stretchr/testify/require"
)

// TestEndpointsGuardedCommand: the command's own handlers, which the
// emulator's table (emulator/routes.go, docs/server.md's "Endpoints and
// their guards") names but its tests stand in for, behind their guards
// with -credentials: LocalStack's probes (-localstack) answer unsigned,
// nothing of the data, and no page of another origin reads them, while a
// POST to their paths is the API, signed; the MCP endpoint takes its own
// bearer token alone, and no page of another origin; the console's page
// loads unsigned but not for another origin; the console's design
// matcher is an admin endpoint.
func TestEndpointsGuardedCommand(t *testing.T) {
	dir := t.TempDir()
	credFile := filepath.Join(dir, "credentials.json")
	require.NoError(t, os.WriteFile(credFile, []byte(credentialsJSON), 0o600))
	const mcpToken = "guard-test-token-0123456789"
	addr, _ := startServer(t, "-credentials", credFile, "-localstack", "-mcpToken", mcpToken, "-inMemory")
	base := "http://" + addr

	type how struct {
		name   string
		origin string
		auth   func(r *http.Request, body []byte)
	}
	signed := func(secret string) func(*http.Request, []byte) {
		return func(r *http.Request, body []byte) {
			sum := sha256.Sum256(body)
			require.NoError(t, v4.NewSigner().SignHTTP(context.Background(), aws.Credentials{AccessKeyID: "AKIAME", SecretAccessKey: secret},
				r, hex.EncodeToString(sum[:]), "dynamodb", "us-east-1", time.Now()))
		}
	}
	bearer := func(tok string) func(*http.Request, []byte) {
		return func(r *http.Request, _ []byte) { r.Header.Set("Authorization", "Bearer "+tok) }
	}
	do := func(method, path, body string, h how, header map[string]string) (int, string, http.Header) {
		t.Helper()
		req, err := http.NewRequest(method, base+path, bytes.NewReader([]byte(body)))
		require.NoError(t, err)
		for k, v := range header {
			req.Header.Set(k, v)
		}
		if h.origin != "" {
			req.Header.Set("Origin", h.origin)
		}
		if h.auth != nil {
			h.auth(req, []byte(body))
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res.StatusCode, string(b), res.Header
	}
	unsigned := how{name: "unsigned"}
	wrong := how{name: "wrongly signed", auth: signed("not-the-secret")}
	foreign := how{name: "a page of another origin", origin: "http://evil.example"}

	// LocalStack's probes: GETs of the Options.Edge row, no credentials.
	for _, path := range []string{"/_localstack/health", "/health", "/_localstack/init", "/_localstack/init/ready"} {
		for _, h := range []how{unsigned, wrong, foreign} {
			status, body, hdr := do(http.MethodGet, path, "", h, nil)
			require.Equal(t, http.StatusOK, status, "%s %s: %s", path, h.name, body)
			require.NotContains(t, body, "AKIAME", path)
			require.Empty(t, hdr.Get("Access-Control-Allow-Origin"), "%s: %s may read it", path, h.name)
		}
		api := map[string]string{"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810.ListTables"}
		status, body, _ := do(http.MethodPost, path, "{}", unsigned, api)
		require.Equal(t, http.StatusBadRequest, status, "POST %s unsigned: %s", path, body)
		require.Contains(t, body, "MissingAuthenticationTokenException")
		status, body, _ = do(http.MethodPost, path, "{}", wrong, api)
		require.Equal(t, http.StatusBadRequest, status, "POST %s wrongly signed: %s", path, body)
		require.Contains(t, body, "InvalidSignatureException")
		status, body, _ = do(http.MethodPost, path, "{}", how{auth: signed("my-secret")}, api)
		require.Equal(t, http.StatusOK, status, "POST %s signed: an API call, as on AWS: %s", path, body)
	}

	// The MCP endpoint: its own token, not a key's signature nor an admin token.
	mcpHeader := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	for _, h := range []how{unsigned, wrong, {name: "signed right", auth: signed("my-secret")}, {name: "an admin token", auth: bearer("admin-token-0123456789")}} {
		status, body, _ := do(http.MethodPost, adminpath.MCP, list, h, mcpHeader)
		require.Equal(t, http.StatusUnauthorized, status, "MCP %s: %s", h.name, body)
	}
	status, body, _ := do(http.MethodPost, adminpath.MCP, list, how{origin: "http://evil.example", auth: bearer(mcpToken)}, mcpHeader)
	require.Equal(t, http.StatusForbidden, status, "MCP from a page of another origin: %s", body)
	status, body, _ = do(http.MethodPost, adminpath.MCP, list, how{auth: bearer(mcpToken)}, mcpHeader)
	require.Equal(t, http.StatusOK, status, body)
	require.Contains(t, body, `"list_tables"`)

	// The console: its page without credentials, not for another origin.
	for _, h := range []how{unsigned, wrong} {
		status, body, _ := do(http.MethodGet, adminpath.Console, "", h, nil)
		require.Equal(t, http.StatusOK, status, "console %s: %.200s", h.name, body)
	}
	status, _, _ = do(http.MethodGet, adminpath.Console, "", foreign, nil)
	require.Equal(t, http.StatusForbidden, status, "the console's page for another origin")

	// The console's design matcher: an admin endpoint.
	match := `{"operation":"GetItem","request":{"TableName":"t","Key":{"pk":{"S":"a"}}}}`
	jsonHeader := map[string]string{"Content-Type": "application/json"}
	status, body, _ = do(http.MethodPost, adminpath.DesignMatch, match, unsigned, jsonHeader)
	require.Equal(t, http.StatusBadRequest, status, body)
	require.Contains(t, body, "MissingAuthenticationTokenException")
	status, body, _ = do(http.MethodPost, adminpath.DesignMatch, match, wrong, jsonHeader)
	require.Equal(t, http.StatusBadRequest, status, body)
	require.Contains(t, body, "InvalidSignatureException")
	status, body, _ = do(http.MethodPost, adminpath.DesignMatch, match, how{origin: "http://evil.example", auth: bearer("admin-token-0123456789")}, jsonHeader)
	require.Equal(t, http.StatusForbidden, status, body)
	status, body, _ = do(http.MethodPost, adminpath.DesignMatch, match, how{auth: bearer("admin-token-0123456789")}, jsonHeader)
	require.Equal(t, http.StatusOK, status, body)
}
