package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// shutdownSignals returns a context cancelled at the first SIGINT or
// SIGTERM, a channel closed once the handler is installed, and a stop
// function that cancels the context and gives the signals back their
// default action (a second signal during the shutdown ends the process at
// once), as signal.NotifyContext does.
//
// The handler is installed in the background, so that the server can
// answer while it is: os/signal's first Notify starts two threads of its
// own (one locked to its goroutine, one blocked receiving signals), and
// creating a thread costs about a millisecond on a small virtual machine,
// which was the largest part of the emulator's start-up above a bare
// net/http server's (BenchmarkStartup, issue 25). run waits for installed
// before it logs that it is listening or says it is ready, so whoever
// learns of the server from either may signal it at once.
func shutdownSignals() (ctx context.Context, installed <-chan struct{}, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	sigs := make(chan os.Signal, 1)
	go func() {
		signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
		close(done)
		select {
		case <-sigs:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, done, func() {
		cancel()
		<-done
		signal.Stop(sigs)
	}
}
