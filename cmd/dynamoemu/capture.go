package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"
)

// "dynamoemu record ..." and "dynamoemu replay ..." run the command
// dynamoemu-capture (../dynamoemu-capture) with the same arguments: next
// to this binary, else on PATH, as the DynamoDB Local import is run
// (import.go). Record re-signs requests with the AWS SDK's credential
// chain and signer, which this binary does not link (internal/lint:
// TestServerWithoutAWSSDK); linked here, the SDK's configuration and
// signer with the capture format would add 2.6 MB (14%) to its stripped
// linux/amd64 binary (measured: 18.24 MB without, 20.84 MB with; this
// hand-off adds 8 KB). Their output and exit status are
// dynamoemu-capture's: replay exits 1 when an answer departs from the
// capture. On Linux the child ends with its parent, even a parent
// killed by SIGKILL (capture_linux.go).

// captureName is the command record and replay run.
const captureName = "dynamoemu-capture"

// captureExit is dynamoemu-capture's exit status when it is not 0 (it
// said why).
type captureExit int

func (e captureExit) Error() string {
	return fmt.Sprintf("%s exited with status %d", captureName, int(e))
}

// errCaptureMissing answers "dynamoemu record|replay" when
// dynamoemu-capture is nowhere to be found, saying how to get it.
var errCaptureMissing = errors.New("record and replay are the optional command " + captureExe() +
	", not found next to dynamoemu nor on PATH (it links the AWS SDK, which the server leaves out); " +
	"build it in the checkout dynamoemu was built from: go install ./cmd/dynamoemu-capture (into $(go env GOPATH)/bin, " +
	"where go install ./cmd/dynamoemu puts dynamoemu), or go build -o DIR ./cmd/dynamoemu-capture with DIR dynamoemu's folder " +
	"(docs/captures.md)")

// captureExe is dynamoemu-capture's executable name.
func captureExe() string {
	if runtime.GOOS == "windows" {
		return captureName + ".exe"
	}
	return captureName
}

// runCapture runs "dynamoemu-capture sub args...", its stdin, stdout and
// stderr the command's.
func runCapture(sub string, args []string, stdout, stderr io.Writer) error {
	bin, err := findCommand(captureExe())
	if err != nil {
		return errCaptureMissing
	}
	cmd := exec.Command(bin, append([]string{sub}, args...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	// record runs until it is stopped: a signal to this process is
	// passed on, so that it stops too and says what it wrote.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	defer endWithParent(cmd)()
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case s := <-sigs:
				_ = cmd.Process.Signal(s)
			case <-done:
				return
			}
		}
	}()
	err = cmd.Wait()
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) && ee.ExitCode() > 0 {
		return captureExit(ee.ExitCode())
	}
	return err
}
