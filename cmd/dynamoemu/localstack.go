package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// LocalStack's shape, for compose files and harnesses written for
// localstack/localstack with DynamoDB (-localstack, or started with
// LocalStack's environment naming DynamoDB: SERVICES with dynamodb or
// dynamodbstreams; a LOCALSTACK_AUTH_TOKEN alone says nothing of
// DynamoDB and does not turn it on). The server then:
//   - listens on 4566 (GATEWAY_LISTEN's port and address, or -port and
//     -host, win);
//   - answers GET /_localstack/health with dynamodb and dynamodbstreams
//     "running", and /_localstack/init and /_localstack/init/ready with
//     the state of the ready.d scripts, in LocalStack's JSON shapes
//     (localstackPaths);
//   - runs the ready.d scripts of /etc/localstack/init/ready.d
//     (-localstackInit) once it listens, the ones LocalStack runs in its
//     order (findInitScripts), each within -localstackInitTimeout, with
//     AWS_ENDPOINT_URL naming it, then prints "Ready." on stdout
//     (LocalStack prints it before its ready.d scripts; here waiting for
//     it also waits for what they create); what a script left running in
//     the background is stopped when the server stops;
//   - honours DYNAMODB_SHARE_DB=1 (-sharedDb), DEBUG=1 (-logLevel debug),
//     PERSISTENCE=1 (-dbPath /var/lib/localstack/state/dynamodb, unless
//     DYNAMODB_IN_MEMORY=1). Other LocalStack variables are ignored.

// localstackDefaultInitDir is where LocalStack reads its ready.d scripts.
const localstackDefaultInitDir = "/etc/localstack/init/ready.d"

// localstackDefaultInitTimeout is -localstackInitTimeout's default: the
// longest one ready.d script may run.
const localstackDefaultInitTimeout = 10 * time.Minute

// localstackPersistDir is -dbPath under PERSISTENCE=1: inside
// /var/lib/localstack, the directory LocalStack's compose files mount.
const localstackPersistDir = "/var/lib/localstack/state/dynamodb"

// localstackFlags are -localstack, -localstackInit and what LocalStack's
// environment asked for.
type localstackFlags struct {
	on          bool          // LocalStack's shape
	flag        bool          // -localstack given
	initDir     string        // the ready.d directory
	initTimeout time.Duration // -localstackInitTimeout
	why         string        // what turned it on
	notServed   []string      // SERVICES' other services (s3, sqs, ...): not served here
	listen      string        // GATEWAY_LISTEN's first address
	share       bool          // DYNAMODB_SHARE_DB=1
	debug       bool          // DEBUG=1
	persist     bool          // PERSISTENCE=1 and not DYNAMODB_IN_MEMORY=1
	state       *initState
}

func addLocalstackFlags(fs *flag.FlagSet, f *localstackFlags) {
	fs.BoolVar(&f.flag, "localstack", false, "LocalStack's shape: listen on 4566, answer /_localstack/health and /_localstack/init, run the ready.d scripts, print \"Ready.\" (also on when SERVICES names dynamodb or dynamodbstreams; see docs/containers.md)")
	fs.StringVar(&f.initDir, "localstackInit", "", "with -localstack, the directory whose *.sh scripts (and its subdirectories') run once the server listens, as LocalStack runs its ready.d (default "+localstackDefaultInitDir+")")
	fs.DurationVar(&f.initTimeout, "localstackInitTimeout", localstackDefaultInitTimeout, "with -localstack, the longest one ready.d script may run: then it is stopped (with what it started), logged and marked ERROR, and the next one runs")
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
		switch s = strings.TrimSpace(s); s {
		case "dynamodb", "dynamodbstreams":
			f.on, f.why = true, "SERVICES="+getenv("SERVICES")
		case "":
		default:
			f.notServed = append(f.notServed, s)
		}
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

// initState is the ready.d scripts' progress, and the process groups they
// ran in (stopped with the server).
type initState struct {
	mu      sync.Mutex
	scripts []initScript
	done    bool
	groups  []int // each script's process group (its pid)
}

func (s *initState) set(i int, state string) {
	s.mu.Lock()
	s.scripts[i].State = state
	s.mu.Unlock()
}

// findInitScripts lists the scripts of dir that LocalStack runs from its
// ready.d, in its order (runtime/init.py: os.walk, top-down, each
// directory's files sorted, then its subdirectories sorted): the files
// (or links to files) whose names end in .sh, dir's own first, then each
// subdirectory's, depth first; a link to a directory is not followed. A
// name starting with a dot is run as LocalStack runs it. LocalStack also
// runs .py files, in its own Python interpreter: they are listed in
// skipped.
func findInitScripts(dir string) (scripts, skipped []string, err error) {
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return nil, nil, err
	}
	var subdirs []string
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if e.IsDir() {
			subdirs = append(subdirs, path)
			continue
		}
		if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
			continue
		}
		switch {
		case strings.HasSuffix(e.Name(), ".sh"):
			scripts = append(scripts, path)
		case strings.HasSuffix(e.Name(), ".py"):
			skipped = append(skipped, path)
		}
	}
	for _, sub := range subdirs {
		more, moreSkipped, err := findInitScripts(sub)
		if err != nil {
			return nil, nil, err
		}
		scripts, skipped = append(scripts, more...), append(skipped, moreSkipped...)
	}
	return scripts, skipped, nil
}

// start runs the ready.d scripts in the background against addr, the
// listener's address, then prints "Ready.". stop ends what they left
// running.
func (f localstackFlags) start(ctx context.Context, addr net.Addr, stdout io.Writer, log *slog.Logger) {
	log.Info("LocalStack's shape: serving DynamoDB and DynamoDB Streams", "because", f.why, "init", f.initDir)
	if len(f.notServed) > 0 {
		// A compose file written for LocalStack may name more services; their
		// calls would reach this server and fail, so say it at the start.
		log.Warn("SERVICES names services dynamoemu does not serve: only DynamoDB and DynamoDB Streams answer here, their API calls fail",
			"notServed", strings.Join(f.notServed, ","))
	}
	names, skipped, err := findInitScripts(f.initDir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		log.Warn("reading the init scripts", "dir", f.initDir, "err", err)
	}
	for _, n := range skipped {
		log.Warn("init script not run: LocalStack runs .py scripts in its own Python interpreter; write it as a .sh script", "script", n)
	}
	warnNoLocalstackCLI(names, log)
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
			if err := f.runInitScript(ctx, n, endpoint); err != nil {
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

// stop ends what the ready.d scripts left running (a server started in
// the background, "sleep infinity &"): each script's process group is
// asked to stop (SIGTERM), and what is still there a second later is
// killed. LocalStack's container takes them with it when it stops; a
// server run outside a container must not leave them behind.
func (f localstackFlags) stop(log *slog.Logger) {
	f.state.mu.Lock()
	groups := f.state.groups
	f.state.groups = nil
	f.state.mu.Unlock()
	var left []int
	for _, g := range groups {
		if signalGroup(g, false) {
			left = append(left, g)
		}
	}
	for deadline := time.Now().Add(time.Second); len(left) > 0 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		left = slices.DeleteFunc(left, func(g int) bool { return !groupAlive(g) })
	}
	for _, g := range left {
		signalGroup(g, true)
		log.Warn("an init script's background processes did not stop on SIGTERM: killed", "processGroup", g)
	}
}

// warnNoLocalstackCLI says, before the scripts run, which of them call
// awslocal when it is not on PATH: outside the image (which has its own)
// LocalStack's awslocal comes with the awscli-local package, and without
// it each such line fails with "awslocal: command not found".
func warnNoLocalstackCLI(scripts []string, log *slog.Logger) {
	if _, err := exec.LookPath("awslocal"); err == nil {
		return
	}
	for _, n := range scripts {
		if b, err := os.ReadFile(n); err == nil && strings.Contains(string(b), "awslocal") {
			log.Warn("init script calls awslocal, which is not on PATH: those lines will fail with \"command not found\". "+
				"Install LocalStack's awslocal (pip install awscli-local, with the AWS CLI) or dynamoemu's own "+
				"(go build -o DIR_ON_PATH/awslocal ./cmd/dynamoemu-tools), or call aws with --endpoint-url $AWS_ENDPOINT_URL",
				"script", n)
		}
	}
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
// (its #! line chooses the interpreter), else with sh, in a process group
// of its own, within -localstackInitTimeout (then it and what it started
// are killed). Its output goes to the server's stderr; the AWS CLI and
// SDKs it runs find the server in AWS_ENDPOINT_URL, with LocalStack's
// usual test credentials and region unless the environment has others.
func (f localstackFlags) runInitScript(ctx context.Context, path, endpoint string) error {
	ctx, cancel := context.WithTimeout(ctx, f.initTimeout)
	defer cancel()
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
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		return err
	}
	f.state.mu.Lock()
	f.state.groups = append(f.state.groups, cmd.Process.Pid)
	f.state.mu.Unlock()
	err := cmd.Wait()
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("still running after -localstackInitTimeout %v: stopped, with what it started", f.initTimeout)
	case err != nil && cmd.ProcessState != nil && cmd.ProcessState.ExitCode() == 127:
		return fmt.Errorf("%w (127: a command it runs was not found)", err)
	}
	return err
}

// localstackPaths are the paths LocalStack's shape answers (GET), as edge
// serves them; everything else is the emulator's.
func localstackPaths() []string {
	return []string{localstackHealthPath, localstackOldHealthPath, localstackInitPath, localstackInitReadyPath}
}

// The paths of LocalStack's own endpoints.
const (
	localstackHealthPath    = "/_localstack/health" // the services' states
	localstackOldHealthPath = "/health"             // the same, as LocalStack before 1.0 served it
	localstackInitPath      = "/_localstack/init"   // the init scripts of every stage
	localstackInitReadyPath = "/_localstack/init/ready"
)

// edge answers LocalStack's own GETs (emulator.Options.Edge).
func (f localstackFlags) edge(w http.ResponseWriter, r *http.Request) bool {
	path := strings.TrimSuffix(r.URL.Path, "/")
	if !slices.Contains(localstackPaths(), path) {
		return false // the emulator's
	}
	var body any
	switch path {
	case localstackHealthPath, localstackOldHealthPath:
		body = map[string]any{
			"services": map[string]string{"dynamodb": "running", "dynamodbstreams": "running"},
			"edition":  "dynamoemu",
			"version":  emulator.Version(),
		}
	case localstackInitPath:
		f.state.mu.Lock()
		body = map[string]any{
			"completed": map[string]bool{"BOOT": true, "START": true, "READY": f.state.done, "SHUTDOWN": false},
			"scripts":   append([]initScript{}, f.state.scripts...),
		}
		f.state.mu.Unlock()
	case localstackInitReadyPath:
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
