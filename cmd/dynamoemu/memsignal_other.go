//go:build !unix

package main

import (
	"context"
	"log/slog"
)

// returnOnSignal: there is no SIGUSR1 here.
func returnOnSignal(context.Context, *slog.Logger) {}
