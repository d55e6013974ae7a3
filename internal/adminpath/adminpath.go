// Package adminpath names the emulator's own HTTP paths, everything
// under /dynamoemu/: the admin endpoints (the clock, TTL sweeps,
// snapshots, branches, faults, lags, the reports, the stream handlers'
// drain), the web console and the MCP server. The emulator routes them
// (package emulator's admin.go and console_mount.go); the server command,
// the MCP server, emulatortest and the tests name them here. A Go
// program that embeds the emulator uses its Go API instead; docs/ lists
// the endpoints for everyone else.
package adminpath

// Prefix is the path under which the emulator serves its own endpoints.
const Prefix = "/dynamoemu/"

// The admin endpoints.
const (
	// Clock: GET the emulator's time, POST {"advance":"1h"} or
	// {"set":"2030-01-01T00:00:00Z"}.
	Clock = Prefix + "clock"
	// Sweep: POST deletes the expired items of TTL tables now.
	Sweep = Prefix + "ttl/sweep"
	// Health: GET whether the emulator can take writes.
	Health = Prefix + "health"
	// Namespaces: GET the namespaces that hold tables.
	Namespaces = Prefix + "namespaces"
	// Tables: GET a page of a namespace's tables, described.
	Tables = Prefix + "tables"
	// Snapshots: POST takes one, GET lists them; /{id}/restore,
	// /{id}/diff, DELETE /{id}.
	Snapshots = Prefix + "snapshots"
	// Branches: POST forks one, GET lists them; /{name}/diff, DELETE
	// /{name}.
	Branches = Prefix + "branches"
	// Faults: GET, PUT and DELETE the fault rules.
	Faults = Prefix + "faults"
	// FaultStats: GET what the fault rules injected.
	FaultStats = Prefix + "faults/stats"
	// Lag: GET the lag gates, POST moves one.
	Lag = Prefix + "lag"
	// Report: GET the access-pattern report, DELETE its counts;
	// /start and /stop.
	Report = Prefix + "report"
	// Design: PUT the design the report checks the traffic against.
	Design = Prefix + "report/design"
	// DesignMatch: POST which access pattern of the design a request
	// serves (Options.DesignMatch).
	DesignMatch = Prefix + "report/match"
	// Contributors: GET Contributor Insights' top keys.
	Contributors = Prefix + "contributors"
	// Conventions: GET the conventions report, DELETE empties it.
	Conventions = Prefix + "conventions"
	// Consistency: GET the stale reads of consistency fuzzing, DELETE
	// forgets them.
	Consistency = Prefix + "consistency"
	// IAM: GET and PUT the identities of the IAM policy mode.
	IAM = Prefix + "iam"
	// StreamsDrain: POST waits until the stream handlers caught up.
	StreamsDrain = Prefix + "streams/drain"
	// StreamsMappings: GET every event source mapping's progress.
	StreamsMappings = Prefix + "streams/mappings"
)

// Console is where Options.Console (the web console) is served.
const Console = Prefix + "console/"

// MCP is where Options.MCP (the MCP server's streamable HTTP endpoint)
// is served.
const MCP = Prefix + "mcp"
