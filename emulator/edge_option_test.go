package emulator_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// TestEdgeOption: Options.Edge answers the GETs it takes, behind the Host
// check; the others, the API and the emulator's own paths keep their
// answers.
func TestEdgeOption(t *testing.T) {
	emu, err := emulator.New(emulator.Options{Edge: func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path != "/probe" {
			return false
		}
		w.WriteHeader(http.StatusTeapot)
		return true
	}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = emu.Close() })
	srv := httptest.NewServer(emu.Handler())
	t.Cleanup(srv.Close)

	get := func(path, host string) int {
		req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		require.NoError(t, err)
		if host != "" {
			req.Host = host
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	require.Equal(t, http.StatusTeapot, get("/probe", ""))
	require.Equal(t, http.StatusOK, get("/", ""), "AWS's healthy answer")
	require.Equal(t, http.StatusNotFound, get("/other", ""))
	require.Equal(t, http.StatusForbidden, get("/probe", "rebound.example.com"), "behind the Host check")

	req, err := http.NewRequest(http.MethodPost, srv.URL+"/probe", strings.NewReader(`{}`))
	require.NoError(t, err)
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("Authorization", sigV4)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, "a POST is an API call")
}
