package main

import (
	"context"
	"log/slog"
	"time"
)

// -parentPid: the server stops, as on SIGTERM, once the process that
// started it is gone, however it went (a SIGKILL of Node, a crashed test
// runner): the npm package's start() and npx wrapper pass their own pid,
// so that a parent killed without a chance to stop its child leaves no
// server behind.

// parentPoll is how often the parent is looked for.
const parentPoll = 250 * time.Millisecond

// watchParent returns a context cancelled once process pid is gone (or
// ctx is done).
func watchParent(ctx context.Context, pid int, log *slog.Logger) context.Context {
	ctx, cancel := context.WithCancel(ctx)
	gone := parentGone(pid)
	go func() {
		defer cancel()
		t := time.NewTicker(parentPoll)
		defer t.Stop()
		for {
			if gone() {
				log.Info("stopping: the parent process is gone (-parentPid)", "pid", pid)
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return ctx
}
