package emulator

import (
	"net/http"
	"strings"

	"github.com/gorilla/mux"

	"github.com/dynamoemu/dynamoemu/emulator/internal/adminhttp"
	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
	"github.com/dynamoemu/dynamoemu/emulator/internal/httpedge"
	"github.com/dynamoemu/dynamoemu/emulator/internal/lambdaesm"
	"github.com/dynamoemu/dynamoemu/emulator/internal/sigv4"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// Every path the server answers and the guard it passes, in one table:
// endpoints. The edge (edge.go) serves a request by the first of its
// rows (edgeEndpoints) whose method and path take it, the emulator's own
// paths (/dynamoemu/...) by the router, which is built from the rest
// (ownEndpoints), each route behind its row's guard. docs/server.md
// ("Endpoints and their guards") shows the table; routes_test.go walks
// the router and the edge's rows against it, and sends every row's
// request unsigned, wrongly signed and from a web page of another origin
// with Options.Credentials.
//
// Before any row, every request passes the Host check and AWS's limits
// on its head (edge.go). The guards:
//
//   - guardAPI, the DynamoDB API and the Streams API: with
//     Options.Credentials a SigV4 signature for the service dynamodb by a
//     listed key, X-Amz-Target signed (emulator/internal/apiserve); with
//     Options.IAM, the operation's IAM action (dynamodb:GetItem,
//     dynamodb:GetRecords, ...; the IAM stage). No Origin check, as on
//     AWS: the operation is named by X-Amz-Target, which makes a browser
//     ask first (a CORS preflight), approved for allowed origins alone,
//     so no page of another origin sends it, nor reads an answer.
//   - guardLambda, Lambda's event source mapping API: the origin check
//     (httpedge.LambdaGuard), then with Options.Credentials a SigV4
//     signature for the service lambda by a listed key, or an admin token;
//     with Options.IAM, lambda:<Op>EventSourceMapping
//     (stream_handlers.go).
//   - guardAdmin, the admin endpoints: the origin check
//     (httpedge.AdminGuard: a page of an origin not allowed gets 403, a
//     request that can change state without Content-Type
//     application/json 415), then with Options.Credentials a SigV4
//     signature for dynamodb by a listed key, or an admin token; with
//     Options.IAM, the row's action (dynamoemu:CreateSnapshot, ...) on
//     its resource (admin_iam.go).
//   - guardMCP, the MCP endpoint: the origin check, then the MCP server's
//     own bearer token (cmd/internal/mcp), with or without Credentials.
//   - guardOrigin: the origin check alone, for the reason its row gives.
//   - guardNone: nothing, for the reason its row gives.

// guard is what a request must pass to reach an endpoint, named as the
// table in docs/server.md names it.
type guard string

const (
	guardAPI    guard = "signature (dynamodb), IAM action"
	guardLambda guard = "origin, signature (lambda) or admin token, IAM action"
	guardAdmin  guard = "origin, signature (dynamodb) or admin token, IAM action"
	guardMCP    guard = "origin, MCP token"
	guardOrigin guard = "origin"
	guardNone   guard = "none"
)

// endpoint is a row of the table: the methods and path it takes, what it
// serves, its guard and, for guardOrigin and guardNone, why no
// credentials. An edge row has match and serve; a router row has handler.
type endpoint struct {
	methods string // "GET HEAD"; "*": any
	path    string // the router's path template (prefix: a prefix); the edge's rows describe theirs
	prefix  bool
	serves  string
	guard   guard
	why     string

	// What the row touches and how (package boundary), judged by the
	// conventions' tenant guard (judgeBound, with the tables resource
	// names); every router row declares it (TestBoundaryMatrix).
	decl boundary.Decl

	// A guardAdmin row's IAM action (dynamoemu:<action>) and the
	// resources it acts on (admin_iam.go); "" only for a row that
	// serves nothing but an error.
	action   string
	resource adminResource

	match func(r *http.Request) bool                                // an edge row's: it takes r
	serve func(e *Emulator, w http.ResponseWriter, r *http.Request) // an edge row's answer

	handler func(e *Emulator, a *adminhttp.Admin) http.Handler // a router row's (nil: not served with these Options)
}

// edgeEndpoints are the edge's rows, in order: the first whose match
// takes a request serves it (edge.go's edgeHandler). The first hands the
// emulator's own paths to the router; it is no endpoint of its own.
func edgeEndpoints() []endpoint {
	isGet := func(r *http.Request) bool { return r.Method == http.MethodGet || r.Method == http.MethodHead }
	return []endpoint{
		{methods: "*", path: ownPrefix + "...", serves: "the emulator's own paths: the router's rows", guard: guardOrigin,
			why:   "the origin check of every own path; each route's credentials are its row's",
			match: func(r *http.Request) bool { return isOwnPath(r.URL.Path) },
			serve: (*Emulator).serveOwn},
		{methods: "*", path: lambdaesm.APIPrefix + "[/{UUID}]", serves: "Lambda's event source mapping API: its five operations", guard: guardLambda,
			match: func(r *http.Request) bool { return isLambdaPath(r.URL.Path) },
			serve: (*Emulator).serveLambdaAPI},
		{methods: "POST", path: "any other path", serves: "the DynamoDB API and the Streams API, by X-Amz-Target (any path, as AWS)", guard: guardAPI,
			why:   "a page of another origin cannot send X-Amz-Target without a CORS preflight, approved for allowed origins alone",
			match: func(r *http.Request) bool { return r.Method == http.MethodPost },
			serve: (*Emulator).serveOp},
		{methods: "GET HEAD", path: "/", serves: "AWS's health check, 200 \"healthy: HOST \" (Options.Edge answers first)", guard: guardNone,
			why:   "AWS's endpoint answers it unsigned, for load balancers; it tells nothing of the data",
			match: func(r *http.Request) bool { return isGet(r) && r.URL.Path == "/" },
			serve: (*Emulator).serveGet},
		{methods: "GET HEAD", path: "any other path", serves: "Options.Edge's answers (cmd/dynamoemu: LocalStack's /_localstack/health, /health, " +
			"/_localstack/init and /_localstack/init/ready; DynamoDB Local's 400 to every GET and /shell), else 404", guard: guardNone,
			why:   "a harness's probes and 404: nothing of the data, no effect",
			match: isGet,
			serve: (*Emulator).serveGet},
		{methods: "OPTIONS", path: "any other path", serves: "a CORS preflight (404 without Origin)", guard: guardNone,
			why:   "headers only, approving allowed origins alone; no effect",
			match: func(r *http.Request) bool { return r.Method == http.MethodOptions },
			serve: (*Emulator).servePreflight},
		{methods: "*", path: "any other path", serves: "404 UnknownOperationException", guard: guardNone,
			why:   "nothing is served",
			match: func(*http.Request) bool { return true },
			serve: (*Emulator).serveNotFound},
	}
}

// adminServe is a router row's handler, a method of adminhttp.Admin.
func adminServe(f func(*adminhttp.Admin, http.ResponseWriter, *http.Request)) func(*Emulator, *adminhttp.Admin) http.Handler {
	return func(_ *Emulator, a *adminhttp.Admin) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { f(a, w, r) })
	}
}

// option is a router row's handler given by Options (nil: the row is not
// served).
func option(h func(o *Options) http.Handler) func(*Emulator, *adminhttp.Admin) http.Handler {
	return func(e *Emulator, _ *adminhttp.Admin) http.Handler { return h(&e.opts) }
}

// ownEndpoints are the router's rows: the emulator's own paths. The
// last, the router's answer to a path or method none takes, is not a
// route.
func ownEndpoints() []endpoint {
	type A = adminhttp.Admin
	const admin, get, post, del = guardAdmin, "GET", "POST", "DELETE"
	const onOwn, onAll, onTable, onMapping = boundary.Own, boundary.AllTables, boundary.Table, boundary.Mapping
	decl := func(a boundary.Access) func(boundary.On) boundary.Decl {
		return func(on boundary.On) boundary.Decl { return boundary.Decl{On: on, Access: a} }
	}
	acct, desc, wread, wwrite, act := decl(boundary.Account), decl(boundary.Describe), decl(boundary.WholeRead), decl(boundary.WholeWrite), decl(boundary.Admin)
	none := boundary.Decl{On: boundary.Nothing, Access: boundary.Account}
	return []endpoint{
		{methods: get, path: adminpath.Conventions, decl: wread(onAll), serves: "the conventions report", guard: admin,
			action: "GetConventionsReport", resource: own("report/conventions"), handler: adminServe((*A).ServeConventions)},
		{methods: del, path: adminpath.Conventions, decl: act(onOwn), serves: "the conventions report emptied", guard: admin,
			action: "ResetConventionsReport", resource: own("report/conventions"), handler: adminServe((*A).ServeConventionsReset)},
		{methods: "OPTIONS", path: strings.TrimSuffix(ownPrefix, "/"), prefix: true, decl: none, serves: "a CORS preflight", guard: guardOrigin,
			why: "headers only; no effect", handler: func(e *Emulator, _ *A) http.Handler { return http.HandlerFunc(e.servePreflight) }},
		{methods: get, path: adminpath.Clock, decl: acct(onOwn), serves: "the clock", guard: admin,
			action: "GetClock", resource: own("clock"), handler: adminServe((*A).ServeClock)},
		{methods: post, path: adminpath.Clock, decl: act(onAll), serves: "the clock moved or set", guard: admin,
			action: "SetClock", resource: own("clock"), handler: adminServe((*A).ServeClock)},
		{methods: post, path: adminpath.Sweep, decl: wwrite(onAll), serves: "a TTL sweep", guard: admin,
			action: "SweepTimeToLive", resource: allTables, handler: adminServe((*A).ServeSweep)},
		{methods: get, path: adminpath.Health, decl: none, serves: "whether writes are taken", guard: guardOrigin,
			why: "a container's health check has no key; it tells nothing of the data", handler: adminServe((*A).ServeHealth)},
		{methods: get, path: adminpath.Namespaces, decl: act(onOwn), serves: "the namespaces", guard: admin,
			action: "ListNamespaces", resource: own("namespace/*"), handler: adminServe((*A).ServeNamespaces)},
		{methods: get, path: adminpath.Tables, decl: desc(onAll), serves: "the tables", guard: admin,
			action: "DescribeTables", resource: allTables, handler: adminServe((*A).ServeTables)},
		{methods: post, path: adminpath.StreamsDrain, decl: act(onAll), serves: "the stream handlers' drain", guard: admin,
			action: "DrainStreams", resource: own("event-source-mapping/*"), handler: adminServe((*A).ServeStreamsDrain)},
		{methods: get, path: adminpath.StreamsMappings, decl: desc(onMapping), serves: "the mappings' progress", guard: admin,
			action: "ListMappingProgress", resource: own("event-source-mapping/*"), handler: adminServe((*A).ServeStreamsMappings)},
		{methods: post, path: adminpath.Snapshots, decl: wread(onAll), serves: "a snapshot taken", guard: admin,
			action: "CreateSnapshot", resource: own("snapshot/*"), handler: adminServe((*A).ServeSnapshotTake)},
		{methods: get, path: adminpath.Snapshots, decl: desc(onOwn), serves: "the snapshots", guard: admin,
			action: "ListSnapshots", resource: own("snapshot/*"), handler: adminServe((*A).ServeSnapshotList)},
		{methods: get, path: adminpath.Snapshots + "/{id}/diff", decl: wread(onAll), serves: "a snapshot's differences", guard: admin,
			action: "DiffSnapshot", resource: own("snapshot/{id}"), handler: adminServe((*A).ServeSnapshotDiff)},
		{methods: post, path: adminpath.Snapshots + "/{id}/restore", decl: wwrite(onAll), serves: "a snapshot restored", guard: admin,
			action: "RestoreSnapshot", resource: own("snapshot/{id}"), handler: adminServe((*A).ServeSnapshotRestore)},
		{methods: del, path: adminpath.Snapshots + "/{id}", decl: wwrite(onAll), serves: "a snapshot deleted", guard: admin,
			action: "DeleteSnapshot", resource: own("snapshot/{id}"), handler: adminServe((*A).ServeSnapshotDrop)},
		{methods: get, path: adminpath.Consistency, decl: wread(onAll), serves: "the consistency report", guard: admin,
			action: "GetConsistencyReport", resource: own("report/consistency"), handler: adminServe((*A).ServeConsistency)},
		{methods: del, path: adminpath.Consistency, decl: act(onOwn), serves: "the consistency report's reset", guard: admin,
			action: "ResetConsistencyReport", resource: own("report/consistency"), handler: adminServe((*A).ServeConsistency)},
		{methods: post, path: adminpath.Branches, decl: wread(onAll), serves: "a branch made", guard: admin,
			action: "CreateBranch", resource: own("branch/*"), handler: adminServe((*A).ServeBranchFork)},
		{methods: get, path: adminpath.Branches, decl: desc(onOwn), serves: "the branches", guard: admin,
			action: "ListBranches", resource: own("branch/*"), handler: adminServe((*A).ServeBranchList)},
		{methods: del, path: adminpath.Branches + "/{name}", decl: wwrite(onAll), serves: "a branch deleted", guard: admin,
			action: "DeleteBranch", resource: own("branch/{name}"), handler: adminServe((*A).ServeBranchDrop)},
		{methods: get, path: adminpath.Branches + "/{name}/diff", decl: wread(onAll), serves: "a branch's differences", guard: admin,
			action: "DiffBranch", resource: own("branch/{name}"), handler: adminServe((*A).ServeBranchDiff)},
		{methods: get, path: adminpath.Faults, decl: desc(onAll), serves: "the fault rules", guard: admin,
			action: "GetFaults", resource: allTables, handler: adminServe((*A).ServeFaultsGet)},
		{methods: "PUT", path: adminpath.Faults, decl: act(onTable), serves: "the fault rules set", guard: admin,
			action: "PutFaults", resource: faultTables, handler: adminServe((*A).ServeFaultsPut)},
		{methods: del, path: adminpath.Faults, decl: act(onAll), serves: "the fault rules removed", guard: admin,
			action: "DeleteFaults", resource: everyTable, handler: adminServe((*A).ServeFaultsDelete)},
		{methods: get, path: adminpath.FaultStats, decl: desc(onAll), serves: "the faults' counts", guard: admin,
			action: "GetFaultStats", resource: allTables, handler: adminServe((*A).ServeFaultStats)},
		{methods: get, path: adminpath.Report, decl: wread(onAll), serves: "the access-pattern report", guard: admin,
			action: "GetReport", resource: own("report/access-patterns"), handler: adminServe((*A).ServeReport)},
		{methods: del, path: adminpath.Report, decl: act(onOwn), serves: "the report's counters reset", guard: admin,
			action: "ResetReport", resource: own("report/access-patterns"), handler: adminServe((*A).ServeReportReset)},
		{methods: "PUT", path: adminpath.Design, decl: act(onOwn), serves: "the design set", guard: admin,
			action: "PutDesign", resource: own("report/access-patterns"), handler: adminServe((*A).ServeDesign)},
		{methods: post, path: adminpath.Report + "/start", decl: act(onOwn), serves: "the report started", guard: admin,
			action: "StartReport", resource: own("report/access-patterns"), handler: adminServe((*A).ServeReportStart)},
		{methods: post, path: adminpath.Report + "/stop", decl: act(onOwn), serves: "the report stopped", guard: admin,
			action: "StopReport", resource: own("report/access-patterns"), handler: adminServe((*A).ServeReportStop)},
		{methods: post, path: adminpath.DesignMatch, decl: act(onOwn), serves: "which access pattern a request serves (Options.DesignMatch: the console's query builder)", guard: admin,
			action: "MatchDesign", resource: own("report/access-patterns"), handler: option(func(o *Options) http.Handler { return o.DesignMatch })},
		{methods: get, path: adminpath.Contributors, decl: wread(onAll), serves: "Contributor Insights' keys", guard: admin,
			action: "GetContributors", resource: allTables, handler: adminServe((*A).ServeContributors)},
		{methods: post, path: adminpath.Lag, decl: act(onTable), serves: "the lag set", guard: admin,
			action: "SetLag", resource: lagTable, handler: adminServe((*A).ServeLag)},
		{methods: get, path: adminpath.Lag, decl: desc(onAll), serves: "the lag", guard: admin,
			action: "GetLag", resource: allTables, handler: adminServe((*A).ServeLagGet)},
		{methods: get, path: adminpath.IAM, decl: act(onOwn), serves: "the IAM identities and policies", guard: admin,
			action: "GetIAMPolicies", resource: own("iam"), handler: adminServe((*A).ServeIAM)},
		{methods: "PUT", path: adminpath.IAM, decl: act(onOwn), serves: "the IAM identities and policies replaced", guard: admin,
			action: "PutIAMPolicies", resource: own("iam"), handler: adminServe((*A).ServeIAM)},
		{methods: "*", path: adminpath.MCP, decl: act(onOwn), serves: "MCP over streamable HTTP (Options.MCP)", guard: guardMCP,
			handler: option(func(o *Options) http.Handler { return o.MCP })},
		{methods: "GET HEAD", path: consoleRoute, decl: none, serves: "the console's files (Options.Console), and a redirect to its page", guard: guardOrigin,
			why: "the page, styles and scripts hold no data; the page signs the calls it makes", handler: option(func(o *Options) http.Handler { return o.Console })},
		{methods: "*", path: consoleRoute, decl: none, serves: "the console's answer to another method: 405", guard: admin,
			handler: option(func(o *Options) http.Handler { return o.Console })},
		{methods: "*", path: ownPrefix + "...", decl: none, serves: "any other path or method of the emulator's own: 404", guard: admin},
	}
}

// consoleRoute is the console's route: adminpath.Console, below it, and
// adminpath.Console without its final slash.
const consoleRoute = ownPrefix + "console{file:(?:/.*)?}"

// router builds the router of the emulator's own paths (/dynamoemu/...)
// from ownEndpoints, each route behind its row's credentials (the
// origin check ran at the edge). Every other path is the edge's.
// New does not call it: gorilla/mux compiles a regular expression per
// route, which start-up need not pay (the first request that needs it
// builds it, once).
func (e *Emulator) router() *mux.Router {
	r := mux.NewRouter()
	a := e.admin()
	rows := ownEndpoints()
	for _, row := range rows[:len(rows)-1] {
		h := row.handler(e, a)
		if h == nil {
			continue
		}
		rt := r.NewRoute()
		if row.prefix {
			rt.PathPrefix(row.path)
		} else {
			rt.Path(row.path)
		}
		if row.methods != "*" {
			rt.Methods(strings.Fields(row.methods)...)
		}
		rt.Handler(e.credentials(&row, h))
	}
	other := e.credentials(&rows[len(rows)-1], http.HandlerFunc(e.serveNotFound))
	r.NotFoundHandler, r.MethodNotAllowedHandler = other, other
	return r
}

// name names a request to row: its IAM action, else its method and path.
func (row *endpoint) name(r *http.Request) string {
	if row.action != "" {
		return row.action
	}
	return r.Method + " " + r.URL.Path
}

// rowTables are the tables a request to row names: every one ("*") for a
// row declared on every table, else its resource's table ARNs' (table/*:
// "*"), in the region of c (nil: us-east-1).
func (e *Emulator) rowTables(row *endpoint, r *http.Request, c *sigv4.Check) []string {
	if row.decl.On == boundary.AllTables {
		return []string{"*"}
	}
	if row.resource == nil {
		return nil
	}
	region := "us-east-1"
	if c != nil {
		region = c.Region()
	}
	var out []string
	for _, arn := range row.resource(e, r, region) {
		if name := boundary.TableOf(arn); name != "" {
			out = append(out, name)
		}
	}
	return out
}

// credentials is h behind the part of row's guard that follows the
// edge's origin check: for guardAdmin with Options.Credentials the admin
// credentials, then with Options.IAM the row's action (admin_iam.go),
// then with Options.Conventions the tenant guard on the row's
// declaration (boundary.go: judgeBound).
// guardMCP's token is the MCP handler's own; guardOrigin asks none.
func (e *Emulator) credentials(row *endpoint, h http.Handler) http.Handler {
	if row.guard != guardAdmin || (e.keys == nil && e.opts.Conventions == nil) {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var c *sigv4.Check
		var err error
		if e.keys != nil {
			c, err = e.keys.AdminAuth(r)
		}
		if err == nil {
			err = e.authorizeAdmin(row, r, c)
		}
		if err == nil {
			err = e.judgeBound(r, c, row.name(r), row.decl, func() []string { return e.rowTables(row, r, c) })
		}
		if err != nil {
			e.serveRefused(w, r, err)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// serveOwn serves a path of the emulator's own: the origin check
// (httpedge.AdminGuard), then the router.
func (e *Emulator) serveOwn(w http.ResponseWriter, r *http.Request) {
	if err := httpedge.AdminGuard(&e.cors, r); err != nil { // admin routes and console: no cross-site request
		e.serveRefused(w, r, err)
		return
	}
	e.own().ServeHTTP(&answerDeadline{ResponseWriter: w, e: e}, r) // server.go: the write timeout from the answer
}

// serveLambdaAPI serves Lambda's mapping API: the origin check
// (httpedge.LambdaGuard), then serveLambda (stream_handlers.go).
func (e *Emulator) serveLambdaAPI(w http.ResponseWriter, r *http.Request) {
	if err := httpedge.LambdaGuard(&e.cors, r); err != nil { // no web page makes a mapping
		lambdaesm.WriteRefusal(w, err) // in Lambda's shape
		return
	}
	e.serveLambda(w, r)
}

// serveGet serves a GET or HEAD of a path not the emulator's own:
// Options.Edge's answer if it has one, else AWS's health check on / and
// 404 elsewhere.
func (e *Emulator) serveGet(w http.ResponseWriter, r *http.Request) {
	if e.opts.Edge != nil && e.opts.Edge(w, r) {
		return
	}
	if r.URL.Path == "/" {
		e.serveHealth(w, r)
	} else {
		e.serveNotFound(w, r)
	}
}
