//go:build unix

package main

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

// returnOnSignal returns memory to the operating system (returnMemory)
// at each SIGUSR1 until ctx ends: an operator's, or a benchmark's
// (cmd/dynamoemu-bench -memory), way to see the heap collected. The
// signal is caught from the return on.
func returnOnSignal(ctx context.Context, log *slog.Logger) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGUSR1)
	go func() {
		defer signal.Stop(sigs)
		for {
			select {
			case <-ctx.Done():
				return
			case <-sigs:
				returnMemory(log, "SIGUSR1")
			}
		}
	}()
}
