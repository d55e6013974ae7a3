package emulator

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/faults"
	"github.com/dynamoemu/dynamoemu/internal/faults/throttle"
	"github.com/gorilla/mux"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/internal/apiserve"
	"github.com/dynamoemu/dynamoemu/emulator/internal/httpedge"
	"github.com/dynamoemu/dynamoemu/emulator/internal/httploop"
	"github.com/dynamoemu/dynamoemu/emulator/internal/lambdaesm"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/sigv4"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/lag"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamrec"
	"github.com/dynamoemu/dynamoemu/internal/persist"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// defaultMaxBodyBytes is AWS's request size limit (16 MB).
const defaultMaxBodyBytes = 16 << 20

// Options configure an Emulator. The zero value is ready to use.
type Options struct {
	// SharedDB makes every client use one database, whatever its access key
	// and region (DynamoDB Local's -sharedDb).
	SharedDB bool
	// Logger receives structured logs; nil discards them.
	Logger *slog.Logger
	// Clock returns the current time; nil means time.Now. Tests pass a
	// controllable clock.
	Clock func() time.Time
	// MaxBodyBytes bounds the request body; 0 means AWS's 16 MB.
	MaxBodyBytes int64
	// CORSOrigins enables CORS for these origins ("*" allows any); empty
	// disables CORS (DynamoDB Local's -cors). Pages of these origins may
	// also use the admin endpoints (httpedge/adminguard.go).
	CORSOrigins []string
	// AllowHosts are Host names the emulator answers besides those it
	// always answers (internal/httpedge/hosts.go: IP addresses, localhost, *.localhost,
	// *.internal, and on connections to a non-loopback address also
	// single-label names, *.local and *.home.arpa): exact names,
	// "*.example.com" for every name under example.com, or "*" for any
	// Host. Names only: every port is accepted. Other Hosts get 403, a
	// defence against DNS rebinding (cmd/dynamoemu's -allowHost).
	AllowHosts []string
	// MaxInFlight bounds the requests served at once; one more is answered
	// with ThrottlingException (limits.go). 0 means no limit;
	// cmd/dynamoemu's -maxInFlight defaults to 1024.
	MaxInFlight int
	// MaxRequestBytesInFlight bounds the bytes of the request bodies read
	// or served at once (internal/apiserve/budget.go): a body is charged
	// what its sender has proven (a large one 64 KiB, then what its
	// buffers can grow to as its bytes arrive; the slow bodies a quarter
	// of the budget between them), a body that arrives
	// slower than a floor rate is cut off and its bytes released
	// (internal/apiserve/pace.go), and small requests (bodies up to 64
	// KiB) have a share of their own beside the budget. A request that
	// does not fit waits its turn, then is answered with
	// ThrottlingException and Retry-After (its body read away, kept
	// nowhere). 0 means no budget (and no floor); cmd/dynamoemu sizes one
	// for the machine (-maxRequestBytesInFlight).
	MaxRequestBytesInFlight int64
	// IdempotencyBytes bounds the memory of the ClientRequestTokens the
	// emulator remembers for ten minutes (internal/service); past it the
	// oldest are forgotten early. 0 means 32 MB.
	IdempotencyBytes int64
	// DelayTransientStatuses asks for CREATING/DELETING states to last a
	// little while, as AWS's do: a new table is CREATING (it serves no
	// item request), a deleted one DELETING (described and listed), a GSI
	// added or deleted by UpdateTable CREATING or DELETING; restores,
	// backups, exports and imports stay in progress.
	DelayTransientStatuses bool
	// TransientStatusDelay is how long those states last with
	// DelayTransientStatuses; 0 means 500 ms, about what DynamoDB
	// Local takes to create or delete an index of a small table.
	TransientStatusDelay time.Duration
	// StreamRetention is how long stream records, and disabled streams,
	// stay readable; 0 means AWS's 24 hours.
	StreamRetention time.Duration
	// StreamRetryBackoff is how long a stream handler (an event source
	// mapping) waits before retrying a failed batch the first time; each
	// next retry waits twice as long, up to 60 times this. 0 means
	// lambdaesm.DefaultRetryBackoff (1 s); tests set a millisecond.
	StreamRetryBackoff time.Duration
	// StreamHandlerFileDir is the directory a stream handler's (an event
	// source mapping's) file:// on-failure destination may append to: a
	// mapping whose destination is another file, or any file when this
	// is "", is refused (InvalidParameterValueException), whoever makes
	// it (cmd/dynamoemu's -streamHandlerFileDir; docs/stream-handlers.md).
	StreamHandlerFileDir string
	// StreamHandlerRemote lets a mapping's Endpoint and http(s)
	// on-failure destination name a host other than loopback (localhost,
	// 127.0.0.1, ::1); without it such a mapping is refused. The default
	// Lambda endpoint (SetLambdaEndpoint) is the program's own and may be
	// anywhere (cmd/dynamoemu's -streamHandlerRemote).
	StreamHandlerRemote bool
	// StreamHandlerFilterQuota is how many filters a stream handler (an
	// event source mapping) may have: 0 means Lambda's default quota, 5;
	// up to 10, as a quota increase allows (cmd/dynamoemu's
	// -streamHandlerFilterQuota).
	StreamHandlerFilterQuota int
	// StreamRetentionBytes bounds the bytes of every stream's records
	// together (images included): past it the oldest records go before
	// their retention ends, and readers before them get
	// TrimmedDataAccessException, as when AWS's trim horizon moves. A
	// deleted table's stream records count until their retention ends
	// or the bound needs their room. 0 means no bound but the retention;
	// cmd/dynamoemu's -streamRetentionBytes defaults to 256 MiB.
	StreamRetentionBytes int64
	// Conventions names the tables that follow the mbc-cqrs-serverless
	// conventions and how they are checked (see conventions.go); nil
	// means none, though a table may still opt in by its tags.
	Conventions *conventions.Config
	// DataDir, when set, keeps every namespace in this directory, loaded
	// by New and logged before each change is acknowledged
	// (persistence.go; cmd/dynamoemu's -dbPath); "" keeps everything in
	// memory only. The directory is locked until Close.
	DataDir string
	// Persist configures DataDir's store: durability (DurabilitySync,
	// the default, DurabilityGroup or DurabilityNone), group commit
	// window, compaction thresholds. A nil Logger logs to Logger.
	Persist PersistOptions
	// Console, if not nil, is served at /dynamoemu/console/ behind the Host check
	// and the admin guard (console_mount.go): cmd/dynamoemu passes package
	// console's handler.
	Console http.Handler
	// MCP, if not nil, is served at /dynamoemu/mcp behind the Host check and the
	// admin guard (console_mount.go): cmd/dynamoemu passes its MCP
	// server's streamable HTTP handler, which checks its bearer token.
	MCP http.Handler
	// DesignMatch, if not nil, is served at /dynamoemu/report/match (POST)
	// behind the Host check and the admin guard (console_mount.go):
	// cmd/dynamoemu passes the MCP server's design matcher
	// (mcp.MatchHandler), which the web console's query builder asks
	// which access pattern a request serves.
	DesignMatch http.Handler
	// Edge, if not nil, answers a GET or HEAD of a path that is not the
	// emulator's own (/dynamoemu/...) before AWS's answers (edge.go: 200
	// "healthy" on /, 404 elsewhere), behind the Host check; it returns
	// false to leave the request to them. cmd/dynamoemu passes the
	// answers of DynamoDB Local's and LocalStack's start-up probes when
	// started through their command lines. API calls (POST) never reach it.
	Edge func(w http.ResponseWriter, r *http.Request) bool
	// ApproximateVectors makes vector indexes search approximately (an
	// HNSW graph, recall@10 about 0.9 or better) instead of exactly, for
	// large local data sets (cmd/dynamoemu's -approximateVectors). Exact,
	// deterministic answers are the default.
	ApproximateVectors bool
	// Faults configures fault injection, capacity throttling and the
	// access-pattern report (faults.go).
	Faults FaultOptions
	// ExportDir is the directory standing for Amazon S3 in exports and
	// imports (ExportTableToPointInTime writes its files there, ImportTable
	// reads them): a bucket is a subdirectory, an object key a path below
	// it. "" means dynamoemu-s3 in os.TempDir() (cmd/dynamoemu's -exportDir).
	ExportDir string
	// Credentials, when not empty, are the only access keys the emulator
	// accepts: it verifies every request's SigV4 signature as AWS does,
	// and the admin endpoints need one of these keys too (credentials.go;
	// cmd/dynamoemu's -credentials). Empty: any credentials work, as in
	// DynamoDB Local.
	Credentials []Credential
	// AdminTokens, with Credentials, are bearer tokens the admin
	// endpoints also accept ("Authorization: Bearer TOKEN"): at least 16
	// printable characters each.
	AdminTokens []string
	// Consistency is "" or "strong" (reads lag only as the lag gates
	// say), or "fuzz:SEED": consistency fuzzing (consistency.go), in
	// which GSI reads, eventually consistent reads and stream records lag
	// by amounts drawn from SEED, and stale reads are reported
	// (Reports.Consistency; cmd/dynamoemu's -consistency,
	// DYNAMOEMU_CONSISTENCY).
	Consistency string
	// IAM, with Credentials, turns the IAM policy mode on: the data-plane
	// requests of the access keys it gives an identity are decided with
	// IAM's logic against their policies and the tables' resource-based
	// policies (iam.go, docs/iam.md; cmd/dynamoemu's -iamPolicies). Nil:
	// off.
	IAM *IAMPolicies
}

// The defaults of Options' fields whose zero value means one
// (WithDefaults).
const (
	defaultIdempotencyBytes     = 32 << 20
	defaultStreamRetention      = 24 * time.Hour
	defaultTransientStatusDelay = 500 * time.Millisecond
)

// WithDefaults returns o with each field whose zero value means a
// default set to it: MaxBodyBytes, IdempotencyBytes, StreamRetention
// and TransientStatusDelay. New applies them; a program that shows
// them (cmd/dynamoemu's flags) reads them here.
func (o Options) WithDefaults() Options {
	if o.MaxBodyBytes == 0 {
		o.MaxBodyBytes = defaultMaxBodyBytes
	}
	if o.IdempotencyBytes == 0 {
		o.IdempotencyBytes = defaultIdempotencyBytes
	}
	if o.StreamRetention == 0 {
		o.StreamRetention = defaultStreamRetention
	}
	if o.TransientStatusDelay == 0 {
		o.TransientStatusDelay = defaultTransientStatusDelay
	}
	return o
}

// transientDelay is how long CREATING and DELETING last: 0 unless
// DelayTransientStatuses.
func (o Options) transientDelay() time.Duration {
	if !o.DelayTransientStatuses {
		return 0
	}
	return o.WithDefaults().TransientStatusDelay
}

// Validate reports whether the options are usable.
func (o Options) Validate() error {
	if o.MaxBodyBytes < 0 {
		return fmt.Errorf("emulator: MaxBodyBytes %d is negative", o.MaxBodyBytes)
	}
	if o.StreamHandlerFilterQuota < 0 || o.StreamHandlerFilterQuota > 10 {
		return fmt.Errorf("emulator: StreamHandlerFilterQuota %d is not between 0 and 10", o.StreamHandlerFilterQuota)
	}
	if o.StreamRetryBackoff < 0 {
		return fmt.Errorf("emulator: StreamRetryBackoff %v is negative", o.StreamRetryBackoff)
	}
	if o.StreamHandlerFileDir != "" {
		if _, err := lambdaesm.CleanFileDir(o.StreamHandlerFileDir); err != nil {
			return fmt.Errorf("emulator: StreamHandlerFileDir: %w", err)
		}
	}
	if o.StreamRetention < 0 {
		return fmt.Errorf("emulator: StreamRetention %v is negative", o.StreamRetention)
	}
	if o.MaxInFlight < 0 {
		return fmt.Errorf("emulator: MaxInFlight %d is negative", o.MaxInFlight)
	}
	if o.StreamRetentionBytes < 0 {
		return fmt.Errorf("emulator: StreamRetentionBytes %d is negative", o.StreamRetentionBytes)
	}
	if o.MaxRequestBytesInFlight < 0 {
		return fmt.Errorf("emulator: MaxRequestBytesInFlight %d is negative", o.MaxRequestBytesInFlight)
	}
	if o.IdempotencyBytes < 0 {
		return fmt.Errorf("emulator: IdempotencyBytes %d is negative", o.IdempotencyBytes)
	}
	if o.TransientStatusDelay < 0 {
		return fmt.Errorf("emulator: TransientStatusDelay %v is negative", o.TransientStatusDelay)
	}
	for _, origin := range o.CORSOrigins {
		if strings.TrimSpace(origin) == "" {
			return errors.New("emulator: empty CORS origin")
		}
	}
	for _, h := range o.AllowHosts {
		if err := httpedge.ValidateAllowHost(h); err != nil {
			return err
		}
	}
	if _, err := newFuzzer(o.Consistency); err != nil {
		return fmt.Errorf("emulator: Consistency %q: %w", o.Consistency, err)
	}
	if err := validateCredentials(o.Credentials, o.AdminTokens); err != nil {
		return err
	}
	if o.IAM != nil {
		if _, err := o.IAM.identities(o.Credentials); err != nil {
			return err
		}
	}
	return nil
}

// Emulator is one in-memory DynamoDB service: its namespaces (databases) and
// the HTTP handler that serves the DynamoDB JSON protocol over them.
type Emulator struct {
	opts    Options
	log     *slog.Logger
	clock   func() time.Time // skew.now: the base clock moved by Advance and SetNow (clock.go)
	skew    clockSkew
	maxBody int64
	cors    httpedge.CORS    // the pages answered, and what they are told (internal/httpedge/cors.go)
	hosts   *httpedge.Hosts  // the Host names answered (internal/httpedge/hosts.go)
	keys    *sigv4.Keyring   // Options.Credentials's; nil: signatures are not checked (credentials.go)
	iam     *iamMode         // Options.IAM's; nil: the IAM policy mode is off (iam.go)
	svc     *service.Service // everything behind the edge (internal/service)
	inj     *faults.Injector // the fault rules (faults_persist.go), the faults stage's setting
	store   *persist.Store   // Options.DataDir's; nil without one
	handler http.Handler
	own     func() *mux.Router // the router of the emulator's own paths, built at the first request that needs it (routes.go)
	// serve is the API's request path: the in-flight limit, the budget
	// of request bytes and the releaser are its (emulator/internal/apiserve).
	serve apiserve.Server
	// streamBudget bounds every stream's records
	// (Options.StreamRetentionBytes); nil: none.
	streamBudget *streamlog.Budget
	// streamChanges hears every stream made or forgotten, in any
	// namespace: the service notifies it (service.Config.StreamChanges)
	// and the stream handlers wait on it for a table not made yet.
	streamChanges streamlog.Signal
	// pollersWarned are the streams a client was found reading beside an
	// event source mapping (stream_handlers.go's streamRead), warned of once.
	pollersWarned sync.Map
	// writeTimeout is the WriteTimeout of the last Server made
	// (NewServer), in nanoseconds: net/http's path sets it again when an
	// answer is ready.
	writeTimeout atomic.Int64

	snaps    snapshotStore // the snapshots kept (snapshots.go)
	branches branchSet     // the branches made (branches.go)

	fuzzer *lag.Fuzzer // Options.Consistency's fuzzing; nil: none (consistency.go)

	designMu  sync.Mutex // guards designSrc, and orders its changes with the service's design
	designSrc []byte     // the design last set, as given (faults.go)
}

// New returns an Emulator with no tables. It does no work proportional to
// anything: databases are created when first used.
func New(opts Options) (*Emulator, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	e := &Emulator{opts: opts, log: opts.Logger, clock: opts.Clock, maxBody: opts.MaxBodyBytes}
	if e.log == nil {
		e.log = slog.New(slog.DiscardHandler)
	}
	if e.clock == nil {
		e.clock = time.Now
	}
	e.skew.base, e.clock = e.clock, e.skew.now
	if e.maxBody == 0 {
		e.maxBody = defaultMaxBodyBytes
	}
	e.cors = httpedge.NewCORS(opts.CORSOrigins, corsExposed)
	e.hosts = httpedge.NewHosts(opts.AllowHosts)
	e.keys = newKeyring(opts.Credentials, opts.AdminTokens)
	e.iam = newIAMMode(opts)
	if opts.StreamRetentionBytes > 0 {
		e.streamBudget = streamlog.NewBudget(opts.StreamRetentionBytes)
	}
	e.fuzzer, _ = newFuzzer(opts.Consistency) // Validate parsed it
	var err error
	var dbs func(string) (*storage.DB, error)
	if opts.DataDir != "" {
		if e.store, err = e.openStore(opts, e.log); err != nil {
			return nil, err
		}
		if err := e.loadClock(); err != nil { // before anything reads the clock
			e.store.Close()
			return nil, fmt.Errorf("-dbPath %s: %w", opts.DataDir, err)
		}
		dbs = storeDBs(e.store)
	}
	e.inj = e.newInjector() // faults_persist.go
	cfg := e.serviceConfig()
	cfg.DBs = dbs
	if e.store != nil {
		cfg.Keep = storeKeep(e.store) // the backups and pitr features
	}
	e.svc, err = service.New(cfg)
	if err != nil {
		if e.store != nil {
			e.store.Close()
		}
		return nil, err
	}
	if err := e.initFaults(); err != nil {
		e.svc.Close()
		if e.store != nil {
			e.store.Close()
		}
		return nil, err
	}
	if e.store != nil {
		if err := loadNamespaces(e.svc, e.store, e.log); err != nil {
			e.svc.Close()
			e.store.Close()
			return nil, fmt.Errorf("-dbPath %s: %w", opts.DataDir, err)
		}
	}

	if err := e.initStreamHandlers(); err != nil { // stream_handlers_persist.go
		e.svc.Close()
		if e.store != nil {
			e.store.Close()
		}
		return nil, fmt.Errorf("-dbPath %s: %w", opts.DataDir, err)
	}

	e.initServe()
	e.own = sync.OnceValue(e.router) // routes.go
	e.handler = e.edgeHandler()      // edge.go
	return e, nil
}

// initServe sets the API's request path (e.serve) once, before the
// first request.
func (e *Emulator) initServe() {
	s := &e.serve
	s.Svc, s.Keys, s.Logger, s.MaxBody = e.svc, e.keys, e.log, e.maxBody
	if e.iam != nil {
		s.Identity = e.iam.identity // iam.go
	}
	s.Branch = e.branchNamespace // branches.go
	s.Limit.Max = int64(e.opts.MaxInFlight)
	s.Budget.Init(e.opts.MaxRequestBytesInFlight)
}

// serviceConfig is the configuration of e's service: e's options, logger
// and clock, and the memory releaser that hears of dropped tables.
func (e *Emulator) serviceConfig() service.Config {
	cfg := service.Config{
		Features:         features(), // features.go
		Stages:           stages(),
		SharedDB:         e.opts.SharedDB,
		Logger:           e.log,
		Clock:            e.clock,
		RealClock:        e.opts.Clock == nil,
		IdempotencyBytes: e.opts.IdempotencyBytes,
		TransientDelay:   e.opts.transientDelay(),
		Streams:          streamrec.Options{Retention: e.opts.StreamRetention, Budget: e.streamBudget, Changes: &e.streamChanges},
		TableDropped:     e.serve.Release.Deleted,
		// The stages' settings: the fault rules (emulator/internal/stages/faults),
		// throttling's (emulator/internal/stages/throttle), the conventions
		// check's (emulator/internal/stages/conventions), the lags given at
		// start and, below, consistency fuzzing's (emulator/internal/stages/lag);
		// and a feature's: the directory standing for S3 (emulator/internal/transfers),
		// each under its reader's key (features.go).
		Settings:           e.settings(),
		ApproximateVectors: e.opts.ApproximateVectors,
	}
	if e.fuzzer != nil {
		cfg.Settings = append(cfg.Settings, lag.FuzzerSetting.With(e.fuzzer)) // consistency fuzzing's (emulator/internal/stages/lag)
	}
	return cfg
}

// throttleSettings are the throttle stage's settings, from the options.
func (e *Emulator) throttleSettings() throttle.Settings {
	return throttle.Settings(e.opts.Faults.Throttle)
}

// Close stops the emulator's background work (the janitor that forgets
// expired ClientRequestTokens) and, with Options.DataDir, makes every
// change durable and unlocks the directory. The emulator still answers
// requests after it (with DataDir, changes then fail). Close is safe to
// call more than once; it returns the store's error, if any.
func (e *Emulator) Close() error {
	e.esm().Close() // the event source mappings' pollers (stream_handlers.go)
	e.svc.Close()
	if e.iam != nil {
		e.iam.disable()
	}
	if e.store != nil {
		return e.store.Close()
	}
	return nil
}

// Options returns the options the Emulator was made with.
func (e *Emulator) Options() Options { return e.opts }

// Handler returns the HTTP handler of the DynamoDB API: POST / with an
// X-Amz-Target header naming the operation.
func (e *Emulator) Handler() http.Handler { return e.handler }

// serveOp is POST / on the net/http path: the request's few header values
// go to the request path (e.serve.Serve, emulator/internal/apiserve), the answer to writeResponse. It checks neither the
// Origin nor the Content-Type: the operation is named by X-Amz-Target
// alone, a header that a web page cannot send to another site without a
// CORS preflight, which only -cors origins pass (httpedge/adminguard.go).
func (e *Emulator) serveOp(w http.ResponseWriter, r *http.Request) {
	in := apiserve.Request{
		Ctx:             r.Context(),
		Target:          headerGet(r.Header, hdrTarget),
		Auth:            headerGet(r.Header, hdrAuthorization),
		Host:            r.Host,
		Tenant:          headerGet(r.Header, headerTenantCode),
		Branch:          headerGet(r.Header, headerBranch),
		ContentEncoding: r.Header["Content-Encoding"],
		ContentLength:   r.ContentLength,
		Body:            r.Body,
		Remote:          r.RemoteAddr,
		W:               w,
	}
	if in.Auth == "" && e.keys == nil {
		in.Presigned = r.URL.Query().Get("X-Amz-Credential")
	}
	if e.keys != nil {
		in.Req = r
	}
	in.RL = httpedge.NewRequestLog(in.Ctx, e.log)
	e.cors.Apply(w, r)
	out := apiserve.AnswerBodies.Get() // apiserve/pools.go
	ans := e.serve.Serve(&in, (*out)[:0])
	if ans.CutOff {
		// Nobody is left to answer (the client went away, or the server
		// is closing): drop the connection without a response.
		panic(http.ErrAbortHandler)
	}
	if ans.Close {
		// A body cut off, unread: net/http closes the connection after
		// the answer (and waits for the client to read it first when
		// much of the body is left).
		w.Header()["Connection"] = connectionClose
	}
	if ans.RetryAfter {
		w.Header()["Retry-After"] = retryAfterValue
	}
	ct, coding := headerGet(r.Header, hdrContentType), ""
	if len(ans.Body) >= httploop.MinCompressed {
		coding = httploop.ResponseCoding(r.Header)
	}
	e.writeFromNow(w)
	if err := httploop.WriteAnswer(w, ct, coding, ans.ReqID, ans.Status, ans.Body); err != nil && httploop.IsTimeout(err) {
		e.log.Warn("answer cut off: write timeout (response not read)", "request_id", ans.ReqID, "remote", in.RemoteAddr(), "err", err)
	}
	e.serve.Recycle(&ans, out)
	e.serve.LogAnswer(&in, &ans) // before net/http flushes the answer
}

// The request headers serveOp reads, in their canonical form: net/http
// keeps a request's header keys canonical, so headerGet looks them up as
// they are (TestHeaderKeysCanonical).
const (
	hdrTarget        = "X-Amz-Target"
	hdrAuthorization = "Authorization"
	hdrContentType   = "Content-Type"
	hdrOrigin        = "Origin"
)

// headerGet is h.Get(key) for a key already canonical, without Get's
// canonicalising of the key, which every request's headers would pay
// (BenchmarkOps/GetItem/handler).
func headerGet(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// retryAfterValue is a throttled answer's Retry-After header.
var retryAfterValue = []string{apiserve.RetryAfterSeconds}

// connectionClose is the Connection header of an answer after which the
// connection closes.
var connectionClose = []string{"close"}

// writeResponse writes a JSON body with the headers the AWS SDKs expect,
// x-amz-crc32 above all (they verify it), compressed when the client
// allows it and the body is large enough (httploop: the coding and Compress).
func writeResponse(w http.ResponseWriter, r *http.Request, reqID string, status int, body []byte) {
	coding := ""
	if len(body) >= httploop.MinCompressed {
		coding = httploop.ResponseCoding(r.Header)
	}
	_ = httploop.WriteAnswer(w, headerGet(r.Header, hdrContentType), coding, reqID, status, body)
}

// writeFromNow starts the write timeout of w's answer now: WriteTimeout
// counts from the answer being ready, not from the request's start, so
// a request slow to serve (a machine under load, a drain that waits for
// stream handlers) is still answered, and the timeout bounds only a
// client that does not read (membudget.go's notes).
func (e *Emulator) writeFromNow(w http.ResponseWriter) {
	if d := e.writeTimeout.Load(); d > 0 {
		_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(time.Duration(d)))
	}
}

// answerDeadline is an admin handler's writer whose write timeout starts
// with its answer (writeFromNow), not with the request: an admin request
// slow to serve (a drain waiting for stream handlers, a snapshot of a
// large namespace) is still answered.
type answerDeadline struct {
	http.ResponseWriter
	e       *Emulator
	started bool
}

func (w *answerDeadline) begin() {
	if !w.started {
		w.started = true
		w.e.writeFromNow(w.ResponseWriter)
	}
}

func (w *answerDeadline) WriteHeader(code int)        { w.begin(); w.ResponseWriter.WriteHeader(code) }
func (w *answerDeadline) Write(b []byte) (int, error) { w.begin(); return w.ResponseWriter.Write(b) }
func (w *answerDeadline) Flush()                      { w.begin(); _ = http.NewResponseController(w.ResponseWriter).Flush() }
func (w *answerDeadline) Unwrap() http.ResponseWriter { return w.ResponseWriter }
