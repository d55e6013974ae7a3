package main

import (
	"io"
	"net"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestServeClosesOnListenFailure: a start whose listen fails, after the
// emulator is made, closes it: its data directory's lock is let go, so a
// second start on that directory fails at the port again, not at the
// lock the first left held.
func TestServeClosesOnListenFailure(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()
	port := strconv.Itoa(busy.Addr().(*net.TCPAddr).Port)
	dir := t.TempDir()
	args := []string{"-dbPath", dir, "-host", "127.0.0.1", "-port", port}
	first := serve(args, io.Discard, io.Discard, nil)
	require.Error(t, first)
	second := serve(args, io.Discard, io.Discard, nil)
	require.Error(t, second)
	require.NotContains(t, second.Error(), "locked")
	require.Equal(t, first.Error(), second.Error())
}
