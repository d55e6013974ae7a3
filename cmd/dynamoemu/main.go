package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/dynamoemu/dynamoemu/cmd/internal/mcp"
	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr, nil)
	os.Exit(exitStatus(err, os.Stderr))
}

// exitStatus is the process's exit status for run's error, which it
// writes to stderr when no one has said it yet.
func exitStatus(err error, stderr io.Writer) int {
	var checker checkerExit
	var imp importExit
	var capt captureExit
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &checker):
		return int(checker) // the conventions check's status; it said why
	case errors.As(err, &imp):
		return int(imp) // the import's status; it said why
	case errors.As(err, &capt):
		return int(capt) // record's or replay's status (1: departures); it said why
	}
	fmt.Fprintln(stderr, "dynamoemu:", err)
	switch {
	case errors.Is(err, errUnhealthy):
		return 1
	case errors.Is(err, errImportMissing), errors.Is(err, errCaptureMissing):
		return exitImportMissing
	}
	return 2
}

// command is one of the binary's commands: its first argument names it.
type command struct {
	name  string
	usage string // its line of -help, after "dynamoemu NAME"
	run   func(args []string, std stdio) error
}

// stdio is what a command reads and writes; ready, if not nil, receives
// the server's address once it listens (serve only).
type stdio struct {
	in       io.Reader
	out, err io.Writer
	ready    chan<- string
}

// commands is the binary's table of commands. Without one of their names
// first, the arguments are the server's flags ("dynamoemu -port 8001" is
// "dynamoemu serve -port 8001").
func commands() []command {
	return []command{
		{"serve", "[flags]                  (the server; the default: dynamoemu -help)", func(a []string, s stdio) error {
			return serve(a, s.out, s.err, s.ready)
		}},
		{"check", "--endpoint URL --config FILE  (the conventions check of any endpoint: dynamoemu check -h)", func(a []string, s stdio) error {
			return runConventions(append([]string{"check"}, a...), s.out, s.err)
		}},
		{"conventions", "check ...          (the same, by its older name)", func(a []string, s stdio) error {
			return runConventions(a, s.out, s.err)
		}},
		{"mcp", "[flags]                    (an MCP server on stdin and stdout: dynamoemu mcp -help)", func(a []string, s stdio) error {
			return runMCP(a, s.in, s.out, s.err)
		}},
		{"healthcheck", "[URL]              (ask a running server; exit 0 if it answers: dynamoemu healthcheck -h)", func(a []string, s stdio) error {
			return runHealthcheck(a, s.out, s.err)
		}},
		{"record", "-upstream URL -tablePrefix P -out FILE [-port N]  (a proxy writing a capture: runs the optional dynamoemu-capture)", func(a []string, s stdio) error {
			return runCapture("record", a, s.out, s.err)
		}},
		{"replay", "[-endpoint URL] [-json] [-ignore PATHS] FILE  (a capture against the emulator: runs the optional dynamoemu-capture)", func(a []string, s stdio) error {
			return runCapture("replay", a, s.out, s.err)
		}},
		{"import-ddblocal", "-from DIR -dbPath DIR  (DynamoDB Local's data: runs the optional dynamoemu-import-ddblocal)", func(a []string, s stdio) error {
			return runImport(a, s.out, s.err)
		}},
	}
}

// run runs the command args name (the server without one) with the
// process's stdin. ready, if not nil, receives the server's listening
// address. Only -version, DynamoDB Local's start-up block and LocalStack's
// "Ready." write to stdout; -help and the logs go to stderr.
func run(args []string, stdout, stderr io.Writer, ready chan<- string) error {
	std := stdio{in: os.Stdin, out: stdout, err: stderr, ready: ready}
	cmds := commands()
	find := func(name string) *command {
		for i := range cmds {
			if cmds[i].name == name {
				return &cmds[i]
			}
		}
		return nil
	}
	// The container image's entrypoint is "dynamoemu -host 0.0.0.0":
	// "docker run IMAGE check ..." comes as "-host 0.0.0.0 check ...",
	// and the other commands do not listen.
	if len(args) >= 3 && (args[0] == "-host" || args[0] == "--host") {
		if c := find(args[2]); c != nil && c.name != "serve" {
			args = args[2:]
		}
	}
	if len(args) > 0 {
		if c := find(args[0]); c != nil {
			return c.run(args[1:], std)
		}
	}
	return find("serve").run(args, std)
}

// usageHead is -help's first lines: the commands.
func usageHead() string {
	var b strings.Builder
	for i, c := range commands() {
		lead := "       "
		if i == 0 {
			lead = "Usage: "
		}
		fmt.Fprintf(&b, "%sdynamoemu %s %s\n", lead, c.name, c.usage)
	}
	b.WriteString("\nAn in-memory DynamoDB-compatible server.\n\n")
	return b.String()
}

// config is the command line.
type config struct {
	port                   int
	host                   string
	hostSet                bool // -host given: listen there alone
	inMemory               bool
	sharedDB               bool
	cors                   string
	allowHosts             hostList // -allowHost, repeatable
	delayTransientStatuses bool
	logLevel               string
	conventions            string // conventions configuration file
	healthcheck            bool   // probe a running server and exit (healthcheck.go)
	version                bool   // print the version and exit
	console                bool   // serve the web console at adminpath.Console
	inMemorySet            bool   // -inMemory given
	dbPath                 string // keep the data in this directory (persistence.go)
	shutdownGrace          time.Duration
	parentPid              int        // stop once this process is gone (parent.go)
	exportDir              string     // the directory standing for S3 in exports and imports
	approximateVectors     bool       // vector indexes search approximately (HNSW)
	consistency            string     // -consistency, or DYNAMOEMU_CONSISTENCY: "strong" or "fuzz:SEED"
	store                  storeFlags // -durability and the like (persistence.go)
	// Accepted so DynamoDB Local command lines run unchanged; nothing is
	// sent anywhere.
	disableTelemetry        bool
	optimizeDbBeforeStartup bool
	limits                  limitFlags // limits.go
	ttlSweepInterval        time.Duration
	faults                  faultFlags      // faults.go
	httpLoop                string          // -httpLoop: own or std (emulator.HTTPLoop)
	mcp                     mcpFlags        // -mcp and its kin, -load (mcp.go)
	credentials             string          // -credentials: the keys whose signatures are verified (credentials.go)
	iamPolicies             string          // -iamPolicies: the IAM policy mode's identities (credentials.go)
	portSet                 bool            // -port given
	mcpSet                  bool            // -mcp given: its being off is worth a warning
	ddbLocal                bool            // started through DynamoDB Local's command line (ddblocal_mode.go)
	ddbLocalCwd             bool            // ddbLocal, and the data is in the working directory for want of -inMemory or -dbPath
	localstack              localstackFlags // -localstack and LocalStack's environment (localstack.go)
	lambdaEndpoint          string          // -lambdaEndpoint: where stream handlers are invoked (docs/stream-handlers.md)
	eventSourceMappings     string          // -eventSourceMappings: a mappings file
	serverless              string          // -serverless: a serverless.yml whose stream events become mappings
	streamRetryBackoff      time.Duration   // -streamRetryBackoff: a stream handler's wait before its first retry
	streamHandlerFileDir    string          // -streamHandlerFileDir: where file:// on-failure destinations may write
	streamHandlerRemote     bool            // -streamHandlerRemote: mappings may call hosts other than loopback
	streamFilterQuota       int             // -streamHandlerFilterQuota: filters a mapping may have
}

func parseFlags(args []string, out io.Writer) (config, error) {
	return parseFlagsAs(args, out, false, nil)
}

// parseFlagsAs parses the command line of a server started through
// DynamoDB Local's command line when ddbLocal is true (ddblocal_mode.go),
// with LocalStack's environment read by getenv (nil: none; localstack.go).
func parseFlagsAs(args []string, out io.Writer, ddbLocal bool, getenv func(string) string) (config, error) {
	var c config
	c.ddbLocal = ddbLocal
	fs := flag.NewFlagSet("dynamoemu", flag.ContinueOnError)
	fs.SetOutput(out)
	c.addFlags(fs)
	fs.Usage = func() {
		if ddbLocal {
			fmt.Fprint(fs.Output(), ddbLocalUsage)
		}
		fmt.Fprint(fs.Output(), usageHead())
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	fs.Visit(func(f *flag.Flag) {
		c.hostSet = c.hostSet || f.Name == "host"
		c.inMemorySet = c.inMemorySet || f.Name == "inMemory"
		c.portSet = c.portSet || f.Name == "port"
		c.mcpSet = c.mcpSet || f.Name == "mcp"
	})
	if err := c.localstack.fromEnv(getenv); err != nil {
		return c, err
	}
	if c.localstack.on {
		c.localstackDefaults()
	}
	if err := c.check(fs, ddbLocal, getenv); err != nil {
		return c, err
	}
	return c, nil
}

// addFlags defines the server's flags on fs, each setting its member
// of c.
func (c *config) addFlags(fs *flag.FlagSet) {
	fs.IntVar(&c.port, "port", 8000, "TCP port to listen on")
	// No default in the flag: -help would print (default "127.0.0.1"),
	// while without -host the server listens on both loopbacks.
	fs.StringVar(&c.host, "host", "", "address to listen on, such as 0.0.0.0 (all interfaces, as in a container) or one address (default: both loopbacks, 127.0.0.1 and ::1, on the same port)")
	fs.BoolVar(&c.inMemory, "inMemory", true, "keep data in memory only, lost at exit (the default; not with -dbPath)")
	fs.BoolVar(&c.sharedDB, "sharedDb", false, "one database for all credentials and regions")
	fs.StringVar(&c.cors, "cors", "", `more origins whose web pages may call the API and the /dynamoemu/ admin endpoints: a comma-separated list, or "*" for any (answered "Access-Control-Allow-Origin: *"); pages of http://localhost:*, http://127.0.0.1:* and http://[::1]:* are always allowed`)
	fs.Var(&c.allowHosts, "allowHost", "also answer requests whose Host is this name (repeatable or comma-separated; *.example.com: every name under example.com; *: any Host). Always answered: localhost, *.localhost, *.internal, IP addresses; on non-loopback interfaces also single-label names, *.local, *.home.arpa")
	fs.BoolVar(&c.delayTransientStatuses, "delayTransientStatuses", false, "keep a new table CREATING, a deleted table DELETING and a GSI added or deleted by UpdateTable CREATING or DELETING for half a second, as AWS does")
	fs.StringVar(&c.logLevel, "logLevel", "info", "log level: debug, info, warn or error")
	fs.StringVar(&c.conventions, "conventions", "", "check the mbc-cqrs-serverless conventions on the tables this JSON file names (see docs/conventions.md); tables tagged dynamoemu:conventions are checked with or without it")
	fs.StringVar(&c.credentials, "credentials", "", "accept only the access keys this JSON file lists and verify every request's SigV4 signature as AWS does; the admin endpoints then need one of these keys or an admin token of the file (see docs/server.md). Default: any credentials work, as in DynamoDB Local")
	fs.StringVar(&c.iamPolicies, "iamPolicies", "", "with -credentials, decide every data-plane, control-plane and Streams API request of the access keys this JSON file gives an identity with IAM's logic: their identity policies and the tables' resource-based policies (see docs/iam.md). Default: off")
	fs.BoolVar(&c.console, "console", true, "serve the web console at "+adminpath.Console+" on the same port (-console=false turns it off)")
	fs.BoolVar(&c.version, "version", false, "print the version and exit")
	fs.BoolVar(&c.healthcheck, "healthcheck", false, "ask the server at -host and -port for ListTables; exit 0 if it answers, 1 if not (the container's HEALTHCHECK)")
	fs.BoolVar(&c.approximateVectors, "approximateVectors", false, "vector indexes search approximately (an HNSW graph) instead of exactly: faster on large local data sets, answers may miss true nearest neighbours")
	fs.StringVar(&c.exportDir, "exportDir", "", "the directory standing for Amazon S3 in ExportTableToPointInTime and ImportTable: a bucket is a subdirectory, made first (an export to a bucket not made ends FAILED, S3NoSuchBucket), an object key a path below it (default: dynamoemu-s3 in the system's temporary directory)")
	fs.StringVar(&c.dbPath, "dbPath", "", "keep every table in this directory (created if need be; one subdirectory per database, as DynamoDB Local names its files) and load it at start-up; see -durability")
	fs.StringVar(&c.store.durability, "durability", "sync", "with -dbPath, when a write is acknowledged: sync (its log record is fsync'd: survives kill -9, an OS crash and a power cut), group (the same; when several clients write, an fsync waits up to -groupCommitWindow for them all to share it) or none (written to the OS: survives kill -9, not an OS crash or power cut)")
	fs.DurationVar(&c.store.groupCommitWindow, "groupCommitWindow", 2*time.Millisecond, "with -durability group, the longest an fsync waits for the writers that shared the last one to share it too")
	fs.Int64Var(&c.store.compactBytes, "dbCompactBytes", 32<<20, "with -dbPath, fold a database's log into a new snapshot once it has grown past this many bytes and past a quarter of the last snapshot's size")
	fs.BoolVar(&c.store.acceptLoss, "dbAcceptLoss", false, "with -dbPath, open a database whose files do not hold its whole history (a log segment missing, a gap after its snapshot, a file of another database) at the records before the first missing one, logging what is lost and setting the files after it aside; without it such a database stops the start-up, naming the files")
	fs.BoolVar(&c.disableTelemetry, "disableTelemetry", false, "accepted for DynamoDB Local compatibility; dynamoemu sends no telemetry")
	fs.DurationVar(&c.shutdownGrace, "shutdownGrace", 5*time.Second, "on SIGTERM or SIGINT, how long requests still running may finish; those still running then get no answer, and the server exits 0 (a process supervisor's stop timeout should be longer: Docker's is 10s)")
	fs.IntVar(&c.parentPid, "parentPid", 0, "stop (as on SIGTERM) once the process of this id is gone, however it ended, even by SIGKILL: the npm package passes its Node process's id, so that no server outlives it (0: none)")
	fs.DurationVar(&c.ttlSweepInterval, "ttlSweepInterval", time.Minute, "how often expired TTL items are deleted (0 disables the sweeper; POST /dynamoemu/ttl/sweep sweeps at once)")
	fs.StringVar(&c.lambdaEndpoint, "lambdaEndpoint", "", "the Lambda endpoint stream handlers are invoked at (POST URL/2015-03-31/functions/NAME/invocations; serverless-offline's lambda port, e.g. http://localhost:3002)")
	fs.StringVar(&c.serverless, "serverless", "", "a Serverless Framework serverless.yml: each function's DynamoDB stream events become event source mappings to the function (with -lambdaEndpoint, serverless-offline's lambda port)")
	fs.DurationVar(&c.streamRetryBackoff, "streamRetryBackoff", 0, "how long a stream handler waits before retrying a failed batch the first time (0: 1s); each next retry waits twice as long, up to 60 times this (tests: 1ms)")
	fs.StringVar(&c.streamHandlerFileDir, "streamHandlerFileDir", "", "let stream handlers' file:// on-failure destinations append to files in this directory (default: a mapping with a file:// destination is refused, whoever makes it)")
	fs.IntVar(&c.streamFilterQuota, "streamHandlerFilterQuota", 0, "how many filters a stream handler (event source mapping) may have: Lambda's default quota, 5, when 0; up to 10, as a quota increase allows")
	fs.BoolVar(&c.streamHandlerRemote, "streamHandlerRemote", false, "let stream handlers' Endpoint and http(s) on-failure destinations name hosts other than loopback (default: such a mapping is refused; -lambdaEndpoint may name any host)")
	fs.StringVar(&c.eventSourceMappings, "eventSourceMappings", "", "a JSON file of Lambda event source mappings from tables' streams to functions (docs/stream-handlers.md)")
	fs.BoolVar(&c.optimizeDbBeforeStartup, "optimizeDbBeforeStartup", false, "accepted for DynamoDB Local compatibility; ignored")
	fs.StringVar(&c.consistency, "consistency", "", `"fuzz:SEED": consistency fuzzing, GSI reads, eventually consistent reads and stream records lag by seeded random amounts within a second and every stale read is reported at GET /dynamoemu/consistency (docs/consistency.md); "strong" or "": off (default: $DYNAMOEMU_CONSISTENCY)`)
	addLimitFlags(fs, &c.limits)
	fs.StringVar(&c.httpLoop, "httpLoop", string(emulator.LoopOwn), "how API calls are read off connections: own (the emulator's connection loop; other requests go to net/http) or std (net/http for everything)")
	addFaultFlags(fs, &c.faults)
	addMCPFlags(fs, &c.mcp, "mcp")
	addLocalstackFlags(fs, &c.localstack)
}

// check completes and checks c once fs has parsed the command line:
// defaults of DynamoDB Local's command line (ddbLocal) and of -host, the
// environment's -consistency, and every value's range.
func (c *config) check(fs *flag.FlagSet, ddbLocal bool, getenv func(string) string) error {
	if c.localstack.initTimeout <= 0 {
		return fmt.Errorf("-localstackInitTimeout %v: want a positive duration", c.localstack.initTimeout)
	}
	if ddbLocal {
		c.ddbLocalDefaults()
	}
	if !c.hostSet {
		c.host = "127.0.0.1" // and ::1 (listen.go)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if c.port < 0 || c.port > 65535 {
		return fmt.Errorf("-port %d out of range", c.port)
	}
	if err := c.limits.validate(); err != nil {
		return err
	}
	if l := emulator.HTTPLoop(c.httpLoop); l != emulator.LoopOwn && l != emulator.LoopStd {
		return fmt.Errorf("-httpLoop %q: want own or std", c.httpLoop)
	}
	if err := c.validatePersistence(); err != nil {
		return err
	}
	if err := (emulator.Options{AllowHosts: c.allowHosts}).Validate(); err != nil {
		return fmt.Errorf("-allowHost: %w", err)
	}
	if err := c.mcp.validate("mcp"); err != nil {
		return err
	}
	if c.consistency == "" && getenv != nil {
		c.consistency = getenv(consistencyEnv)
	}
	if err := (emulator.Options{Consistency: c.consistency}).Validate(); err != nil {
		return fmt.Errorf("-consistency: %w", err)
	}
	return nil
}

// consistencyEnv sets -consistency when the flag is not given.
const consistencyEnv = "DYNAMOEMU_CONSISTENCY"

func (c config) options(log *slog.Logger) emulator.Options {
	opts := emulator.Options{
		SharedDB:                 c.sharedDB,
		Logger:                   log,
		DelayTransientStatuses:   c.delayTransientStatuses,
		MaxInFlight:              c.limits.maxInFlight,
		MaxRequestBytesInFlight:  c.limits.requestBudget(),
		StreamRetentionBytes:     c.limits.streamBytes,
		AllowHosts:               c.allowHosts,
		IdempotencyBytes:         c.limits.tokenBytes,
		ExportDir:                c.exportDir,
		ApproximateVectors:       c.approximateVectors,
		Consistency:              c.consistency,
		StreamRetryBackoff:       c.streamRetryBackoff,
		StreamHandlerFileDir:     c.streamHandlerFileDir,
		StreamHandlerRemote:      c.streamHandlerRemote,
		StreamHandlerFilterQuota: c.streamFilterQuota,
	}
	switch {
	case c.ddbLocal:
		opts.Edge = ddbLocalEdge
	case c.localstack.on:
		opts.Edge = c.localstack.edge
	}
	c.persistOptions(&opts)
	for _, o := range strings.Split(c.cors, ",") {
		if o = strings.TrimSpace(o); o != "" {
			opts.CORSOrigins = append(opts.CORSOrigins, o)
		}
	}
	return opts
}

// serve serves until a signal arrives. ready, if not nil, receives the
// listening address. A command line with DynamoDB Local's Java arguments
// ("-jar DynamoDBLocal.jar ...", as an image's command written for
// amazon/dynamodb-local passes them) takes its flags with DynamoDB Local's
// meaning (ddblocal_mode.go). LocalStack's environment is read from the
// process's.
func serve(args []string, stdout, stderr io.Writer, ready chan<- string) error {
	java, args := splitJavaArgs(args)
	c, err := parseFlagsAs(args, stderr, len(java) > 0, os.Getenv)
	if err != nil {
		return err
	}
	if c.version {
		// As DynamoDB Local's -version: the version alone, on stdout.
		_, err := fmt.Fprintln(stdout, emulator.Version())
		return err
	}
	if c.healthcheck {
		return healthcheck(c)
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.logLevel)); err != nil {
		return fmt.Errorf("-logLevel: %w", err)
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	if err := adoptDataOwner(c.dbPath, log); err != nil { // the container image's start (runas_unix.go)
		return err
	}
	warnDDBLocalFiles(c.dbPath, log) // before the store makes its own files (ddblocal_files.go)

	st, err := start(c, log)
	if err != nil {
		return err
	}
	lns, err := listen(c.host, c.port, !c.hostSet, log)
	if err != nil {
		st.emu.Close()
		return err
	}
	return st.serveOn(lns, java, stdout, stderr, ready)
}

// started is a server's emulator, made and loaded, before it listens.
type started struct {
	c     config
	log   *slog.Logger
	opts  emulator.Options
	emu   *emulator.Emulator
	mount *mcp.Mount // the MCP server's, or nil
}

// start makes the emulator c asks for and loads what c names into it: a
// failure after it is made closes it.
func start(c config, log *slog.Logger) (*started, error) {
	opts := c.options(log)
	var err error
	if opts.Conventions, err = loadConventions(c.conventions); err != nil {
		return nil, err
	}
	if err := loadCredentials(c.credentials, &opts); err != nil {
		return nil, err
	}
	if err := loadIAMPolicies(c.iamPolicies, &opts); err != nil {
		return nil, err
	}
	if opts.Console, err = consoleHandler(c); err != nil {
		return nil, err
	}
	if err := c.faults.apply(&opts); err != nil {
		return nil, err
	}
	mount, token := mcpMount(c, log)
	if mount != nil {
		opts.MCP = mount
	}
	setMatcher := mountDesignMatch(&opts) // the console's query builder asks it (mcp.go)
	// -load, made in a scratch emulator first: nothing is made if it fails (load.go).
	load, err := planLoad(context.Background(), c.mcp.load, loadTargetOf(c), opts)
	if err != nil {
		return nil, err
	}
	emu, err := emulator.New(opts)
	if err != nil {
		return nil, explainStoreError(err)
	}
	setMatcher(emu)
	if mount != nil {
		startMCP(c, emu, mount, token, log)
	}
	if err := loadInto(c, emu, load, log); err != nil {
		emu.Close()
		return nil, err
	}
	return &started{c: c, log: log, opts: opts, emu: emu, mount: mount}, nil
}

// loadInto loads -load's plan, -eventSourceMappings and -serverless into
// emu.
func loadInto(c config, emu *emulator.Emulator, load *loadPlan, log *slog.Logger) error {
	if err := load.run(context.Background(), emu, log); err != nil {
		return err
	}
	logScopes(c, log) // which namespaces -conventions, -design and -serverless apply to (load.go)
	if c.eventSourceMappings != "" {
		if err := emu.Streams().LoadMappings(c.eventSourceMappings); err != nil {
			return fmt.Errorf("-eventSourceMappings: %w", err)
		}
	}
	if c.serverless != "" {
		warnings, err := emu.Streams().LoadServerless(c.serverless, os.Getenv)
		for _, w := range warnings {
			log.Warn("-serverless: " + w)
		}
		if err != nil {
			return fmt.Errorf("-serverless: %w", err)
		}
	}
	if c.lambdaEndpoint != "" { // the flag wins over the file's lambdaEndpoint
		emu.Streams().SetLambdaEndpoint(c.lambdaEndpoint)
	}
	return nil
}

// serveOn serves the emulator on lns until a signal, the parent's end or
// a listener's failure, then shuts down and closes it.
func (st *started) serveOn(lns []net.Listener, java []string, stdout, stderr io.Writer, ready chan<- string) error {
	c, log, emu := st.c, st.log, st.emu
	c.limits.applyMemoryLimit(log)
	so := c.limits.serverOptions()
	so.Loop = emulator.HTTPLoop(c.httpLoop)
	srv := emu.NewServer(so)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if c.parentPid != 0 {
		ctx = watchParent(ctx, c.parentPid, log)
	}

	errc := make(chan error, len(lns))
	for _, ln := range lns {
		go func() { errc <- srv.Serve(ln) }()
	}
	go emu.Clock().RunTTLSweeper(ctx, c.ttlSweepInterval)
	go returnAfterBurst(ctx, log)
	returnOnSignal(ctx, log)
	addr := lns[0].Addr().String()
	st.logStart(lns, java)
	if c.ddbLocal {
		if err := printDDBLocalBlock(stdout, c, lns[0].Addr().(*net.TCPAddr).Port); err != nil {
			srv.Close()
			emu.Close()
			return err
		}
	}
	if c.dbPath != "" {
		log.Info("keeping data in "+c.dbPath, "durability", c.store.durability)
	} else {
		log.Info("keeping data in memory only: it is lost at exit (-dbPath keeps it)")
	}
	if c.localstack.on {
		c.localstack.start(ctx, lns[0].Addr(), stdout, log) // init scripts, then "Ready." (localstack.go)
		defer c.localstack.stop(log)
	}
	if ready != nil {
		ready <- addr
	}

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	stop()
	return st.shutdown(srv, lns, errc, stderr)
}

// logStart logs where the server listens and what it serves.
func (st *started) logStart(lns []net.Listener, java []string) {
	c, log := st.c, st.log
	url := "http://" + lns[0].Addr().String()
	if len(lns) > 1 {
		url = "http://localhost:" + strconv.Itoa(lns[0].Addr().(*net.TCPAddr).Port)
	}
	for _, ln := range lns {
		log.Info("dynamoemu listening", "addr", ln.Addr().String(), "url", url, "version", emulator.Version(),
			"sharedDb", c.sharedDB, "cors", c.cors, "allowHost", c.allowHosts.String(), "signatures", len(st.opts.Credentials) > 0)
	}
	if c.console {
		log.Info("console", "url", consoleURL(url, lns[0].Addr()))
	}
	if st.mount != nil {
		log.Info("MCP server (streamable HTTP, bearer token)", "url", strings.TrimSuffix(consoleURL(url, lns[0].Addr()), adminpath.Console)+adminpath.MCP)
	}
	if len(java) > 0 {
		log.Info("started through DynamoDB Local's command line: its Java arguments are ignored, GET answers as DynamoDB Local's", "args", strings.Join(java, " "))
	}
}

// shutdown stops srv within -shutdownGrace, prints the faults' report
// and closes the emulator.
func (st *started) shutdown(srv *emulator.Server, lns []net.Listener, errc chan error, stderr io.Writer) error {
	c, log, emu := st.c, st.log, st.emu
	log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), c.shutdownGrace)
	defer cancel()
	err := srv.Shutdown(shutdownCtx)
	if errors.Is(err, context.DeadlineExceeded) {
		// A stop asked for is a clean exit: a supervisor (systemd,
		// Docker, Kubernetes) reads a non-zero status as a failure. What
		// was cut was never answered, so never acknowledged.
		log.Warn("requests were still running after -shutdownGrace: they are cut, unanswered (never acknowledged)",
			"shutdownGrace", c.shutdownGrace, "openConnections", srv.OpenConns())
		err = srv.Close()
	}
	c.faults.printReport(emu, stderr)
	if cerr := emu.Close(); cerr != nil {
		log.Error("closing the data directory", "err", cerr)
		err = cmp.Or(err, cerr)
	}
	if err != nil {
		return err
	}
	for range lns {
		if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	}
	return nil
}

// hostList is the value of -allowHost: the flag may be repeated, and each
// value may list names separated by commas.
type hostList []string

func (l *hostList) String() string { return strings.Join(*l, ",") }

func (l *hostList) Set(v string) error {
	for _, h := range strings.Split(v, ",") {
		if h = strings.TrimSpace(h); h != "" {
			*l = append(*l, h)
		}
	}
	return nil
}
