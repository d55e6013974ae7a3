package emulator

import (
	"context"
	"io"
	"net/http"
	"time"

	"github.com/gorilla/mux"

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
// body ({"__type":...,"message":"..."}). The endpoints need no signature,
// but refuse what a web page could send them cross-site (httpedge/adminguard.go):
// a POST needs Content-Type application/json, and a request with an
// Origin that -cors does not allow gets 403.

// The handlers are package adminhttp's; the routes are here; the paths
// are package adminpath's.

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

func (e *Emulator) adminRoutes(r *mux.Router, a *adminhttp.Admin) {
	r.Methods(http.MethodGet).Path(adminpath.Clock).HandlerFunc(a.ServeClock)
	r.Methods(http.MethodPost).Path(adminpath.Clock).HandlerFunc(a.ServeClock)
	r.Methods(http.MethodPost).Path(adminpath.Sweep).HandlerFunc(a.ServeSweep)
	r.Methods(http.MethodGet).Path(adminpath.Health).HandlerFunc(a.ServeHealth)
	r.Methods(http.MethodDelete).Path(adminpath.Conventions).HandlerFunc(a.ServeConventionsReset)
	r.Methods(http.MethodGet).Path(adminpath.Namespaces).HandlerFunc(a.ServeNamespaces)
	r.Methods(http.MethodGet).Path(adminpath.Tables).HandlerFunc(a.ServeTables)
	r.Methods(http.MethodPost).Path(adminpath.StreamsDrain).HandlerFunc(a.ServeStreamsDrain)
	r.Methods(http.MethodGet).Path(adminpath.StreamsMappings).HandlerFunc(a.ServeStreamsMappings)
	r.Methods(http.MethodPost).Path(adminpath.Snapshots).HandlerFunc(a.ServeSnapshotTake)
	r.Methods(http.MethodGet).Path(adminpath.Snapshots).HandlerFunc(a.ServeSnapshotList)
	r.Methods(http.MethodGet).Path(adminpath.Snapshots + "/{id}/diff").HandlerFunc(a.ServeSnapshotDiff)
	r.Methods(http.MethodPost).Path(adminpath.Snapshots + "/{id}/restore").HandlerFunc(a.ServeSnapshotRestore)
	r.Methods(http.MethodDelete).Path(adminpath.Snapshots + "/{id}").HandlerFunc(a.ServeSnapshotDrop)
	r.Methods(http.MethodGet, http.MethodDelete).Path(adminpath.Consistency).HandlerFunc(a.ServeConsistency)
	r.Methods(http.MethodPost).Path(adminpath.Branches).HandlerFunc(a.ServeBranchFork)
	r.Methods(http.MethodGet).Path(adminpath.Branches).HandlerFunc(a.ServeBranchList)
	r.Methods(http.MethodDelete).Path(adminpath.Branches + "/{name}").HandlerFunc(a.ServeBranchDrop)
	r.Methods(http.MethodGet).Path(adminpath.Branches + "/{name}/diff").HandlerFunc(a.ServeBranchDiff)
	r.Methods(http.MethodGet).Path(adminpath.Faults).HandlerFunc(a.ServeFaultsGet)
	r.Methods(http.MethodPut).Path(adminpath.Faults).HandlerFunc(a.ServeFaultsPut)
	r.Methods(http.MethodDelete).Path(adminpath.Faults).HandlerFunc(a.ServeFaultsDelete)
	r.Methods(http.MethodGet).Path(adminpath.FaultStats).HandlerFunc(a.ServeFaultStats)
	r.Methods(http.MethodGet).Path(adminpath.Report).HandlerFunc(a.ServeReport)
	r.Methods(http.MethodDelete).Path(adminpath.Report).HandlerFunc(a.ServeReportReset)
	r.Methods(http.MethodPut).Path(adminpath.Design).HandlerFunc(a.ServeDesign)
	r.Methods(http.MethodPost).Path(adminpath.Report + "/start").HandlerFunc(a.ServeReportStart)
	r.Methods(http.MethodPost).Path(adminpath.Report + "/stop").HandlerFunc(a.ServeReportStop)
	r.Methods(http.MethodGet).Path(adminpath.Contributors).HandlerFunc(a.ServeContributors)
	r.Methods(http.MethodPost).Path(adminpath.Lag).HandlerFunc(a.ServeLag)
	r.Methods(http.MethodGet).Path(adminpath.Lag).HandlerFunc(a.ServeLagGet)
	r.Methods(http.MethodGet, http.MethodPut).Path(adminpath.IAM).HandlerFunc(a.ServeIAM)
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
