package lambdaesm

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Where a mapping may send a table's records. A mapping's Endpoint
// (where its function is invoked, with each batch) and its on-failure
// destination (where a discarded batch's invocation record goes) are
// set by whoever makes the mapping: a client of Lambda's API on the
// server's port, a mappings file, a serverless.yml, the Go API, or the
// saved mappings a restart makes again. Each is checked here against
// what the operator allowed (Targets), whatever made it:
//
//   - an http(s) Endpoint or destination must name a loopback host
//     (localhost, *.localhost, 127.0.0.0/8, ::1) unless Targets.Remote
//     (cmd/dynamoemu's -streamHandlerRemote): a mapping cannot send the
//     records to another machine the operator did not choose;
//   - a file:// destination must be an absolute path inside
//     Targets.FileDir (-streamHandlerFileDir), and is refused when it is
//     "" (the default): a mapping cannot append to any file the server
//     may write. The file is opened through an os.Root of the
//     directory, so a symbolic link inside it does not lead out.
//
// A refused mapping is not made (InvalidParameterValueException naming
// the flag). The function's default endpoint (SetEndpoint:
// -lambdaEndpoint, a mappings file's lambdaEndpoint) is the operator's
// own setting and is not checked. The invoking client follows no
// redirect, so a loopback endpoint cannot send the records on.

// Targets is what the operator lets mappings reach besides loopback
// http(s) endpoints and ARNs.
type Targets struct {
	// FileDir is the directory file:// on-failure destinations are
	// confined to: an absolute path, cleaned ("": file:// is refused).
	FileDir string
	// Remote lets Endpoint and http(s) destinations name hosts other
	// than loopback.
	Remote bool
}

// The operator's switches, as the refusals name them.
const (
	flagFileDir = "-streamHandlerFileDir DIR (Go: Options.StreamHandlerFileDir)"
	flagRemote  = "-streamHandlerRemote (Go: Options.StreamHandlerRemote)"
)

// SetTargets sets what mappings may reach; mappings made after it are
// checked against it (the emulator sets it before any is made).
func (m *Manager) SetTargets(t Targets) {
	m.mu.Lock()
	m.targets = t
	m.mu.Unlock()
}

func (m *Manager) targetsNow() Targets {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.targets
}

// refusedTarget is an Endpoint or destination Targets refuses: an
// InvalidParameterValueException, told apart so that Restore leaves the
// mapping out instead of failing.
type refusedTarget struct{ *apiError }

func (e refusedTarget) Unwrap() error { return e.apiError }

func refuseTarget(format string, args ...any) error {
	return refusedTarget{&apiError{typ: "InvalidParameterValueException", status: 400, msg: fmt.Sprintf(format, args...)}}
}

// IsRefusedTarget reports whether err refused a mapping for an
// Endpoint or destination the operator did not allow.
func IsRefusedTarget(err error) bool {
	var rt refusedTarget
	return errors.As(err, &rt)
}

// check checks st's Endpoint and on-failure destination.
func (t Targets) check(st *settings) error {
	if st.endpoint != "" {
		if err := t.checkURL(st.endpoint, "Endpoint"); err != nil {
			return err
		}
	}
	switch d := st.onFailure; {
	case strings.HasPrefix(d, "file://"):
		_, err := t.fileOf(d)
		return err
	case strings.HasPrefix(d, "http://"), strings.HasPrefix(d, "https://"):
		return t.checkURL(d, "The on-failure destination")
	}
	return nil
}

// checkURL checks an http(s) URL, what naming it in the refusal.
func (t Targets) checkURL(raw, what string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return refuseTarget("%s %q is not an http:// or https:// URL", what, raw)
	}
	if t.Remote || isLoopbackHost(u.Hostname()) {
		return nil
	}
	return refuseTarget("%s %s names %s, which is not this machine's loopback: the server sends a table's records only to "+
		"localhost, 127.0.0.1 or ::1 unless it is started with %s", what, raw, u.Hostname(), flagRemote)
}

// isLoopbackHost reports whether host (a URL's, without brackets) is a
// loopback name or address.
func isLoopbackHost(host string) bool {
	h := strings.ToLower(host)
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// fileOf returns the path, relative to FileDir, of a file:// destination
// the targets allow.
func (t Targets) fileOf(dest string) (string, error) {
	if t.FileDir == "" {
		return "", refuseTarget("The on-failure destination %s is a file, and file:// destinations are off: start the server "+
			"with %s to let mappings append to files in DIR", dest, flagFileDir)
	}
	p := strings.TrimPrefix(dest, "file://")
	if !filepath.IsAbs(p) {
		return "", refuseTarget("The on-failure destination %s is not a file:// URL of an absolute path (file:///DIR/NAME)", dest)
	}
	rel, err := filepath.Rel(t.FileDir, filepath.Clean(p))
	if err != nil || rel == "." || !filepath.IsLocal(rel) {
		return "", refuseTarget("The on-failure destination %s is outside %s, the directory file:// destinations are confined to "+
			"(-streamHandlerFileDir)", dest, t.FileDir)
	}
	return rel, nil
}

// appendFile appends line to the file of a file:// destination, inside
// FileDir only (an os.Root: no symbolic link leads out).
func (t Targets) appendFile(dest string, line []byte) error {
	rel, err := t.fileOf(dest)
	if err != nil {
		return err
	}
	root, err := os.OpenRoot(t.FileDir)
	if err != nil {
		return err
	}
	defer root.Close()
	f, err := root.OpenFile(rel, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// CleanFileDir returns dir as Targets.FileDir holds it (absolute,
// cleaned), or why it cannot be one: it must be an existing directory.
func CleanFileDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a directory", abs)
	}
	return abs, nil
}
