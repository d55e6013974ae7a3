package doccheck

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/ddblocal/ddblocaltest"
)

// Runnable blocks: a ```sh block right after the line
//
//	<!-- doccheck: run [FIXTURE ...] -->
//
// (invisible on the rendered page) is run by TestDocumentedCommands as
// written, in document order, with the dynamoemu binary of this checkout
// first on PATH (and GOBIN, so that a `go install` line installs there):
//   - a `dynamoemu` line that starts the server (no subcommand, no
//     -version or -help) starts it on a free port, waits until it listens
//     and leaves it running for the lines after it; it must then stop
//     cleanly on SIGTERM, at the block's end or before the block's next
//     server line (a block's server lines are alternatives, run in turn);
//   - the other lines run in one shell (sh -e), with localhost:8000 the
//     last server's address (a server of its own, in memory, if the block
//     started none);
//   - a block of `go` lines alone runs in the repository's root, any other
//     in a scratch directory of the block's own, made with its fixtures:
//     NAME=PATH copies the repository's file PATH there as NAME,
//     ddblocal-data makes ddblocal-data/ a DynamoDB Local -dbPath
//     directory (one database file).
// A block with an `aws` line runs where the AWS CLI is (AWSCLI_TEST=1:
// .ci/run's step after it installs it); the others on every run. The JS
// blocks so marked run in npm/test.sh, with the npm packages installed.

// runMarkerRE is the marker line; its words after "run" are fixtures.
var runMarkerRE = regexp.MustCompile(`^<!-- doccheck: run((?: [^ ]+)*) -->$`)

// runnable is one marked block.
type runnable struct {
	doc      string
	line     int // the fence's line
	lang     string
	fixtures []string
	text     string
}

// runnables returns a document's marked blocks.
func runnables(t *testing.T, doc, text string) []runnable {
	t.Helper()
	var out []runnable
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		m := runMarkerRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		require.Less(t, i+1, len(lines), "%s:%d: a marker at the end", doc, i+1)
		fence := lines[i+1]
		require.True(t, strings.HasPrefix(fence, "```") && len(fence) > 3, "%s:%d: the marker is not followed by a fenced block with a language", doc, i+1)
		r := runnable{doc: doc, line: i + 2, lang: fence[3:], fixtures: strings.Fields(m[1])}
		j := i + 2
		for ; j < len(lines) && lines[j] != "```"; j++ {
			r.text += lines[j] + "\n"
		}
		require.Less(t, j, len(lines), "%s:%d: the block is not closed", doc, r.line)
		out = append(out, r)
		i = j
	}
	return out
}

// commandLines returns a block's lines with those continued by a
// trailing backslash joined, blank lines and comment lines left out.
func commandLines(text string) []string {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(text, "\\\n", " "), "\n") {
		if s := strings.TrimSpace(l); s != "" && !strings.HasPrefix(s, "#") {
			out = append(out, s)
		}
	}
	return out
}

// isServerLine reports whether a line starts the server: dynamoemu with
// flags (or none), not a subcommand, -version, -help or -healthcheck.
func isServerLine(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 || f[0] != "dynamoemu" {
		return false
	}
	for _, a := range f[1:] {
		if a == "#" || strings.HasPrefix(a, "#") {
			break
		}
		switch strings.TrimLeft(a, "-") {
		case "version", "help", "h", "healthcheck":
			return false
		}
	}
	return len(f) == 1 || strings.HasPrefix(f[1], "-") || strings.HasPrefix(f[1], "#")
}

// docServer is a server a block started.
type docServer struct {
	cmd  *exec.Cmd
	addr string
	log  *lockedBuffer
	done chan struct{}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var listeningRE = regexp.MustCompile(`msg="dynamoemu listening" addr=(\S+)`)

// startDocServer runs a server line (its port replaced by a free one)
// and waits until it listens.
func startDocServer(t *testing.T, line, dir string, env []string) *docServer {
	t.Helper()
	cmd := exec.Command("sh", "-c", "exec "+line+" -port 0 -host 127.0.0.1")
	cmd.Dir, cmd.Env = dir, env
	s := &docServer{cmd: cmd, log: &lockedBuffer{}, done: make(chan struct{})}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = s.log, pw
	require.NoError(t, cmd.Start(), line)
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		sent := false
		for sc.Scan() {
			s.log.Write([]byte(sc.Text() + "\n"))
			if m := listeningRE.FindStringSubmatch(sc.Text()); m != nil && !sent {
				addr <- m[1]
				sent = true
			}
		}
	}()
	go func() {
		_ = cmd.Wait()
		pw.Close()
		close(s.done)
	}()
	select {
	case s.addr = <-addr:
	case <-s.done:
		t.Fatalf("%s: exited at start-up (%v):\n%s", line, cmd.ProcessState, s.log.String())
	case <-time.After(hangBound):
		_ = cmd.Process.Kill()
		t.Fatalf("%s: did not listen within %v:\n%s", line, hangBound, s.log.String())
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-s.done
	})
	return s
}

// stop SIGTERMs the server: it must exit 0.
func (s *docServer) stop(t *testing.T, line string) {
	t.Helper()
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(hangBound):
		t.Fatalf("%s: did not stop on SIGTERM:\n%s", line, s.log.String())
	}
	require.True(t, s.cmd.ProcessState.Success(), "%s: exited with %v:\n%s", line, s.cmd.ProcessState, s.log.String())
}

// hangBound catches a hang, times DYNAMOEMU_TEST_TIMEOUT_SCALE.
var hangBound = func() time.Duration {
	if f, err := strconv.ParseFloat(os.Getenv("DYNAMOEMU_TEST_TIMEOUT_SCALE"), 64); err == nil && f > 0 {
		return time.Duration(f * float64(2*time.Minute))
	}
	return 2 * time.Minute
}()

// TestDocumentedCommands runs every marked sh block of README.md and
// docs/ (see runMarkerRE): its dynamoemu lines start servers that listen
// and stop cleanly, its other lines (the AWS CLI's among them) exit 0.
func TestDocumentedCommands(t *testing.T) {
	var blocks []runnable
	for _, d := range documents(t) {
		blocks = append(blocks, runnables(t, d, read(t, d))...)
	}
	var sh []runnable
	for _, b := range blocks {
		switch b.lang {
		case "sh":
			sh = append(sh, b)
		case "js":
		default:
			t.Fatalf("%s:%d: a marked block of %s: only sh (here) and js (npm/test.sh) blocks are run", b.doc, b.line, b.lang)
		}
	}
	require.GreaterOrEqual(t, len(sh), 4, "found %d marked sh blocks; the markers were lost?", len(sh))

	root, err := filepath.Abs(root)
	require.NoError(t, err)
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "dynamoemu"), "./cmd/dynamoemu")
	build.Dir = root
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	checkSourceBuildVersion(t, filepath.Join(bin, "dynamoemu"), root)
	awsCLI := os.Getenv("AWSCLI_TEST") != ""
	if awsCLI {
		_, err := exec.LookPath("aws")
		require.NoError(t, err, "AWSCLI_TEST is set but aws is not on PATH")
	}
	config := t.TempDir()
	env := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "GOBIN=" + bin, "HOME=" + os.Getenv("HOME"),
		"XDG_CONFIG_HOME=" + config, "AWS_CONFIG_FILE=/dev/null", "AWS_SHARED_CREDENTIALS_FILE=/dev/null", "AWS_PAGER="}
	for _, k := range []string{"GOPATH", "GOCACHE", "GOMODCACHE", "GOFLAGS", "GOPROXY", "GOTOOLCHAIN", "TMPDIR", "DYNAMOEMU_TEST_TIMEOUT_SCALE", "CONTAINERS_STORAGE_CONF", "CONTAINERS_CONF"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	ran := 0
	var unbuilt []string // commands the blocks left out would have built
	for _, b := range sh {
		name := fmt.Sprintf("%s:%d", b.doc, b.line)
		lines := commandLines(b.text)
		usesAWS := false
		for _, l := range lines {
			usesAWS = usesAWS || strings.HasPrefix(l, "aws ") || strings.Contains(l, " aws ")
		}
		if usesAWS && !awsCLI {
			continue // .ci/run runs these with AWSCLI_TEST=1
		}
		if !heavy && buildsGo(lines) {
			unbuilt = append(unbuilt, builtCommands(lines)...)
			continue
		}
		if runsAny(lines, unbuilt) {
			continue // needs a command a block left out would have built
		}
		if usesImage(lines) && !imageHere() {
			require.Empty(t, os.Getenv("DYNAMOEMU_DOC_IMAGE"), "%s runs the image: DYNAMOEMU_DOC_IMAGE is set but podman holds no image dynamoemu", name)
			continue // .ci/container builds the image and runs these (DYNAMOEMU_DOC_IMAGE=1)
		}
		ran++
		t.Run(name, func(t *testing.T) { runBlock(t, b, lines, root, env) })
	}
	t.Logf("ran %d of %d marked sh blocks (AWSCLI_TEST=%v, DYNAMOEMU_HEAVY_TESTS=%v)", ran, len(sh), awsCLI, heavy)
}

// heavy: DYNAMOEMU_HEAVY_TESTS is set (CI sets it). Without it the
// blocks that build Go commands (buildsGo) are left out, and so are the
// later blocks that run what they build (runsAny): on an empty
// build cache each compiles a program and its modules without -race
// (the import tool's SQLite among them), minutes on a busy machine, and
// beside this test's own build of the server that ran past go test's
// 10 minutes.
var heavy = os.Getenv("DYNAMOEMU_HEAVY_TESTS") != ""

// buildsGo reports whether a block's lines build Go commands (go build,
// go install).
func buildsGo(lines []string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, "go build ") || strings.HasPrefix(l, "go install ") {
			return true
		}
	}
	return false
}

// builtCommands are the commands a block's go build and go install lines
// build (./cmd/NAME), less dynamoemu, which the test builds itself.
func builtCommands(lines []string) []string {
	var names []string
	for _, l := range lines {
		if !strings.HasPrefix(l, "go build ") && !strings.HasPrefix(l, "go install ") {
			continue
		}
		for _, f := range strings.Fields(l) {
			if name := path.Base(f); strings.HasPrefix(f, "./cmd/") && name != "dynamoemu" {
				names = append(names, name)
			}
		}
	}
	return names
}

// runsAny reports whether a block's lines run one of commands: by name,
// or dynamoemu-SUB as dynamoemu's subcommand SUB (dynamoemu import-ddblocal
// runs dynamoemu-import-ddblocal).
func runsAny(lines, commands []string) bool {
	for _, l := range lines {
		for _, c := range commands {
			sub, isSub := strings.CutPrefix(c, "dynamoemu-")
			if strings.Contains(l, c) || isSub && strings.Contains(l, "dynamoemu "+sub) {
				return true
			}
		}
	}
	return false
}

// runBlock runs one marked block.
func runBlock(t *testing.T, b runnable, lines []string, root string, env []string) {
	dir := t.TempDir()
	goOnly := true
	for _, l := range lines {
		goOnly = goOnly && strings.HasPrefix(l, "go ")
	}
	if goOnly {
		dir = root
	}
	for _, f := range b.fixtures {
		name, src, ok := strings.Cut(f, "=")
		switch {
		case ok:
			data, err := os.ReadFile(filepath.Join(root, src))
			require.NoError(t, err, "fixture %s", f)
			require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
		case f == "ddblocal-data":
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "ddblocal-data"), 0o755))
			ddblocaltest.WriteFile(t, filepath.Join(dir, "ddblocal-data", "local_ap-northeast-1.db"))
		default:
			t.Fatalf("unknown fixture %q", f)
		}
	}
	var servers []*docServer
	var serverLines []string
	var script []string
	flush := func() {
		if len(script) == 0 {
			return
		}
		text := strings.Join(script, "\n")
		script = nil
		if strings.Contains(text, "localhost:8000") {
			if len(servers) == 0 {
				servers = append(servers, startDocServer(t, "dynamoemu", dir, env))
				serverLines = append(serverLines, "dynamoemu")
			}
			text = strings.ReplaceAll(text, "localhost:8000", servers[len(servers)-1].addr)
		}
		ctx, cancel := context.WithTimeout(context.Background(), hangBound)
		defer cancel()
		cmd := exec.CommandContext(ctx, "sh", "-e", "-c", text)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s\n%s", text, out)
	}
	stopAll := func() {
		for i, s := range servers {
			s.stop(t, serverLines[i])
		}
		servers, serverLines = nil, nil
	}
	for _, l := range lines {
		if isServerLine(l) {
			flush()
			stopAll() // a block's server lines are ways to start it, one after the other
			l = cutComment(l)
			servers = append(servers, startDocServer(t, l, dir, env))
			serverLines = append(serverLines, l)
			continue
		}
		script = append(script, l)
	}
	flush()
	stopAll()
}

// cutComment is a line without its trailing comment (" #" outside quotes).
func cutComment(l string) string {
	quote := byte(0)
	for i := 0; i < len(l); i++ {
		switch c := l[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && i > 0 && (l[i-1] == ' ' || l[i-1] == '\t'):
			return strings.TrimSpace(l[:i])
		}
	}
	return l
}

// checkSourceBuildVersion: what README.md says a source build's -version
// is, for the binary a plain go build made in root: in a git clone the
// commit's pseudo-version (v0.0.0-<commit time>-<commit>, +dirty with
// uncommitted changes) or the tag on the commit; where the go command
// stamped no commit (outside a clone, -buildvcs=false), devel.
func checkSourceBuildVersion(t *testing.T, binary, root string) {
	t.Helper()
	require.Contains(t, strings.Join(strings.Fields(read(t, "README.md")), " "),
		"a `go build` or `go install` in a git clone, the commit's pseudo-version, `v0.0.0-<commit time>-<commit>`",
		"README.md no longer says what a source build's -version is; say it and change this check")
	out, err := exec.Command(binary, "-version").Output()
	require.NoError(t, err)
	got := strings.TrimSpace(string(out))
	// Whether the go command stamped the commit: not outside a git clone,
	// nor with -buildvcs=false (in GOFLAGS too), nor where it could not
	// read the repository (then it says nothing of it).
	info, err := exec.Command("go", "version", "-m", binary).Output()
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^\s*build\s+vcs\.revision=([0-9a-f]{12})`).FindSubmatch(info)
	if m == nil {
		require.Equal(t, "devel", got, "-version of a go build that stamped no commit (go version -m)")
		return
	}
	commit := string(m[1])
	if tag, err := exec.Command("git", "-C", root, "describe", "--exact-match", "--tags", "HEAD").Output(); err == nil && !strings.HasPrefix(got, "v0.0.0-") {
		require.Regexp(t, "^"+regexp.QuoteMeta(strings.TrimSpace(string(tag)))+`(\+dirty)?$`, got, "-version of a go build of a tagged commit")
		return
	}
	// No tag: v0.0.0-; after a tag vX.Y.(Z+1)-0. (Go's pseudo-versions).
	require.Regexp(t, `^v\d+\.\d+\.\d+-(0\.)?\d{14}-`+commit+`(\+dirty)?$`, got, "-version of a go build in a git clone: the commit's pseudo-version")
}

// usesImage reports whether a block runs the image (a podman run line).
func usesImage(lines []string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, "podman run ") {
			return true
		}
	}
	return false
}

// imageHere reports whether podman is installed and holds the image the
// docs name, dynamoemu (podman build -t dynamoemu .; .ci/container builds
// it): then the blocks that run it are run.
var imageHere = sync.OnceValue(func() bool {
	if _, err := exec.LookPath("podman"); err != nil {
		return false
	}
	return exec.Command("podman", "image", "exists", "dynamoemu").Run() == nil
})
