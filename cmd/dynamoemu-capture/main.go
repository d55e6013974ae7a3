package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(exitStatus(err, os.Stderr))
}

// errDepartures ends a replay whose answers departed from the capture's
// (it printed them): exit status 1.
var errDepartures = errors.New("the replay departed from the capture")

// exitStatus is the exit status for run's error: 0, 1 for departures,
// 2 for anything else (said on stderr).
func exitStatus(err error, stderr io.Writer) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errDepartures):
		return 1
	}
	fmt.Fprintln(stderr, "dynamoemu:", err)
	return 2
}

const usage = `usage: dynamoemu record -upstream URL -tablePrefix P -out FILE [-port N]
       dynamoemu replay [-endpoint URL] [-json] [-ignore PATHS] FILE
(docs/captures.md)`

// run runs the command args name: record or replay.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return errors.New("give a command: record or replay")
	}
	switch args[0] {
	case "record":
		return runRecord(ctx, args[1:], stderr)
	case "replay":
		return runReplay(ctx, args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(stderr, usage)
		return flag.ErrHelp
	}
	fmt.Fprintln(stderr, usage)
	return fmt.Errorf("%q is not a command: record or replay", args[0])
}
