package emulator

import (
	"context"
	"io"
	"time"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/internal/adminhttp"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
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

// The handlers are package adminhttp's; the routes are rows of the
// endpoints table (routes.go); the paths are package adminpath's.

// admin is what serves the admin endpoints: the emulator's Go API, its
// service and fault rules.
func (e *Emulator) admin() *adminhttp.Admin {
	a := &adminhttp.Admin{Host: adminHost{e}, CORS: &e.cors, Svc: e.svc, Faults: e.inj, SharedDB: e.opts.SharedDB, Lag: e.lagGate,
		Paths: adminhttp.Paths{Namespaces: adminpath.Namespaces, Report: adminpath.Report, Conventions: adminpath.Conventions},
		Answers: adminhttp.Answers{
			Fork:        func(base, name string) (any, error) { return e.Branches().Fork(base, name) },
			Branches:    func() any { return e.Branches().List() },
			Consistency: func() any { return e.Reports().Consistency() },
			Mappings:    func() any { return e.Streams().Mappings() },
		},
		IAM: iamAdmin{e}, Snapshots: e.keptSnapshots, NoSnapshot: ErrNoSnapshot, Branch: e.branchOf, SnapshotOf: e.snapshotOf,
		DataDir: e.opts.DataDir, DrainTimeout: defaultDrainTimeout}
	if e.store != nil {
		a.Problems = e.store.Problems
	}
	return a
}

// adminHost is the emulator's Go API as the admin endpoints ask it
// (adminhttp.Host): the handles' methods, flat.
type adminHost struct{ e *Emulator }

func (h adminHost) Now() time.Time                             { return h.e.Clock().Now() }
func (h adminHost) SetNow(t time.Time) (time.Time, error)      { return h.e.Clock().SetNow(t) }
func (h adminHost) Advance(d time.Duration) (time.Time, error) { return h.e.Clock().Advance(d) }
func (h adminHost) SweepTTL() int                              { return h.e.Clock().SweepTTL() }
func (h adminHost) ConventionsReport() conventions.Snapshot    { return h.e.Reports().Conventions() }
func (h adminHost) ResetConventionsReport()                    { h.e.Reports().ResetConventions() }
func (h adminHost) WriteReport(w io.Writer) error              { return h.e.Reports().WriteAccess(w) }
func (h adminHost) ResetReport()                               { h.e.Reports().ResetAccess() }
func (h adminHost) SetReporting(on bool)                       { h.e.Reports().SetReporting(on) }
func (h adminHost) SetDesign(src []byte) error                 { return h.e.Reports().SetDesign(src) }
func (h adminHost) ResetConsistencyReport()                    { h.e.resetStaleReads() }
func (h adminHost) Snapshot() string                           { return h.e.Branches().Snapshot() }
func (h adminHost) Restore(id string) error                    { return h.e.Branches().Restore(id) }
func (h adminHost) DropSnapshot(id string) error               { return h.e.Branches().DropSnapshot(id) }
func (h adminHost) DropBranch(name string) error               { return h.e.Branches().Drop(name) }
func (h adminHost) DrainStreams(ctx context.Context) error     { return h.e.Streams().Drain(ctx) }
