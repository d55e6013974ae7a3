package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// "dynamoemu import-ddblocal ..." brings DynamoDB Local's data into a
// -dbPath directory by running the command dynamoemu-import-ddblocal
// (../dynamoemu-import-ddblocal): next to this binary, else on PATH. The
// import stays a command of its own, an optional install, because the
// SQLite reader it links (modernc.org/sqlite) would add 3.7 MB to this
// binary (measured: 17.56 MB stripped without it, 21.30 MB with it), more
// than a fifth, for a one-off migration. Its output and exit status are
// the import's.

// importName is the import's command name.
const importName = "dynamoemu-import-ddblocal"

// exitImportMissing is dynamoemu's exit status when the import is not
// installed: the shell's "command not found".
const exitImportMissing = 127

// errImportMissing answers "dynamoemu import-ddblocal ..." when the
// import is nowhere to be found, saying how to get it.
var errImportMissing = errors.New("the DynamoDB Local import is the optional command " + importExe() +
	", not found next to dynamoemu nor on PATH (it is left out of the image and the npm package: its SQLite reader is 3.7 MB); " +
	"build it in the checkout dynamoemu was built from: go install ./cmd/dynamoemu-import-ddblocal (into $(go env GOPATH)/bin, " +
	"where go install ./cmd/dynamoemu puts dynamoemu), or go build -o DIR ./cmd/dynamoemu-import-ddblocal with DIR dynamoemu's folder; " +
	"for the image's data, docs/persistence.md (\"Coming from DynamoDB Local\") runs it on the host or in a Go container")

// importExit is the import's exit status when it is not 0 (it said why).
type importExit int

func (e importExit) Error() string {
	return fmt.Sprintf("%s exited with status %d", importName, int(e))
}

// importExe is the import's executable name.
func importExe() string {
	if runtime.GOOS == "windows" {
		return importName + ".exe"
	}
	return importName
}

// findImport returns the path of the import: next to this executable
// (links resolved), else on PATH.
func findImport() (string, error) { return findCommand(importExe()) }

// findCommand returns the path of the optional command exe (its
// executable's name): next to this executable (links resolved), else on
// PATH.
func findCommand(exe string) (string, error) {
	if self, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(self); err == nil {
			self = real
		}
		p := filepath.Join(filepath.Dir(self), exe)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	return exec.LookPath(exe)
}

// runImport runs the import with args, its stdin, stdout and stderr the
// command's.
func runImport(args []string, stdout, stderr io.Writer) error {
	bin, err := findImport()
	if err != nil {
		return errImportMissing
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	err = cmd.Run()
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) && ee.ExitCode() > 0 {
		return importExit(ee.ExitCode())
	}
	return err
}
