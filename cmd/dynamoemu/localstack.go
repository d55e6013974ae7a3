package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// LocalStack's shape, for compose files and harnesses written for
// localstack/localstack with DynamoDB (-localstack, or started with
// LocalStack's environment: SERVICES naming dynamodb or dynamodbstreams,
// or LOCALSTACK_AUTH_TOKEN). The server then:
//   - listens on 4566 (GATEWAY_LISTEN's port and address, or -port and
//     -host, win);
//   - answers GET /_localstack/health with dynamodb and dynamodbstreams
//     "running", and /_localstack/init and /_localstack/init/ready with
//     the state of the ready.d scripts, in LocalStack's JSON shapes;
//   - runs the *.sh files of /etc/localstack/init/ready.d (-localstackInit)
//     in name order once it listens, with AWS_ENDPOINT_URL naming it, then
//     prints "Ready." on stdout (LocalStack prints it before its ready.d
//     scripts; here waiting for it also waits for what they create);
//   - honours DYNAMODB_SHARE_DB=1 (-sharedDb), DEBUG=1 (-logLevel debug),
//     PERSISTENCE=1 (-dbPath /var/lib/localstack/state/dynamodb, unless
//     DYNAMODB_IN_MEMORY=1). Other LocalStack variables are ignored.

// localstackDefaultInitDir is where LocalStack reads its ready.d scripts.
const localstackDefaultInitDir = "/etc/localstack/init/ready.d"

// localstackPersistDir is -dbPath under PERSISTENCE=1: inside
// /var/lib/localstack, the directory LocalStack's compose files mount.
const localstackPersistDir = "/var/lib/localstack/state/dynamodb"

// localstackFlags are -localstack, -localstackInit and what LocalStack's
// environment asked for.
type localstackFlags struct {
	on      bool   // LocalStack's shape
	flag    bool   // -localstack given
	initDir string // the ready.d directory
	why     string // what turned it on
	listen  string // GATEWAY_LISTEN's first address
	share   bool   // DYNAMODB_SHARE_DB=1
	debug   bool   // DEBUG=1
	persist bool   // PERSISTENCE=1 and not DYNAMODB_IN_MEMORY=1
	state   *initState
}

func addLocalstackFlags(fs *flag.FlagSet, f *localstackFlags) {
	fs.BoolVar(&f.flag, "localstack", false, "LocalStack's shape: listen on 4566, answer /_localstack/health and /_localstack/init, run the ready.d scripts, print \"Ready.\" (also on when SERVICES names dynamodb or LOCALSTACK_AUTH_TOKEN is set; see docs/containers.md)")
	fs.StringVar(&f.initDir, "localstackInit", "", "with -localstack, the directory whose *.sh scripts run once the server listens (default "+localstackDefaultInitDir+")")
}

// fromEnv reads LocalStack's environment through getenv (nil: none).
func (f *localstackFlags) fromEnv(getenv func(string) string) error {
	if f.flag {
		f.on, f.why = true, "-localstack"
	}
	if getenv == nil {
		return nil
	}
	for _, s := range strings.Split(getenv("SERVICES"), ",") {
		if s = strings.TrimSpace(s); s == "dynamodb" || s == "dynamodbstreams" {
			f.on, f.why = true, "SERVICES="+getenv("SERVICES")
		}
	}
	if !f.on && (getenv("LOCALSTACK_AUTH_TOKEN") != "" || getenv("LOCALSTACK_API_KEY") != "") {
		f.on, f.why = true, "LOCALSTACK_AUTH_TOKEN"
	}
	if !f.on {
		return nil
	}
	truthy := func(k string) bool {
		v := strings.ToLower(strings.TrimSpace(getenv(k)))
		return v == "1" || v == "true"
	}
	f.share, f.debug = truthy("DYNAMODB_SHARE_DB"), truthy("DEBUG")
	f.persist = truthy("PERSISTENCE") && !truthy("DYNAMODB_IN_MEMORY")
	if gl := strings.TrimSpace(getenv("GATEWAY_LISTEN")); gl != "" {
		first, _, _ := strings.Cut(gl, ",")
		if !strings.Contains(first, ":") {
			first = ":" + first
		}
		if _, port, err := net.SplitHostPort(first); err != nil || port == "" {
			return fmt.Errorf("GATEWAY_LISTEN %q: want HOST:PORT", gl)
		}
		f.listen = first
	}
	return nil
}

// localstackDefaults gives c LocalStack's port and what its environment
// asked for, where the command line is silent.
func (c *config) localstackDefaults() {
	ls := &c.localstack
	ls.state = &initState{}
	if ls.initDir == "" {
		ls.initDir = localstackDefaultInitDir
	}
	host, port := "", "4566"
	if ls.listen != "" {
		host, port, _ = net.SplitHostPort(ls.listen) // checked by fromEnv
	}
	if !c.portSet {
		c.port, _ = strconv.Atoi(port)
	}
	if !c.hostSet && host != "" {
		c.host, c.hostSet = host, true
	}
	c.sharedDB = c.sharedDB || ls.share
	if ls.debug && c.logLevel == "info" {
		c.logLevel = "debug"
	}
	if ls.persist && c.dbPath == "" && !c.inMemorySet {
		c.dbPath = localstackPersistDir
	}
}

// initScript is one ready.d script and its state, as LocalStack names
// them: UNKNOWN (not run yet), RUNNING, SUCCESSFUL or ERROR.
type initScript struct {
	Stage string `json:"stage"`
	Name  string `json:"name"`
	State string `json:"state"`
}

// initState is the ready.d scripts' progress.
type initState struct {
	mu      sync.Mutex
	scripts []initScript
	done    bool
}

func (s *initState) set(i int, state string) {
	s.mu.Lock()
	s.scripts[i].State = state
	s.mu.Unlock()
}

// start runs the ready.d scripts in the background against addr, the
// listener's address, then prints "Ready.".
func (f localstackFlags) start(ctx context.Context, addr net.Addr, stdout io.Writer, log *slog.Logger) {
	log.Info("LocalStack's shape: serving DynamoDB and DynamoDB Streams", "because", f.why, "init", f.initDir)
	names, err := filepath.Glob(filepath.Join(f.initDir, "*.sh"))
	if err != nil {
		log.Warn("reading the init scripts", "dir", f.initDir, "err", err)
	}
	sort.Strings(names)
	f.state.mu.Lock()
	for _, n := range names {
		f.state.scripts = append(f.state.scripts, initScript{Stage: "READY", Name: filepath.Base(n), State: "UNKNOWN"})
	}
	f.state.mu.Unlock()
	endpoint := "http://" + loopbackAddr(addr)
	go func() {
		for i, n := range names {
			f.state.set(i, "RUNNING")
			log.Info("running init script", "script", n)
			if err := runInitScript(ctx, n, endpoint); err != nil {
				log.Error("init script failed", "script", n, "err", err)
				f.state.set(i, "ERROR")
				continue
			}
			f.state.set(i, "SUCCESSFUL")
		}
		f.state.mu.Lock()
		f.state.done = true
		f.state.mu.Unlock()
		fmt.Fprintln(stdout, "Ready.")
	}()
}

// loopbackAddr is addr with an unspecified IP (0.0.0.0, ::) replaced by
// 127.0.0.1: where a process on the same host reaches the server.
func loopbackAddr(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return addr.String()
	}
	ip := tcp.IP
	if ip == nil || ip.IsUnspecified() {
		ip = net.IPv4(127, 0, 0, 1)
	}
	return net.JoinHostPort(ip.String(), strconv.Itoa(tcp.Port))
}

// runInitScript runs one ready.d script: directly when it is executable
// (its #! line chooses the interpreter), else with sh. Its output goes to
// the server's stderr; the AWS CLI and SDKs it runs find the server in
// AWS_ENDPOINT_URL, with LocalStack's usual test credentials and region
// unless the environment has others.
func runInitScript(ctx context.Context, path, endpoint string) error {
	var cmd *exec.Cmd
	if st, err := os.Stat(path); err == nil && st.Mode()&0o111 != 0 {
		cmd = exec.CommandContext(ctx, path)
	} else {
		cmd = exec.CommandContext(ctx, "sh", path)
	}
	env := os.Environ()
	for k, v := range map[string]string{"AWS_ENDPOINT_URL": endpoint, "AWS_ACCESS_KEY_ID": "test",
		"AWS_SECRET_ACCESS_KEY": "test", "AWS_DEFAULT_REGION": "us-east-1"} {
		if os.Getenv(k) == "" {
			env = append(env, k+"="+v)
		}
	}
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return cmd.Run()
}

// edge answers LocalStack's own GETs (emulator.Options.Edge).
func (f localstackFlags) edge(w http.ResponseWriter, r *http.Request) bool {
	var body any
	switch strings.TrimSuffix(r.URL.Path, "/") {
	case "/_localstack/health", "/health":
		body = map[string]any{
			"services": map[string]string{"dynamodb": "running", "dynamodbstreams": "running"},
			"edition":  "dynamoemu",
			"version":  emulator.Version(),
		}
	case "/_localstack/init":
		f.state.mu.Lock()
		body = map[string]any{
			"completed": map[string]bool{"BOOT": true, "START": true, "READY": f.state.done, "SHUTDOWN": false},
			"scripts":   append([]initScript{}, f.state.scripts...),
		}
		f.state.mu.Unlock()
	case "/_localstack/init/ready":
		f.state.mu.Lock()
		body = map[string]any{"completed": f.state.done, "scripts": append([]initScript{}, f.state.scripts...)}
		f.state.mu.Unlock()
	default:
		return false
	}
	b, _ := json.Marshal(body) // maps of strings and bools
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
	return true
}
