package emulator

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/adminpath"
	"github.com/stretchr/testify/require"
)

// TestHealthEndpoint: GET /dynamoemu/health answers 200 {"status":"ok"}
// in memory and with a data directory that takes writes (the answer to
// a full disk or a stopped log: adminhttp's TestHealthOf; the problems persist
// reports then: its TestFullDisk and TestBrokenLog; their 500's
// message: apierr's TestClassifyStorageFailures).
func TestHealthEndpoint(t *testing.T) {
	for _, dir := range []string{"", t.TempDir()} {
		e, err := New(Options{DataDir: dir})
		require.NoError(t, err)
		rec := httptest.NewRecorder()
		e.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, adminpath.Health, nil))
		require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
		var ans struct {
			Status, DataDir string
			Problems        []any
		}
		require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &ans))
		require.Equal(t, "ok", ans.Status)
		require.Equal(t, dir, ans.DataDir)
		require.Empty(t, ans.Problems)
		require.NoError(t, e.Close())
	}
}
