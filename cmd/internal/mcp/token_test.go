package mcp

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTokenFile: a token is made once, kept readable by its user alone,
// and read back; a token too short to be safe is refused.
func TestTokenFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dynamoemu", "mcp-token")
	tok, created, err := LoadOrCreateToken(path)
	require.NoError(t, err)
	require.True(t, created)
	require.NoError(t, CheckToken(tok))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	again, created, err := LoadOrCreateToken(path)
	require.NoError(t, err)
	require.False(t, created)
	require.Equal(t, tok, again)

	require.NoError(t, os.WriteFile(path, []byte("short\n"), 0o600))
	_, _, err = LoadOrCreateToken(path)
	require.ErrorContains(t, err, "shorter than 16 characters")

	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	p, err := TokenPath()
	require.NoError(t, err)
	require.Equal(t, filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "dynamoemu", "mcp-token"), p)

	for _, bad := range []string{"", "short", "has white space 0123"} {
		require.Error(t, CheckToken(bad), bad)
	}
}

// TestRequireTokenScheme: the Bearer scheme is matched in any case (RFC
// 9110: schemes are case-insensitive); a wrong token or another scheme
// gets 401.
func TestRequireTokenScheme(t *testing.T) {
	const token = "0123456789abcdef-token"
	h := RequireToken(token, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	for _, tc := range []struct {
		auth string
		want int
	}{
		{"Bearer " + token, http.StatusNoContent},
		{"bearer " + token, http.StatusNoContent},
		{"BEARER " + token, http.StatusNoContent},
		{"Bearer " + token + "x", http.StatusUnauthorized},
		{"Basic " + token, http.StatusUnauthorized},
		{"bearer", http.StatusUnauthorized},
		{"", http.StatusUnauthorized},
	} {
		req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		req.Header.Set("Authorization", tc.auth)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		require.Equal(t, tc.want, rec.Code, "%q", tc.auth)
	}
}
