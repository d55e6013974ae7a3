package emulator

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

// Options.MCP is served at adminpath.MCP: an MCP server's streamable
// HTTP endpoint (cmd/dynamoemu's, docs/mcp.md). Like the console it sits
// behind the Host check and the admin guard: no page of a foreign origin
// reaches it, and a POST needs Content-Type application/json, which MCP
// clients send.
//
// Options.DesignMatch is served at adminpath.DesignMatch: POST
// {"namespace", "operation", "request"} answers which access pattern of
// the design the request serves, or the nearest and why not (the MCP
// server's design_match; the console's query builder asks it).
