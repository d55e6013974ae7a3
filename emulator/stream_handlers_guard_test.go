package emulator_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// TestLambdaAPIRefusesWebPages: Lambda's event source mapping API makes
// the server call any HTTP endpoint and write any file (a mapping's
// Endpoint and on-failure destination), so a web page may not drive it:
// a request from a page of another origin is refused (403), and a POST
// or PUT without Content-Type application/json (a form's, or a
// no-cors fetch's text/plain) is refused (415); neither makes a
// mapping. The AWS CLI's and SDKs' requests (JSON, no Origin) and the
// server's own page pass.
func TestLambdaAPIRefusesWebPages(t *testing.T) {
	url, e, _ := emulatortest.NewServerWith(t, emulator.Options{})
	base := url + "/2015-03-31/event-source-mappings/"
	const body = `{"TableName":"orders","FunctionName":"fn","StartingPosition":"LATEST","Endpoint":"http://127.0.0.1:1"}`
	send := func(method, target, contentType, origin string) int {
		t.Helper()
		req, err := http.NewRequest(method, target, strings.NewReader(body))
		require.NoError(t, err)
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	tests := []struct {
		name, method, contentType, origin string
		want                              int
	}{
		{"a form's POST", http.MethodPost, "text/plain", "", http.StatusUnsupportedMediaType},
		{"a POST with no type", http.MethodPost, "", "", http.StatusUnsupportedMediaType},
		{"a page of another origin", http.MethodPost, "application/json", "http://evil.example", http.StatusForbidden},
		{"a no-cors fetch of another origin", http.MethodPost, "text/plain", "http://evil.example", http.StatusForbidden},
		{"a GET from a page of another origin", http.MethodGet, "", "http://evil.example", http.StatusForbidden},
		{"a PUT without JSON", http.MethodPut, "text/plain", "", http.StatusUnsupportedMediaType},
	}
	for _, tc := range tests {
		target := base
		if tc.method == http.MethodPut {
			target += "0a1b2c3d-0000-0000-0000-000000000000"
		}
		require.Equal(t, tc.want, send(tc.method, target, tc.contentType, tc.origin), tc.name)
	}
	require.Empty(t, e.Streams().Mappings(), "a refused request made a mapping")
	require.Equal(t, http.StatusAccepted, send(http.MethodPost, base, "application/json", ""), "the AWS CLI's request")
	require.Len(t, e.Streams().Mappings(), 1)
	require.Equal(t, http.StatusOK, send(http.MethodGet, base, "", ""), "a tool's GET")
}
