package main

import (
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
	"strings"
	"syscall"
	"time"

	"github.com/dynamoemu/dynamoemu/cmd/internal/mcp"
	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// The MCP server (cmd/internal/mcp, docs/mcp.md): on the server's own port at
// adminpath.MCP (streamable HTTP, a bearer token), and as "dynamoemu
// mcp", over stdin and stdout with an engine of its own. -load (a NoSQL
// Workbench model's tables and sample data at start) serves both.

// tokenEnv names the environment variable that may give the MCP token in
// place of -mcpToken (which a process list shows).
const tokenEnv = "DYNAMOEMU_MCP_TOKEN"

// toolsEnv names the environment variable that may give the MCP tool
// groups in place of -mcpTools (-tools).
const toolsEnv = "DYNAMOEMU_MCP_TOOLS"

// mcpFlags are the server's MCP flags.
type mcpFlags struct {
	on              bool
	token           string
	readOnly        bool
	maxItems        int
	maxBytes        int
	snapshotDeletes int
	namespace       string // ACCESSKEY/REGION of the tools
	load            string // -load: a Workbench model or MCP data model to create and fill at start
	loadNamespace   string // -loadNamespace (the server's): where -load's tables go (load.go)
	tools           string // tool groups listed besides the core group
}

// defaultMCPFlags are the MCP flags' defaults on the server.
func defaultMCPFlags() mcpFlags {
	return mcpFlags{on: true, maxItems: mcp.DefaultMaxItems, maxBytes: mcp.DefaultMaxBytes, snapshotDeletes: mcp.DefaultSnapshotDeletes, namespace: "local/us-east-1"}
}

func addMCPFlags(fs *flag.FlagSet, f *mcpFlags, prefix string) {
	if prefix != "" {
		fs.BoolVar(&f.on, "mcp", true, "serve the MCP server at "+adminpath.MCP+" on the same port (streamable HTTP; a bearer token: -mcpToken, or generated and kept in the user's configuration directory on a loopback -host; off on another -host without a token); -mcp=false turns it off")
		fs.StringVar(&f.token, "mcpToken", "", "the MCP endpoint's bearer token, at least 16 characters (or $"+tokenEnv+")")
	}
	fs.BoolVar(&f.readOnly, prefix+flagName(prefix, "readOnly"), false, "MCP tools that change data or the emulator's state are refused")
	fs.IntVar(&f.maxItems, prefix+flagName(prefix, "maxItems"), mcp.DefaultMaxItems, "MCP reads return at most this many items a call (a larger Limit is lowered; the answer says how to page on)")
	fs.IntVar(&f.maxBytes, prefix+flagName(prefix, "maxBytes"), mcp.DefaultMaxBytes, "MCP results are at most this many bytes (items past it are left out, with the key to page on from)")
	fs.IntVar(&f.snapshotDeletes, prefix+flagName(prefix, "snapshotDeletes"), mcp.DefaultSnapshotDeletes, "an MCP call that deletes more items than this (a batch, a transaction, a TTL sweep), and every DeleteTable, takes a snapshot first (-1: never)")
	nsUse := "the MCP tools and -load use"
	if prefix != "" {
		nsUse = "the MCP tools use (and -load, unless -loadNamespace or -localstack says another)"
	}
	fs.StringVar(&f.namespace, prefix+flagName(prefix, "namespace"), "local/us-east-1", "the namespace (ACCESSKEY/REGION) "+nsUse+"; every namespace is the same with -sharedDb")
	fs.StringVar(&f.tools, prefix+flagName(prefix, "tools"), "", "MCP tool groups to list besides core, comma-separated ("+strings.Join(mcp.ToolGroupNames()[1:], ", ")+"), or all (or $"+toolsEnv+"); the core group alone keeps the tool list small in an agent's context")
	where := "in the -namespace namespace, where the MCP tools look"
	if prefix != "" {
		where = "where the clients look: with -sharedDb in the one database; else in -loadNamespace's namespace (default: " + localstackNamespace +
			" with -localstack, LocalStack's keys; else -mcpNamespace's, in the region a serverless.yml names); the log says which and how other keys see them"
		fs.StringVar(&f.loadNamespace, "loadNamespace", "", "the namespace (ACCESSKEY/REGION) -load makes its tables in: the access key and region of the clients that are to see them (not with -sharedDb, where every key sees them)")
	}
	fs.StringVar(&f.load, "load", "", "a NoSQL Workbench data model or AWS's DynamoDB MCP data model (dynamodb_data_model.json): create its tables and put their sample data at start; or infrastructure code: a CloudFormation/SAM template (YAML or JSON), cdk.out (cdk synth) or a serverless.yml, whose DynamoDB tables are created; "+where+". All or nothing: a table or item refused makes none (a table that exists is left as it is)")
}

// flagName is a flag's name after prefix: "readOnly" or, after "mcp",
// "ReadOnly".
func flagName(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return strings.ToUpper(name[:1]) + name[1:]
}

// validate checks the MCP flags.
func (f *mcpFlags) validate(prefix string) error {
	ak, region, ok := strings.Cut(f.namespace, "/")
	if !ok || ak == "" || region == "" {
		return fmt.Errorf("-%s %q: want ACCESSKEY/REGION, such as local/us-east-1", prefix+flagName(prefix, "namespace"), f.namespace)
	}
	if f.loadNamespace != "" {
		if ak, region, ok := strings.Cut(f.loadNamespace, "/"); !ok || ak == "" || region == "" || strings.Contains(region, "/") {
			return fmt.Errorf("-loadNamespace %q: want ACCESSKEY/REGION, such as test/us-east-1", f.loadNamespace)
		}
	}
	if f.token == "" {
		f.token = os.Getenv(tokenEnv)
	}
	if f.tools == "" {
		f.tools = os.Getenv(toolsEnv)
	}
	if f.token != "" {
		if err := mcp.CheckToken(f.token); err != nil {
			return fmt.Errorf("-mcpToken: %w", err)
		}
	}
	return f.options().Validate()
}

// options are the MCP server's options from the flags.
func (f *mcpFlags) options() mcp.Options {
	ak, region, _ := strings.Cut(f.namespace, "/")
	return mcp.Options{AccessKey: ak, Region: region, ReadOnly: f.readOnly, MaxItems: f.maxItems, MaxBytes: f.maxBytes,
		SnapshotDeletes: f.snapshotDeletes, Tools: toolGroups(f.tools), Version: emulator.Version()}
}

// toolGroups splits a comma-separated list of tool groups.
func toolGroups(list string) []string {
	var out []string
	for _, g := range strings.Split(list, ",") {
		if g = strings.TrimSpace(g); g != "" {
			out = append(out, g)
		}
	}
	return out
}

// isLoopbackHost reports whether the server listens on loopback only:
// without -host (both loopbacks), or on localhost or a loopback address.
func (c config) isLoopbackHost() bool {
	if !c.hostSet || c.host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(c.host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// mcpMount decides whether the server serves MCP and with which token:
// it returns the handler to mount (nil: none), which startMCP completes
// once the emulator exists. Off loopback without a token it serves none:
// a generated token in a file on the server's machine is no help to a
// client elsewhere.
func mcpMount(c config, log *slog.Logger) (*mcp.Mount, string) {
	if !c.mcp.on {
		return nil, ""
	}
	token := c.mcp.token
	if token == "" {
		if !c.isLoopbackHost() {
			// In a container (-host 0.0.0.0) that is the default: worth a
			// warning only to whoever asked for -mcp.
			level := slog.LevelDebug
			if c.mcpSet {
				level = slog.LevelWarn
			}
			log.Log(context.Background(), level, "the MCP endpoint is off: on -host "+c.host+" it needs -mcpToken (or $"+tokenEnv+")")
			return nil, ""
		}
		path, err := mcp.TokenPath()
		if err == nil {
			var created bool
			token, created, err = mcp.LoadOrCreateToken(path)
			if err == nil {
				log.Info("MCP token", "file", path, "created", created)
			}
		}
		if err != nil {
			log.Warn("the MCP endpoint is off: no token", "err", err)
			return nil, ""
		}
	}
	return &mcp.Mount{}, token
}

// startMCP sets mount to make the MCP server over emu at its first
// request: a start of the server does not pay for the tools (about 20 ms
// of CPU, BenchmarkStartup) of a client that may never come.
func startMCP(c config, emu *emulator.Emulator, mount *mcp.Mount, token string, log *slog.Logger) {
	opts := c.mcp.options()
	opts.Logger = log
	mount.SetLazy(func() http.Handler {
		srv, err := mcp.New(emu, opts) // the options were validated with the flags
		if err != nil {
			log.Error("the MCP server", "err", err)
			return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				http.Error(w, "the MCP server could not start: "+err.Error(), http.StatusInternalServerError)
			})
		}
		return srv.HTTPHandler(token)
	})
}

// mountDesignMatch mounts, with the console, the MCP server's design
// matcher at adminpath.DesignMatch (the query builder says which
// access pattern a request serves with it); the function it returns
// completes the mount once the emulator exists.
func mountDesignMatch(opts *emulator.Options) func(*emulator.Emulator) {
	if opts.Console == nil {
		return func(*emulator.Emulator) {}
	}
	m := &mcp.Mount{}
	opts.DesignMatch = m
	return func(emu *emulator.Emulator) { m.Set(mcp.MatchHandler(emu)) }
}

// mcpConfig is "dynamoemu mcp"'s command line.
type mcpConfig struct {
	dbPath      string
	store       storeFlags
	sharedDB    bool
	design      string
	conventions string
	report      bool
	logLevel    string
	ttlSweep    time.Duration
	mcp         mcpFlags
}

// parseMCPFlags parses "dynamoemu mcp"'s flags.
func parseMCPFlags(args []string, out io.Writer) (mcpConfig, error) {
	var c mcpConfig
	c.store = defaultStoreFlags()
	fs := flag.NewFlagSet("dynamoemu mcp", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&c.dbPath, "dbPath", "", "keep every table in this directory and load it at start-up (as the server's -dbPath; not while a server uses it)")
	fs.StringVar(&c.store.durability, "durability", c.store.durability, "with -dbPath: sync, group or none (as the server's)")
	fs.BoolVar(&c.sharedDB, "sharedDb", false, "one database for all credentials and regions")
	fs.StringVar(&c.design, "design", "", "check the traffic against this design: a design file, a NoSQL Workbench model, a OneTable schema, ElectroDB entities, a Dynamoose schema, a DynamoDB Toolbox table, AWS's DynamoDB MCP data model or a CloudFormation/SAM/CDK/serverless template (docs/faults.md)")
	fs.StringVar(&c.conventions, "conventions", "", "check the mbc-cqrs-serverless conventions on the tables this JSON file names (docs/conventions.md); tables tagged dynamoemu:conventions are checked with or without it")
	fs.BoolVar(&c.report, "report", true, "collect the access-pattern report from the start (the access_report tool)")
	fs.StringVar(&c.logLevel, "logLevel", "warn", "log level on stderr: debug, info, warn or error")
	fs.DurationVar(&c.ttlSweep, "ttlSweepInterval", time.Minute, "how often expired TTL items are deleted (0: only by the sweep_ttl tool)")
	addMCPFlags(fs, &c.mcp, "")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: dynamoemu mcp [flags]\n\nAn MCP server over stdin and stdout, with an emulator of its own (docs/mcp.md).\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if _, err := emulator.ParseDurability(c.store.durability); err != nil {
		return c, fmt.Errorf("-durability: %w", err)
	}
	return c, c.mcp.validate("")
}

// runMCP is "dynamoemu mcp": an MCP server over in and out until the
// client closes in or a signal arrives. The logs go to stderr: stdout is
// the protocol's.
func runMCP(args []string, in io.Reader, out, stderr io.Writer) error {
	c, err := parseMCPFlags(args, stderr)
	if err != nil {
		return err
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.logLevel)); err != nil {
		return fmt.Errorf("-logLevel: %w", err)
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	opts := emulator.Options{SharedDB: c.sharedDB, Logger: log}
	if c.dbPath != "" {
		d, _ := emulator.ParseDurability(c.store.durability)
		opts.DataDir = c.dbPath
		opts.Persist = emulator.PersistOptions{Durability: d, GroupWindow: c.store.groupCommitWindow, CompactBytes: c.store.compactBytes}
	}
	if opts.Conventions, err = loadConventions(c.conventions); err != nil {
		return err
	}
	if c.design != "" {
		if opts.Faults.Design, err = os.ReadFile(c.design); err != nil {
			return fmt.Errorf("-design: %w", err)
		}
	}
	opts.Faults.Report = c.report
	ak, region, _ := strings.Cut(c.mcp.namespace, "/")
	target := loadTarget{accessKey: ak, region: region, shared: c.sharedDB, why: "-namespace", flag: "-namespace"}
	load, err := planLoad(context.Background(), c.mcp.load, target, opts) // all checked before anything is made (load.go)
	if err != nil {
		return err
	}
	emu, err := emulator.New(opts)
	if err != nil {
		return explainStoreError(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = func() error {
		if err := load.run(ctx, emu, log); err != nil {
			return err
		}
		mo := c.mcp.options()
		mo.Logger = log
		srv, err := mcp.New(emu, mo)
		if err != nil {
			return err
		}
		go emu.Clock().RunTTLSweeper(ctx, c.ttlSweep)
		log.Info("dynamoemu MCP server on stdio", "version", emulator.Version(), "dbPath", c.dbPath, "readOnly", c.mcp.readOnly)
		return srv.Run(ctx, mcp.StdioTransport(in, out, log)) // no single message ends it
	}()
	if cerr := emu.Close(); cerr != nil && err == nil {
		err = cerr
	}
	if errors.Is(err, io.EOF) {
		return nil // the client closed stdin
	}
	return err
}
