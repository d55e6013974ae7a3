//go:build !unix

package main

import "log/slog"

// adoptDataOwner does nothing where there are no Unix users to drop to
// (the container image runs Linux: runas_unix.go).
func adoptDataOwner(string, *slog.Logger) error { return nil }
