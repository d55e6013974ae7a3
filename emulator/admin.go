package emulator

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/adminhttp"
)

// The admin endpoints, which no AWS service has: control of the emulator's
// clock (clock.go) and of the TTL sweeper (ttl_control.go) over HTTP, for tests
// that run the emulator as a separate process.
//
//	GET  /dynamoemu/clock             {"now":"2026-11-22T11:00:00Z"}
//	POST /dynamoemu/clock             {"advance":"1h30m"} or {"set":"2030-01-01T00:00:00Z"}
//	POST /dynamoemu/ttl/sweep         {"deleted":3}
//	GET  /dynamoemu/health            {"status":"ok"} (adminhttp/health.go)
//	DELETE /dynamoemu/conventions     {"reset":true} (empties the conventions report)
//	GET  /dynamoemu/namespaces        the namespaces that hold tables (namespaces_admin.go)
//	POST /dynamoemu/streams/drain     {"drained":true} once the stream handlers caught up (adminhttp/streams.go)
//	GET  /dynamoemu/streams/mappings  the event source mappings and their progress (adminhttp/streams.go)
//
// Durations are Go's (time.ParseDuration), times RFC 3339. A bad request,
// or a clock moved more than about 292 years from the real time (the most
// its offset holds, clock.go), is answered 400 with a ValidationException
// body ({"__type":...,"message":"..."}). They refuse what a web page
// could send them cross-site (httpedge/adminguard.go): a POST needs
// Content-Type application/json, and a request with an Origin that -cors
// does not allow gets 403; with Options.Credentials they need a
// signature or an admin token (routes.go's table says which endpoint
// needs what).

// Admin endpoint paths.
const (
	AdminClockPath = "/dynamoemu/clock"
	AdminSweepPath = "/dynamoemu/ttl/sweep"
)

// AdminHealthPath is the health endpoint's path: whether the emulator
// can take writes (with Options.DataDir, what stops them).
const AdminHealthPath = "/dynamoemu/health"

// The handlers are package adminhttp's; the routes are rows of the
// endpoints table (routes.go), with the paths.

// admin is what serves the admin endpoints: the emulator's methods, its
// service and fault rules.
func (e *Emulator) admin() *adminhttp.Admin {
	a := &adminhttp.Admin{Host: e, CORS: &e.cors, Svc: e.svc, Faults: e.inj, SharedDB: e.opts.SharedDB, Lag: e.lagGate,
		Paths: adminhttp.Paths{Namespaces: AdminNamespacesPath, Report: AdminReportPath, Conventions: ConventionsPath},
		Answers: adminhttp.Answers{
			Fork:        func(base, name string) (any, error) { return e.Fork(base, name) },
			Branches:    func() any { return e.Branches() },
			Consistency: func() any { return e.ConsistencyReport() },
			Mappings:    func() any { return e.EventSourceMappings() },
		},
		IAM: iamAdmin{e}, Snapshots: e.keptSnapshots, NoSnapshot: ErrNoSnapshot, Branch: e.branchOf, SnapshotOf: e.snapshotOf,
		DataDir: e.opts.DataDir, DrainTimeout: DefaultDrainTimeout}
	if e.store != nil {
		a.Problems = e.store.Problems
	}
	return a
}
