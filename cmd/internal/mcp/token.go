package mcp

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// The HTTP endpoint's bearer token. On a loopback listener the server
// generates one the first time and keeps it in the user's configuration
// directory (TokenPath), so that an agent's configuration stays valid
// across restarts; off loopback the token must be given (-mcpToken or
// DYNAMOEMU_MCP_TOKEN): a file on the server's machine is no help to a
// client elsewhere.

// MinTokenLength is the shortest token the server takes.
const MinTokenLength = 16

// TokenPath is where the generated token is kept: dynamoemu/mcp-token in
// os.UserConfigDir (~/.config on Linux, ~/Library/Application Support
// on macOS, %AppData% on Windows; $XDG_CONFIG_HOME when set).
func TokenPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no user configuration directory for the MCP token (%v): give one with -mcpToken", err)
	}
	return filepath.Join(dir, "dynamoemu", "mcp-token"), nil
}

// LoadOrCreateToken returns the token kept at path, or makes one (32
// random bytes, base64url), keeps it there readable by the user alone,
// and reports that it made it.
func LoadOrCreateToken(path string) (token string, created bool, err error) {
	b, err := os.ReadFile(path)
	if err == nil {
		token = strings.TrimSpace(string(b))
		if len(token) < MinTokenLength {
			return "", false, fmt.Errorf("the MCP token in %s is shorter than %d characters: delete the file to make a new one", path, MinTokenLength)
		}
		return token, false, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", false, err
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", false, err
	}
	token = base64.RawURLEncoding.EncodeToString(raw)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", false, err
	}
	// O_EXCL: two servers starting at once keep the first's token.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return LoadOrCreateToken(path)
	}
	if err != nil {
		return "", false, err
	}
	if _, err := f.WriteString(token + "\n"); err != nil {
		f.Close()
		return "", false, err
	}
	return token, true, f.Close()
}

// CheckToken says what is wrong with a token given to the server.
func CheckToken(token string) error {
	if len(token) < MinTokenLength {
		return fmt.Errorf("the MCP token is %d characters: at least %d", len(token), MinTokenLength)
	}
	if strings.ContainsAny(token, " \t\r\n") {
		return errors.New("the MCP token has white space")
	}
	return nil
}

// RequireToken serves h only to requests whose Authorization is
// "Bearer <token>" (the scheme in any case), compared in constant time; others get 401 with
// WWW-Authenticate: Bearer.
func RequireToken(token string, h http.Handler) http.Handler {
	want := []byte(token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := cutBearer(r.Header.Get("Authorization"))
		if !ok || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="dynamoemu"`)
			http.Error(w, "dynamoemu MCP: a bearer token is required (Authorization: Bearer <token>; see docs/mcp.md)", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// cutBearer returns the token of an Authorization value of the Bearer
// scheme, whose name is case-insensitive (RFC 9110 section 11.1).
func cutBearer(h string) (string, bool) {
	const scheme = "bearer "
	if len(h) < len(scheme) || !strings.EqualFold(h[:len(scheme)], scheme) {
		return "", false
	}
	return h[len(scheme):], true
}
