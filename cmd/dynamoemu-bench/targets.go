package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// target is a server the matrix measures.
type target struct {
	name   string // column title
	url    string
	pid    int    // its process, for CPU time; 0: unknown
	strict bool   // its answers are real (not canned)
	about  string // version and how it runs, for the caption
	stop   func()
}

// freePort returns a TCP port free on 127.0.0.1 right now.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// waitReady polls url with ListTables until it answers or timeout.
func waitReady(url string, timeout time.Duration) error {
	c := newClient(url, "benchready", 1)
	deadline := time.Now().Add(timeout)
	for {
		_, err := c.call("ListTables", []byte("{}"), nil)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s did not answer ListTables within %s: %v", url, timeout, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// startProcess starts cmd with its output to log and returns a stop
// function that kills it and waits for it.
func startProcess(cmd *exec.Cmd, log io.Writer) (func(), error) {
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return func() {
		cmd.Process.Kill()
		cmd.Wait()
	}, nil
}

// moduleRoot returns the directory of the dynamoemu module (the tool is
// run from within it, as go run ./cmd/dynamoemu-bench).
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("not inside the dynamoemu module: give -emulator-bin")
	}
	return filepath.Dir(mod), nil
}

// buildEmulator builds cmd/dynamoemu of this module into bin and
// describes it.
func buildEmulator(bin string) (string, string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", "", err
	}
	build := exec.Command("go", "build", "-o", bin, "./cmd/dynamoemu")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return "", "", fmt.Errorf("building dynamoemu: %v\n%s", err, out)
	}
	about := "dynamoemu"
	if rev, err := exec.Command("git", "-C", root, "rev-parse", "--short", "HEAD").Output(); err == nil {
		about += " " + strings.TrimSpace(string(rev))
	}
	return bin, about, nil
}

// emulatorBin returns bin, or when it is empty the emulator built from
// this module into a temporary folder that done removes, and what it is.
func emulatorBin(bin string) (path, about string, done func(), err error) {
	if bin != "" {
		return bin, bin, func() {}, nil
	}
	tmp, err := os.MkdirTemp("", "dynamoemu-bench-")
	if err != nil {
		return "", "", nil, err
	}
	done = func() { os.RemoveAll(tmp) }
	if path, about, err = buildEmulator(filepath.Join(tmp, "dynamoemu")); err != nil {
		done()
		return "", "", nil, err
	}
	return path, about, done, nil
}

// startEmulator starts the dynamoemu server (bin, or built from the
// module when bin is empty) on a free port.
func startEmulator(bin, tmp string, log io.Writer) (*target, error) {
	about := "dynamoemu"
	if bin == "" {
		var err error
		if bin, about, err = buildEmulator(filepath.Join(tmp, "dynamoemu")); err != nil {
			return nil, err
		}
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-host", "127.0.0.1", "-port", strconv.Itoa(port), "-logLevel", "error", "-ttlSweepInterval", "0")
	stop, err := startProcess(cmd, log)
	if err != nil {
		return nil, err
	}
	t := &target{name: "dynamoemu", url: "http://127.0.0.1:" + strconv.Itoa(port), pid: cmd.Process.Pid, strict: true, stop: stop, about: about}
	if err := waitReady(t.url, 30*time.Second); err != nil {
		stop()
		return nil, err
	}
	return t, nil
}

// startFloor starts the floor (this program, -serve-floor) on a free port.
func startFloor(log io.Writer) (*target, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "-serve-floor", "127.0.0.1:0")
	cmd.Stderr = log
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	stop := func() {
		cmd.Process.Kill()
		cmd.Wait()
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		stop()
		return nil, fmt.Errorf("the floor server did not start: %v", err)
	}
	t := &target{name: "floor", url: strings.TrimSpace(line), pid: cmd.Process.Pid, stop: stop,
		about: "net/http (" + runtime.Version() + ") answering every request with a canned body"}
	return t, waitReady(t.url, 10*time.Second)
}

// startDynalite installs dynalite (npm, into dir, outside the repository)
// when it is not there, and starts it in memory on a free port.
func startDynalite(dir string, log io.Writer) (*target, error) {
	cli := filepath.Join(dir, "node_modules", "dynalite", "cli.js")
	if _, err := os.Stat(cli); err != nil {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		fmt.Fprintf(log, "installing dynalite into %s\n", dir)
		install := exec.Command("npm", "install", "--prefix", dir, "--no-audit", "--no-fund", "dynalite@4.0.0")
		install.Stdout, install.Stderr = log, log
		if err := install.Run(); err != nil {
			return nil, fmt.Errorf("npm install dynalite: %w", err)
		}
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("node", cli, "--port", strconv.Itoa(port))
	stop, err := startProcess(cmd, log)
	if err != nil {
		return nil, err
	}
	about := "dynalite"
	var pkg struct{ Version string }
	if data, err := os.ReadFile(filepath.Join(dir, "node_modules", "dynalite", "package.json")); err == nil && json.Unmarshal(data, &pkg) == nil {
		about += " " + pkg.Version
	}
	if v, err := exec.Command("node", "--version").Output(); err == nil {
		about += " (Node.js " + strings.TrimSpace(string(v)) + ", in memory)"
	}
	t := &target{name: "dynalite", url: "http://127.0.0.1:" + strconv.Itoa(port), pid: cmd.Process.Pid, strict: true, stop: stop, about: about}
	if err := waitReady(t.url, 60*time.Second); err != nil {
		stop()
		return nil, err
	}
	return t, nil
}

// sharedDDBLocalCache is where conformance/oracle/dynamodb-local.sh keeps
// the shared DynamoDB Local (its pid file, its package).
func sharedDDBLocalCache() string {
	if c := os.Getenv("DYNAMODB_LOCAL_CACHE"); c != "" {
		return c
	}
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" {
		home, _ := os.UserHomeDir()
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "dynamoemu", "dynamodb-local")
}

// startDynamoDBLocal returns DynamoDB Local: mode "shared" is the one
// conformance/oracle/dynamodb-local.sh runs for everyone (its CPU time
// then includes everyone's requests); "private" starts one of its own
// with the same script, in a cache folder under tmp that reuses the
// shared cache's package, and stops it afterwards.
func startDynamoDBLocal(mode, tmp string, log io.Writer) (*target, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	script := filepath.Join(root, "conformance", "oracle", "dynamodb-local.sh")
	shared := sharedDDBLocalCache()
	cache := shared
	var env []string
	if mode == "private" {
		cache = filepath.Join(tmp, "dynamodb-local")
		if err := os.MkdirAll(cache, 0o755); err != nil {
			return nil, err
		}
		if _, err := os.Stat(filepath.Join(shared, "package", "lib")); err == nil {
			os.Symlink(filepath.Join(shared, "package"), filepath.Join(cache, "package"))
		}
		env = append(os.Environ(), "DYNAMODB_LOCAL_CACHE="+cache)
	}
	verb := "start"
	if mode == "shared" {
		verb = "status"
	}
	cmd := exec.Command(script, verb)
	cmd.Env = env
	cmd.Stderr = log
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %v", script, verb, err)
	}
	t := &target{name: "DynamoDB Local", url: strings.TrimSpace(string(out)), strict: true, stop: func() {}}
	if data, err := os.ReadFile(filepath.Join(cache, "dynamodb-local.pid")); err == nil {
		t.pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
	}
	if mode == "private" {
		t.stop = func() {
			stop := exec.Command(script, "stop")
			stop.Env, stop.Stdout, stop.Stderr = env, log, log
			stop.Run()
		}
	}
	jars, _ := filepath.Glob(filepath.Join(cache, "package", "lib", "dynamodb_local_*"))
	t.about = "DynamoDB Local"
	if len(jars) > 0 {
		t.about += " " + strings.TrimPrefix(filepath.Base(jars[len(jars)-1]), "dynamodb_local_")
	}
	if v, err := exec.Command("java", "-version").CombinedOutput(); err == nil {
		t.about += " (" + strings.SplitN(strings.TrimSpace(string(v)), "\n", 2)[0] + ", -inMemory, " + mode + " instance)"
	}
	return t, waitReady(t.url, 120*time.Second)
}
