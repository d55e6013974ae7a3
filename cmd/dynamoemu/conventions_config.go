package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/dynamoemu/dynamoemu/cmd/internal/conventionscheck"
	"github.com/dynamoemu/dynamoemu/conventions"
)

// The conventions check of any endpoint (cmd/internal/conventionscheck) is a
// command of the server's binary: "dynamoemu check ...", also "dynamoemu
// conventions check ..." (main.go's table; with the container image's
// "-host 0.0.0.0" before it) and, in the image, by its old command name
// "dynamoemu-conventions check ..." (a link to the tools' binary, which
// starts "dynamoemu conventions ..."). The check talks to the endpoint
// with a client of its own, not the AWS SDK, so it adds little to the
// binary. Its output and exit status are the check's.

// checkerExit is the check's exit status when it is not 0 (it has said
// why on stderr, or printed the violations).
type checkerExit int

func (e checkerExit) Error() string {
	return fmt.Sprintf("the conventions check exited with status %d", int(e))
}

// runConventions runs the check with args ("check ..."), returning its
// exit status as a checkerExit.
func runConventions(args []string, stdout, stderr io.Writer) error {
	err := conventionscheck.Run(context.Background(), args, stdout, stderr)
	code := conventionscheck.ExitCode(err)
	if code == 0 {
		return nil
	}
	if !errors.Is(err, conventionscheck.ErrViolations) { // the lines and the summary said which
		fmt.Fprintln(stderr, "dynamoemu check:", err)
	}
	return checkerExit(code)
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
