package emulator_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
	"github.com/stretchr/testify/require"
)

// consoleStub stands for package console's handler (which package
// emulator does not import): it answers GET and HEAD with the path it got.
var consoleStub = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	_, _ = w.Write([]byte("console " + r.URL.Path))
})

// TestConsoleMount: Options.Console is served at adminpath.Console (and the path
// without its slash) behind the Host check and the admin guard: its own
// origin passes, a foreign one is refused; other paths stay the
// emulator's; without Options.Console nothing is there.
func TestConsoleMount(t *testing.T) {
	base, _, _ := emulatortest.NewServerWith(t, emulator.Options{Console: consoleStub, AllowHosts: []string{"dynamodb.test"}})
	port := base[strings.LastIndexByte(base, ':'):]
	tests := []struct {
		name, method, path, host, origin string
		status                           int
		want                             string
	}{
		{"page", "GET", "/dynamoemu/console/", "", "", 200, "console /dynamoemu/console/"},
		{"file", "GET", "/dynamoemu/console/js/app.js", "", "", 200, "console /dynamoemu/console/js/app.js"},
		{"no slash", "GET", "/dynamoemu/console", "", "", 200, "console /dynamoemu/console"},
		{"module load from the page", "GET", "/dynamoemu/console/js/app.js", "", base, 200, "console /dynamoemu/console/js/app.js"},
		{"page by an allowed name", "GET", "/dynamoemu/console/", "dynamodb.test" + port, "http://dynamodb.test" + port, 200, "console /dynamoemu/console/"},
		{"not the console", "GET", "/dynamoemu/consolex", "", "", 404, "<UnknownOperationException/>"},
		{"rebinding Host", "GET", "/dynamoemu/console/", "evil.example" + port, "", 403, "-allowHost"},
		{"rebinding Host, same origin", "GET", "/dynamoemu/console/", "evil.example" + port, "http://evil.example" + port, 403, "-allowHost"},
		{"foreign origin", "GET", "/dynamoemu/console/js/app.js", "", "http://evil.example", 403, "AccessDeniedException"},
		{"form POST", "POST", "/dynamoemu/console/", "", "", 415, "Content-Type"},
		{"JSON POST", "POST", "/dynamoemu/console/", "", base, 405, ""},
	}
	for _, tc := range tests {
		h := map[string]string{}
		if tc.origin != "" {
			h["Origin"] = tc.origin
		}
		if tc.name == "JSON POST" {
			h["Content-Type"] = "application/json"
		}
		status, body := send(t, base, rawRequest{method: tc.method, path: tc.path, host: tc.host, header: h})
		if status != tc.status || !strings.Contains(body, tc.want) {
			t.Errorf("%s: %s %s: got %d %q, want %d with %q", tc.name, tc.method, tc.path, status, body, tc.status, tc.want)
		}
	}

	plain, _, _ := emulatortest.NewServerWith(t, emulator.Options{})
	if status, body := send(t, plain, rawRequest{method: "GET", path: adminpath.Console}); status != 404 || body != "<UnknownOperationException/>\n" {
		t.Errorf("no console: got %d %s, want 404 <UnknownOperationException/>", status, body)
	}
}

// TestAdminOrigins: the admin endpoints answer a page of the server's own
// origin (the console's) and of loopback origins without flags, and refuse
// other origins, a same-origin page under a Host the server does not
// answer (DNS rebinding), and the same name on another port or scheme.
func TestAdminOrigins(t *testing.T) {
	base, _, _ := emulatortest.NewServerWith(t, emulator.Options{Clock: fixedClock, AllowHosts: []string{"dynamodb.test"}})
	port := base[strings.LastIndexByte(base, ':'):]
	tests := []struct {
		name, host, origin string
		status             int
	}{
		{"own origin by IP", "", base, 200},
		{"own origin by name", "dynamodb.test" + port, "http://dynamodb.test" + port, 200},
		{"own origin, Host in upper case", "DynamoDB.test" + port, "http://dynamodb.test" + port, 200},
		{"loopback app", "", "http://localhost:3000", 200},
		{"loopback app by IP", "", "http://127.0.0.1:5173", 200},
		{"loopback app by IPv6", "", "http://[::1]:4200", 200},
		{"other port", "dynamodb.test" + port, "http://dynamodb.test:1", 403},
		{"other scheme", "dynamodb.test" + port, "https://dynamodb.test" + port, 403},
		{"foreign", "dynamodb.test" + port, "http://evil.example", 403},
		{"foreign on the loopback Host", "", "http://evil.example", 403},
		{"opaque origin", "", "null", 403},
		{"rebinding", "evil.example" + port, "http://evil.example" + port, 403},
	}
	for _, tc := range tests {
		for _, r := range []rawRequest{
			{method: "GET", path: adminpath.Clock},
			{method: "POST", path: adminpath.Clock, body: `{"advance":"0s"}`},
			{method: "DELETE", path: adminpath.Conventions},
		} {
			r.host = tc.host
			r.header = map[string]string{"Origin": tc.origin}
			if r.method != "GET" {
				r.header["Content-Type"] = "application/json"
			}
			status, body := send(t, base, r)
			if status != tc.status {
				t.Errorf("%s: %s %s, Host %q, Origin %q: got %d %s, want %d", tc.name, r.method, r.path, tc.host, tc.origin, status, body, tc.status)
			}
		}
	}
}

// TestVersionHeader: every answer of the edge carries Dynamoemu-Version:
// the API's, its errors, a preflight, the admin endpoints', a refusal and
// the console's.
func TestVersionHeader(t *testing.T) {
	base, _, _ := emulatortest.NewServerWith(t, emulator.Options{Console: consoleStub})
	want := emulator.Version()
	if want == "" {
		t.Fatal("Version() is empty")
	}
	for _, r := range []rawRequest{
		{method: "POST", path: "/", body: `{}`, header: map[string]string{"X-Amz-Target": "DynamoDB_20120810.ListTables", "Authorization": sigV4}},
		{method: "POST", path: "/", body: `{}`, header: map[string]string{"X-Amz-Target": "DynamoDB_20120810.Nope", "Authorization": sigV4}},
		{method: "GET", path: "/"},
		{method: "OPTIONS", path: "/", header: map[string]string{"Origin": "http://localhost:3000", "Access-Control-Request-Method": "POST"}},
		{method: "GET", path: adminpath.Clock},
		{method: "GET", path: adminpath.Clock, header: map[string]string{"Origin": "http://evil.example"}},
		{method: "GET", path: "/", host: "evil.example"},
		{method: "GET", path: adminpath.Console},
	} {
		req, _ := http.NewRequest(r.method, base+r.path, strings.NewReader(r.body))
		if r.host != "" {
			req.Host = r.host
		}
		for k, v := range r.header {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if got := res.Header.Get("Dynamoemu-Version"); got != want {
			t.Errorf("%s %s (Host %q): got Dynamoemu-Version %q (status %d), want %q", r.method, r.path, r.host, got, res.StatusCode, want)
		}
	}
}

// TestMCPMount: Options.MCP is served at adminpath.MCP behind the Host check
// and the admin guard: a JSON POST reaches it, a form POST, a foreign
// origin and a rebinding Host do not.
func TestMCPMount(t *testing.T) {
	mcpStub := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("mcp " + r.Method))
	})
	base, _, _ := emulatortest.NewServerWith(t, emulator.Options{MCP: mcpStub})
	port := base[strings.LastIndexByte(base, ':'):]
	json := map[string]string{"Content-Type": "application/json"}
	tests := []struct {
		name, method, path, host string
		header                   map[string]string
		status                   int
		want                     string
	}{
		{"JSON POST", "POST", adminpath.MCP, "", json, 200, "mcp POST"},
		{"GET", "GET", adminpath.MCP, "", nil, 200, "mcp GET"},
		{"below the path", "POST", adminpath.MCP + "/x", "", json, 404, "UnknownOperationException"},
		{"form POST", "POST", adminpath.MCP, "", nil, 415, "Content-Type"},
		{"foreign origin", "POST", adminpath.MCP, "", map[string]string{"Content-Type": "application/json", "Origin": "http://evil.example"}, 403, "AccessDeniedException"},
		{"rebinding Host", "POST", adminpath.MCP, "evil.example" + port, json, 403, "-allowHost"},
	}
	for _, tc := range tests {
		status, body := send(t, base, rawRequest{method: tc.method, path: tc.path, host: tc.host, header: tc.header})
		require.Equal(t, tc.status, status, "%s: %s", tc.name, body)
		require.Contains(t, body, tc.want, tc.name)
	}
	plain, _, _ := emulatortest.NewServerWith(t, emulator.Options{})
	status, body := send(t, plain, rawRequest{method: "POST", path: adminpath.MCP, header: json})
	require.Equal(t, 404, status, "no MCP server: %s", body)
}
