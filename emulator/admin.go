package emulator

import (
	"net/http"

	"github.com/gorilla/mux"

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
// body ({"__type":...,"message":"..."}). The endpoints need no signature,
// but refuse what a web page could send them cross-site (httpedge/adminguard.go):
// a POST needs Content-Type application/json, and a request with an
// Origin that -cors does not allow gets 403.

// Admin endpoint paths.
const (
	AdminClockPath = "/dynamoemu/clock"
	AdminSweepPath = "/dynamoemu/ttl/sweep"
)

// AdminHealthPath is the health endpoint's path: whether the emulator
// can take writes (with Options.DataDir, what stops them).
const AdminHealthPath = "/dynamoemu/health"

// The handlers are package adminhttp's; the routes are here, with the
// paths.

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

func (e *Emulator) adminRoutes(r *mux.Router, a *adminhttp.Admin) {
	r.Methods(http.MethodGet).Path(AdminClockPath).HandlerFunc(a.ServeClock)
	r.Methods(http.MethodPost).Path(AdminClockPath).HandlerFunc(a.ServeClock)
	r.Methods(http.MethodPost).Path(AdminSweepPath).HandlerFunc(a.ServeSweep)
	r.Methods(http.MethodGet).Path(AdminHealthPath).HandlerFunc(a.ServeHealth)
	r.Methods(http.MethodDelete).Path(ConventionsPath).HandlerFunc(a.ServeConventionsReset)
	r.Methods(http.MethodGet).Path(AdminNamespacesPath).HandlerFunc(a.ServeNamespaces)
	r.Methods(http.MethodGet).Path(AdminTablesPath).HandlerFunc(a.ServeTables)
	r.Methods(http.MethodPost).Path(AdminStreamsDrainPath).HandlerFunc(a.ServeStreamsDrain)
	r.Methods(http.MethodGet).Path(AdminStreamsMappingsPath).HandlerFunc(a.ServeStreamsMappings)
	r.Methods(http.MethodPost).Path(AdminSnapshotsPath).HandlerFunc(a.ServeSnapshotTake)
	r.Methods(http.MethodGet).Path(AdminSnapshotsPath).HandlerFunc(a.ServeSnapshotList)
	r.Methods(http.MethodGet).Path(AdminSnapshotsPath + "/{id}/diff").HandlerFunc(a.ServeSnapshotDiff)
	r.Methods(http.MethodPost).Path(AdminSnapshotsPath + "/{id}/restore").HandlerFunc(a.ServeSnapshotRestore)
	r.Methods(http.MethodDelete).Path(AdminSnapshotsPath + "/{id}").HandlerFunc(a.ServeSnapshotDrop)
	r.Methods(http.MethodGet, http.MethodDelete).Path(AdminConsistencyPath).HandlerFunc(a.ServeConsistency)
	r.Methods(http.MethodPost).Path(AdminBranchesPath).HandlerFunc(a.ServeBranchFork)
	r.Methods(http.MethodGet).Path(AdminBranchesPath).HandlerFunc(a.ServeBranchList)
	r.Methods(http.MethodDelete).Path(AdminBranchesPath + "/{name}").HandlerFunc(a.ServeBranchDrop)
	r.Methods(http.MethodGet).Path(AdminBranchesPath + "/{name}/diff").HandlerFunc(a.ServeBranchDiff)
	r.Methods(http.MethodGet).Path(AdminFaultsPath).HandlerFunc(a.ServeFaultsGet)
	r.Methods(http.MethodPut).Path(AdminFaultsPath).HandlerFunc(a.ServeFaultsPut)
	r.Methods(http.MethodDelete).Path(AdminFaultsPath).HandlerFunc(a.ServeFaultsDelete)
	r.Methods(http.MethodGet).Path(AdminFaultStatsPath).HandlerFunc(a.ServeFaultStats)
	r.Methods(http.MethodGet).Path(AdminReportPath).HandlerFunc(a.ServeReport)
	r.Methods(http.MethodDelete).Path(AdminReportPath).HandlerFunc(a.ServeReportReset)
	r.Methods(http.MethodPut).Path(AdminDesignPath).HandlerFunc(a.ServeDesign)
	r.Methods(http.MethodPost).Path(AdminReportPath + "/start").HandlerFunc(a.ServeReportStart)
	r.Methods(http.MethodPost).Path(AdminReportPath + "/stop").HandlerFunc(a.ServeReportStop)
	r.Methods(http.MethodGet).Path(AdminContributorsPath).HandlerFunc(a.ServeContributors)
	r.Methods(http.MethodPost).Path(AdminLagPath).HandlerFunc(a.ServeLag)
	r.Methods(http.MethodGet).Path(AdminLagPath).HandlerFunc(a.ServeLagGet)
	r.Methods(http.MethodGet, http.MethodPut).Path(AdminIAMPath).HandlerFunc(a.ServeIAM)
}
