package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// Options configure a Server. The zero value serves the namespace
// local/us-east-1 with the default caps.
type Options struct {
	// AccessKey and Region choose the namespace the tools use (each
	// access key and region is a database of its own, as for any
	// client); "" means "local" and "us-east-1", the console's default.
	// With the emulator's SharedDB every namespace is the same.
	AccessKey, Region string
	// ReadOnly refuses every tool that changes data or the emulator's
	// state (writes, tables, TTL sweeps, snapshots, faults, lag, the
	// design, the report's counters).
	ReadOnly bool
	// MaxItems caps the items a read returns (Query, Scan, BatchGetItem,
	// PartiQL, stream records): a larger Limit is lowered to it and the
	// result says how to page on. 0 means DefaultMaxItems.
	MaxItems int
	// MaxBytes caps the JSON text of any result: items past it are left
	// out (with the key to page on from), other results cut. 0 means
	// DefaultMaxBytes.
	MaxBytes int
	// SnapshotDeletes: a call that may delete more than this many items
	// (a batch, a transaction, a TTL sweep), and every DeleteTable, takes
	// a snapshot first (snapshot_restore undoes it). 0 means
	// DefaultSnapshotDeletes; negative turns the automatic snapshots off.
	SnapshotDeletes int
	// KeepSnapshots bounds the automatic snapshots kept (the oldest are
	// dropped); 0 means DefaultKeepSnapshots.
	KeepSnapshots int
	// Tools names the tool groups listed besides the core group
	// (ToolGroupNames; AllToolGroups lists every one).
	Tools []string
	// Version is the server's version in the MCP handshake.
	Version string
	// Logger receives the server's logs; nil discards them.
	Logger *slog.Logger
}

// Defaults of Options.
const (
	DefaultMaxItems        = 100
	DefaultMaxBytes        = 256 << 10
	DefaultSnapshotDeletes = 10
	DefaultKeepSnapshots   = 10
)

// Validate reports whether the options are usable.
func (o Options) Validate() error {
	switch {
	case o.MaxItems < 0:
		return fmt.Errorf("mcp: MaxItems %d is negative", o.MaxItems)
	case o.MaxBytes < 0:
		return fmt.Errorf("mcp: MaxBytes %d is negative", o.MaxBytes)
	case o.MaxBytes > 0 && o.MaxBytes < 1024:
		return fmt.Errorf("mcp: MaxBytes %d is under 1024: no item would fit", o.MaxBytes)
	case o.KeepSnapshots < 0:
		return fmt.Errorf("mcp: KeepSnapshots %d is negative", o.KeepSnapshots)
	}
	return checkGroups(o.Tools)
}

func (o Options) withDefaults() Options {
	if o.AccessKey == "" {
		o.AccessKey = "local"
	}
	if o.Region == "" {
		o.Region = "us-east-1"
	}
	if o.MaxItems == 0 {
		o.MaxItems = DefaultMaxItems
	}
	if o.MaxBytes == 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.SnapshotDeletes == 0 {
		o.SnapshotDeletes = DefaultSnapshotDeletes
	}
	if o.KeepSnapshots == 0 {
		o.KeepSnapshots = DefaultKeepSnapshots
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// Server is an MCP server over one emulator.
type Server struct {
	emu   *emulator.Emulator
	opts  Options
	eng   engine
	sdk   *sdk.Server
	snaps snapshotBook

	mu      sync.Mutex // guards tools and enabled: enable_tools adds to them while other calls run
	tools   []*tool    // the tools listed
	enabled []string   // the groups listed besides the core group (AllToolGroups: every one)
}

// baseInstructions is what the handshake tells an agent about the
// server, before its tool groups and design.
const baseInstructions = `dynamoemu: a local DynamoDB (the DynamoDB JSON protocol, AWS's behaviour) with the tools to see whether the traffic fits its single-table design.
Items, keys and expression values are DynamoDB JSON ({"pk": {"S": "ORDER#1"}, "total": {"N": "12.5"}}); each DynamoDB tool takes the operation's request as the AWS API reference gives it.
Reads return at most the server's item and byte caps; a capped result says how to page on (ExclusiveStartKey, NextToken).
design_match and explain tell whether a request is served by the table's key or an index as the design intends.`

// New returns an MCP server whose tools use emu.
func New(emu *emulator.Emulator, opts Options) (*Server, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	opts = opts.withDefaults()
	s := &Server{emu: emu, opts: opts, eng: newEngine(emu, opts.AccessKey, opts.Region), enabled: slices.Clone(opts.Tools)}
	s.snaps.keep = opts.KeepSnapshots
	// listChanged: enable_tools adds tools in a session, and the SDK
	// sends notifications/tools/list_changed to the sessions connected.
	s.sdk = sdk.NewServer(&sdk.Implementation{Name: "dynamoemu", Title: "dynamoemu", Version: opts.Version},
		&sdk.ServerOptions{Instructions: s.instructions(), Logger: opts.Logger, Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{ListChanged: true}}})
	s.sdk.AddReceivingMiddleware(s.unlistedTools)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.allTools() {
		if s.listedLocked(t) {
			s.add(t)
		}
	}
	return s, nil
}

// SDK returns the server as the SDK's, to connect it to a transport.
func (s *Server) SDK() *sdk.Server { return s.sdk }

// Run serves one client over t (stdin and stdout: StdioTransport, which
// no single message ends) until it disconnects or ctx is done.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	err := s.sdk.Run(ctx, t)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// MaxHTTPBody is the largest request body the HTTP endpoint takes: the
// SDK's default (sdk.DefaultMaxRequestBodyBytes, 4 MiB). A body over it
// is 413; a body announced over it is answered from its head, before
// any of it is read.
const MaxHTTPBody = sdk.DefaultMaxRequestBodyBytes

// HTTPHandler returns the streamable HTTP endpoint of the server, which
// requires token as a bearer token (RequireToken). It is stateless: each
// POST is answered with JSON, with no session to keep, which suits the
// emulator's server timeouts. A message it cannot take (over
// MaxHTTPBody, nested deeper than MaxMessageDepth, not JSON-RPC) is a
// 4xx answer to its request, and the next is served.
//
// A request read is answered even when its client has closed its side
// of the connection after sending it: net/http ends the request's
// context when it reads the connection's end, which cancelled the call
// unanswered; a POST's call runs on a context that is not cancelled, to
// its answer (a tool call is bounded by its own work).
func (s *Server) HTTPHandler(token string) http.Handler {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.sdk }, &sdk.StreamableHTTPOptions{
		Stateless:           true,
		JSONResponse:        true,
		Logger:              s.opts.Logger,
		MaxRequestBodyBytes: MaxHTTPBody,
		// The emulator's Host check (emulator/hosts.go) stands in front:
		// it answers the -allowHost names the SDK's own check would refuse.
		DisableLocalhostProtection: true,
	})
	return RequireToken(token, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > MaxHTTPBody {
			http.Error(w, fmt.Sprintf("request body exceeds %d bytes", MaxHTTPBody), http.StatusRequestEntityTooLarge)
			return
		}
		if r.Method == http.MethodPost { // a call, answered as JSON; not a stream (GET)
			r = r.WithContext(context.WithoutCancel(r.Context()))
		}
		h.ServeHTTP(w, r)
	}))
}

// Mount is an http.Handler that serves a handler set later: the emulator
// takes its MCP handler before the server that makes it exists. SetLazy
// defers making it to the first request, so that a server start does not
// pay for the tools of a client that may never come (BenchmarkStartup).
// Until either is set it answers 503.
type Mount struct {
	mu    sync.Mutex // guards h and build
	h     http.Handler
	build func() http.Handler
}

// Set makes m serve h.
func (m *Mount) Set(h http.Handler) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.h, m.build = h, nil
}

// SetLazy makes m serve what build returns, called at the first request.
func (m *Mount) SetLazy(build func() http.Handler) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.h, m.build = nil, build
}

// handler returns the handler to serve, making it if need be.
func (m *Mount) handler() http.Handler {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.h == nil && m.build != nil {
		m.h, m.build = m.build(), nil
	}
	return m.h
}

func (m *Mount) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := m.handler()
	if h == nil {
		http.Error(w, "the MCP server is starting", http.StatusServiceUnavailable)
		return
	}
	h.ServeHTTP(w, r)
}
