package emulator

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/gorilla/mux"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/lambdaesm"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// The table of endpoints (routes.go) against what the server serves:
// the router walked, the edge's rows probed, and every row's request
// sent unsigned, wrongly signed, signed right and from a web page of
// another origin.

// routeMCPToken is the bearer token of routeOptions' MCP stand-in.
const routeMCPToken = "mcp-token-0123456789abcdef"

// routeOptions are options that set every handler a row may serve
// (stand-ins for the console, the MCP server and the design matcher,
// and an Edge answering one LocalStack probe), with creds the test keys
// of sigOptions.
func routeOptions(creds bool) Options {
	o := Options{}
	if creds {
		o = sigOptions()
	}
	o.Console = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		_, _ = io.WriteString(w, "console")
	})
	// The MCP server checks its own bearer token (cmd/internal/mcp's
	// RequireToken, tested there and in cmd/dynamoemu with the real one).
	o.MCP = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+routeMCPToken {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		_, _ = io.WriteString(w, "{}")
	})
	o.DesignMatch = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, `{"design":""}`) })
	o.Edge = func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path != "/_localstack/health" {
			return false
		}
		_, _ = io.WriteString(w, `{"services":{"dynamodb":"running"}}`)
		return true
	}
	return o
}

// rowName names a row in a failure.
func rowName(row *endpoint) string { return row.methods + " " + row.path }

// TestRouterWalk: every route of the router is a row of the table, with
// its path and methods, and every row of the router's is a route; every
// request the edge is given, of any method to any path, is a row of the
// edge's (its last takes anything), and each of those rows is reached.
func TestRouterWalk(t *testing.T) {
	e := newTestEmulator(t, routeOptions(true))
	t.Cleanup(func() { e.Close() })
	own := ownEndpoints()
	seen := make([]bool, len(own))
	err := e.router().Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		path, err := route.GetPathTemplate()
		require.NoError(t, err, "a route without a path")
		methods := "*"
		if ms, err := route.GetMethods(); err == nil {
			methods = strings.Join(ms, " ")
		}
		i := slices.IndexFunc(own, func(row endpoint) bool { return row.path == path && row.methods == methods })
		require.GreaterOrEqual(t, i, 0, "the route %s %s is no row of the table (routes.go)", methods, path)
		require.False(t, seen[i], "two routes of the row %s", rowName(&own[i]))
		seen[i] = true
		return nil
	})
	require.NoError(t, err)
	for i, row := range own[:len(own)-1] {
		require.True(t, seen[i], "the row %s is no route", rowName(&row))
	}

	edge := edgeEndpoints()
	reached := make([]bool, len(edge))
	for _, method := range []string{"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"} {
		for _, path := range []string{"/", "/a/b", "/_localstack/health", lambdaesm.APIPrefix + "/", lambdaesm.APIPrefix + "/u-1",
			"/dynamoemu", adminpath.Clock, adminpath.Console} {
			r, err := http.NewRequest(method, "http://localhost"+path, nil)
			require.NoError(t, err)
			i := slices.IndexFunc(edge, func(row endpoint) bool { return row.match(r) })
			require.GreaterOrEqual(t, i, 0, "%s %s is no row of the edge's", method, path)
			reached[i] = true
		}
	}
	for i, row := range edge {
		require.True(t, reached[i], "the edge's row %s is reached by no request", rowName(&row))
		require.NotEmpty(t, row.guard, rowName(&row))
		if row.guard == guardNone || row.guard == guardOrigin {
			require.NotEmpty(t, row.why, "%s: no credentials, and no reason", rowName(&row))
		}
	}
	for _, row := range own {
		require.NotEmpty(t, row.serves, rowName(&row))
		if row.guard == guardNone || row.guard == guardOrigin {
			require.NotEmpty(t, row.why, "%s: no credentials, and no reason", rowName(&row))
		}
	}
}

// routeSample is the request the guard test sends for a row: a method
// and path the row takes.
func routeSample(row *endpoint) (method, path string) {
	method = strings.Fields(row.methods)[0]
	path = regexp.MustCompile(`\{[^}]*\}`).ReplaceAllString(row.path, "x")
	switch {
	case row.path == consoleRoute:
		path = adminpath.Console + "app.js"
	case row.path == ownPrefix+"...":
		path = ownPrefix + "nothing"
	case row.path == "any other path":
		path = "/a/b"
	case row.match != nil && row.guard == guardLambda:
		path = lambdaesm.APIPrefix + "/"
	case row.prefix:
		path = adminpath.Clock
	}
	if method == "*" {
		switch row.guard {
		case guardLambda, guardNone:
			method = http.MethodGet
			if row.match != nil && !row.match(httptestRequest(method, path)) {
				method = http.MethodPut
			}
		default:
			method = http.MethodPost
		}
	}
	return method, path
}

// httptestRequest is a request of method to path, for a row's match.
func httptestRequest(method, path string) *http.Request {
	r, _ := http.NewRequest(method, "http://localhost"+path, nil)
	return r
}

// routeAnswer is what the guard test reads of an answer.
type routeAnswer struct {
	status int
	typ    string // X-Amzn-ErrorType, or __type after '#'
	acao   string // Access-Control-Allow-Origin
	body   string
}

// authRefusals are the types of a refusal for want of credentials.
var authRefusals = []string{"MissingAuthenticationTokenException", "InvalidSignatureException", "UnrecognizedClientException",
	"IncompleteSignatureException", "AccessDeniedException"}

// TestEndpointsGuarded: with Options.Credentials every row of the table
// refuses a request unsigned and one signed with a wrong secret as its
// guard says (the DynamoDB and admin endpoints with DynamoDB's 400s, the
// mapping API with Lambda's 403s, the MCP endpoint with 401), passes one
// signed right, and no row serves a web page of another origin: the
// origin-checked rows refuse it with 403, the API's preflight is not
// approved, and no answer carries Access-Control-Allow-Origin for it.
// The rows without credentials answer all three alike. Nothing a
// refused request asked for is done. Without Credentials, the
// origin-checked rows refuse a foreign page alike.
func TestEndpointsGuarded(t *testing.T) {
	const evil = "http://evil.example"
	for _, creds := range []bool{true, false} {
		t.Run(fmt.Sprintf("credentials=%v", creds), func(t *testing.T) {
			e := newTestEmulator(t, routeOptions(creds))
			t.Cleanup(func() { e.Close() })
			_, addr := startServer(t, e, ServerOptions{})
			base := "http://" + addr
			rows := append(edgeEndpoints()[1:], ownEndpoints()...) // the first edge row hands the own paths to the router's

			send := func(row *endpoint, how, origin string) routeAnswer {
				t.Helper()
				method, path := routeSample(row)
				body := []byte(nil)
				if method == http.MethodPost || method == http.MethodPut {
					body = []byte("{}")
				}
				req, err := http.NewRequest(method, base+path, bytes.NewReader(body))
				require.NoError(t, err)
				if body == nil {
					req.Body, req.ContentLength = http.NoBody, 0
				}
				if row.guard == guardAPI {
					req.Header.Set("Content-Type", "application/x-amz-json-1.0")
					req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
				} else if method != http.MethodGet && method != http.MethodHead && method != http.MethodOptions {
					req.Header.Set("Content-Type", "application/json") // as the tools send it, body or not (httpedge.AdminGuard)
				}
				if origin != "" {
					req.Header.Set("Origin", origin)
				}
				service := "dynamodb"
				if row.guard == guardLambda {
					service = "lambda"
				}
				sign := func(secret string) {
					sum := sha256.Sum256(body)
					require.NoError(t, v4.NewSigner().SignHTTP(context.Background(), aws.Credentials{AccessKeyID: sigKey, SecretAccessKey: secret},
						req, hex.EncodeToString(sum[:]), service, sigRegion, time.Now()))
				}
				switch {
				case how == "unsigned":
				case row.guard == guardMCP && how == "right":
					req.Header.Set("Authorization", "Bearer "+routeMCPToken)
				case how == "right":
					sign(sigSecret)
				case how == "wrong":
					sign("not-the-secret")
				}
				res, err := http.DefaultClient.Do(req)
				require.NoError(t, err)
				defer res.Body.Close()
				b, err := io.ReadAll(res.Body)
				require.NoError(t, err)
				a := routeAnswer{status: res.StatusCode, typ: res.Header.Get("X-Amzn-ErrorType"), acao: res.Header.Get("Access-Control-Allow-Origin"), body: string(b)}
				var v struct {
					Type string `json:"__type"`
				}
				if a.typ == "" && json.Unmarshal(b, &v) == nil && v.Type != "" {
					a.typ = v.Type[strings.LastIndexByte(v.Type, '#')+1:]
				}
				return a
			}
			state := func() string {
				t.Helper()
				var b strings.Builder
				for _, p := range []string{adminpath.Snapshots, adminpath.Branches, adminpath.Faults, adminpath.StreamsMappings, adminpath.Report, adminpath.Lag} {
					req, err := http.NewRequest(http.MethodGet, base+p, nil)
					require.NoError(t, err)
					req.Header.Set("Authorization", "Bearer token-0123456789abcdef")
					res, err := http.DefaultClient.Do(req)
					require.NoError(t, err)
					out, _ := io.ReadAll(res.Body)
					res.Body.Close()
					b.WriteString(p + ": " + string(out) + "\n")
				}
				b.WriteString(fmt.Sprint(e.Streams().Mappings(), time.Until(e.Clock().Now()).Round(time.Hour)))
				return b.String()
			}
			before := state()

			for i := range rows {
				row := &rows[i]
				name := rowName(row)
				if creds {
					unsigned, wrong := send(row, "unsigned", ""), send(row, "wrong", "")
					switch row.guard {
					case guardAPI, guardAdmin:
						require.Equal(t, http.StatusBadRequest, unsigned.status, "%s unsigned: %s", name, unsigned.body)
						require.Equal(t, "MissingAuthenticationTokenException", unsigned.typ, name)
						require.Equal(t, http.StatusBadRequest, wrong.status, "%s wrongly signed: %s", name, wrong.body)
						require.Equal(t, "InvalidSignatureException", wrong.typ, name)
					case guardLambda:
						require.Equal(t, http.StatusForbidden, unsigned.status, "%s unsigned: %s", name, unsigned.body)
						require.Equal(t, "MissingAuthenticationTokenException", unsigned.typ, name)
						require.Equal(t, http.StatusForbidden, wrong.status, "%s wrongly signed: %s", name, wrong.body)
						require.Equal(t, "InvalidSignatureException", wrong.typ, name)
					case guardMCP:
						require.Equal(t, http.StatusUnauthorized, unsigned.status, "%s unsigned", name)
						require.Equal(t, http.StatusUnauthorized, wrong.status, "%s signed, not with its token", name)
					case guardOrigin, guardNone:
						right := send(row, "right", "")
						require.Equal(t, right.status, unsigned.status, "%s unsigned: %s", name, unsigned.body)
						require.Equal(t, right.status, wrong.status, "%s wrongly signed: %s", name, wrong.body)
						require.NotContains(t, authRefusals, unsigned.typ, name)
					default:
						t.Fatalf("%s: guard %q", name, row.guard)
					}
				}
				foreign := send(row, "right", evil)
				require.Empty(t, foreign.acao, "%s: a page of another origin may read the answer", name)
				switch row.guard {
				case guardLambda, guardAdmin, guardMCP, guardOrigin:
					require.Equal(t, http.StatusForbidden, foreign.status, "%s from a page of another origin: %s", name, foreign.body)
					require.Equal(t, "AccessDeniedException", foreign.typ, name)
				case guardAPI:
					require.NotEqual(t, http.StatusForbidden, foreign.status, "%s: AWS answers any origin", name)
				}
			}
			require.Equal(t, before, state(), "a refused request changed something")

			// The API's guard against a page of another origin is the
			// preflight that X-Amz-Target asks for: not approved.
			pre, err := http.NewRequest(http.MethodOptions, base+"/", nil)
			require.NoError(t, err)
			pre.Header.Set("Origin", evil)
			pre.Header.Set("Access-Control-Request-Method", "POST")
			pre.Header.Set("Access-Control-Request-Headers", "content-type,x-amz-target,authorization,x-amz-date")
			res, err := http.DefaultClient.Do(pre)
			require.NoError(t, err)
			res.Body.Close()
			require.Empty(t, res.Header.Get("Access-Control-Allow-Origin"), "the API's preflight approved a page of another origin")

			for i := range rows {
				row := &rows[i]
				right := send(row, "right", "")
				require.NotContains(t, authRefusals, right.typ, "%s signed right: %s", rowName(row), right.body)
				require.NotContains(t, []int{http.StatusUnauthorized, http.StatusForbidden}, right.status, "%s signed right: %s", rowName(row), right.body)
			}
		})
	}
}

// TestEndpointsDocumented: docs/server.md's table of endpoints is the
// table's rows, in its order.
func TestEndpointsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/server.md")
	require.NoError(t, err)
	var got []string
	in := false
	for _, line := range strings.Split(string(doc), "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## Endpoints and their guards"
		case in && strings.HasPrefix(line, "| `"):
			got = append(got, line)
		}
	}
	want := endpointsMarkdown()
	require.Equal(t, want, got, "docs/server.md's table of endpoints, as it should be:\n%s", strings.Join(want, "\n"))
}

// endpointsMarkdown renders the table's rows as docs/server.md shows
// them: the edge's (but the first), then the router's.
func endpointsMarkdown() []string {
	var out []string
	row := func(r endpoint) {
		methods := strings.ReplaceAll(r.methods, " ", ", ")
		if methods == "*" {
			methods = "any"
		}
		why := r.why
		if why == "" {
			why = "-"
		}
		path := "`" + r.path + "`"
		switch r.path {
		case consoleRoute:
			path = "`" + strings.TrimSuffix(adminpath.Console, "/") + "`, `" + adminpath.Console + "...`"
		case "any other path":
			path = r.path
		}
		out = append(out, fmt.Sprintf("| `%s` | %s | %s | %s | %s |", methods, path, r.serves, r.guard, why))
	}
	for _, r := range edgeEndpoints()[1:] {
		row(r)
	}
	for _, r := range ownEndpoints() {
		row(r)
	}
	return out
}
