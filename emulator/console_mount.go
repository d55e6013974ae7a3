package emulator

import (
	"net/http"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/adminpath"
	"github.com/gorilla/mux"
)

// The built-in web console (package console) on the emulator's own port.
//
// Options.Console is its handler; the edge serves it at adminpath.Console, and
// redirects adminpath.Console without its final slash, behind the same checks as
// the admin endpoints: the Host check (edge.go) and the admin guard
// (httpedge/adminguard.go), which lets the page's own origin through. The console
// is as powerful as the API (it deletes tables), so it gets no weaker
// defence. Its page calls the API (POST /) and the admin endpoints on the
// same origin; its answers carry the Dynamoemu-Version header like the
// API's.
//
// The emulator does not import package console: the command (cmd/dynamoemu)
// passes console.Handler with console.Options.Prefix = adminpath.Console, so an
// embedding test binary carries no console files it does not use.

// isConsolePath reports whether path is adminpath.Console, below it, or
// adminpath.Console without its final slash.
func isConsolePath(path string) bool {
	return strings.HasPrefix(path, adminpath.Console) || path == strings.TrimSuffix(adminpath.Console, "/")
}

// consoleRoutes routes the console's paths to Options.Console, adminpath.MCP
// to Options.MCP and adminpath.DesignMatch to Options.DesignMatch, if any.
func (e *Emulator) consoleRoutes(r *mux.Router) {
	if e.opts.MCP != nil {
		r.Path(adminpath.MCP).Handler(e.opts.MCP)
	}
	if e.opts.DesignMatch != nil {
		r.Methods(http.MethodPost).Path(adminpath.DesignMatch).Handler(e.opts.DesignMatch)
	}
	if e.opts.Console == nil {
		return
	}
	r.MatcherFunc(func(req *http.Request, _ *mux.RouteMatch) bool { return isConsolePath(req.URL.Path) }).
		Handler(e.opts.Console)
}

// Options.MCP is served at adminpath.MCP: an MCP server's streamable HTTP
// endpoint (cmd/dynamoemu's, docs/mcp.md). Like the console it sits
// behind the Host check and the admin guard: no page of a foreign origin
// reaches it, and a POST needs Content-Type application/json, which MCP
// clients send.
//
// Options.DesignMatch is served at adminpath.DesignMatch: POST
// {"namespace", "operation", "request"} answers which access pattern of
// the design the request serves, or the nearest and why not (the MCP
// server's design_match; the console's query builder asks it).
