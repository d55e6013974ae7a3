package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/dynamoemu/dynamoemu/conventions"
)

// "dynamoemu conventions ..." runs the conventions check, a command of its
// own (cmd/dynamoemu-conventions) so that the server does not link the AWS
// SDK it needs: the binary next to this one (the npm platform package and
// the container image ship both), else the one on PATH. Its output and
// exit status are the check's.

// exitCheckerMissing is dynamoemu's exit status when the conventions
// check is not installed: the shell's "command not found", distinct from
// the check's own 1 (violations) and 2 (could not run).
const exitCheckerMissing = 127

// errConventionsMissing answers "dynamoemu conventions ..." when the check
// is nowhere to be found, saying how to get it.
var errConventionsMissing = errors.New("the conventions check is the command " + checkerName() + ", not found next to dynamoemu nor on PATH; " +
	"it comes with the npm package (npx dynamoemu conventions check --endpoint URL --config FILE) and the container image " +
	"(docker run --rm IMAGE conventions check --endpoint URL --config FILE), or build it from a dynamoemu checkout: " +
	"go build -o \"$(dirname \"$(command -v dynamoemu)\")\" ./cmd/dynamoemu-conventions")

// checkerExit is the check's exit status, which dynamoemu exits with (the
// check has said why on stderr).
type checkerExit int

func (e checkerExit) Error() string {
	return fmt.Sprintf("%s exited with status %d", checkerName(), int(e))
}

// checkerName is the check's executable name.
func checkerName() string {
	if runtime.GOOS == "windows" {
		return "dynamoemu-conventions.exe"
	}
	return "dynamoemu-conventions"
}

// conventionsArgs returns the check's arguments when the command line asks
// for it: "conventions ...", or "-host H conventions ..." as the container
// image's entrypoint (dynamoemu -host 0.0.0.0) passes it.
func conventionsArgs(args []string) ([]string, bool) {
	if len(args) >= 3 && (args[0] == "-host" || args[0] == "--host") && args[2] == "conventions" {
		args = args[2:]
	}
	if len(args) > 0 && args[0] == "conventions" {
		return args[1:], true
	}
	return nil, false
}

// findChecker returns the path of the check: next to this executable,
// else on PATH.
func findChecker() (string, error) {
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		p := filepath.Join(filepath.Dir(exe), checkerName())
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	return exec.LookPath(checkerName())
}

// runConventions runs the check with args, its stdin, stdout and stderr
// the command's.
func runConventions(args []string, stdout, stderr io.Writer) error {
	bin, err := findChecker()
	if err != nil {
		return errConventionsMissing
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	err = cmd.Run()
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) && ee.ExitCode() > 0 {
		return checkerExit(ee.ExitCode())
	}
	return err
}

// loadConventions reads the -conventions file; "" means none.
func loadConventions(file string) (*conventions.Config, error) {
	if file == "" {
		return nil, nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("-conventions: %w", err)
	}
	cfg, err := conventions.ParseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("-conventions %s: %w", file, err)
	}
	return &cfg, nil
}
