package main

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestShutdownCutsLongRequests: a SIGTERM while a request runs longer
// than -shutdownGrace (a fault rule's delay keeps it running) stops the
// server with status 0, not 2: a supervisor reads a stop it asked for as
// a success. The log says the request was cut; it gets no answer.
func TestShutdownCutsLongRequests(t *testing.T) {
	rules := filepath.Join(t.TempDir(), "faults.json")
	require.NoError(t, os.WriteFile(rules, []byte(`{"rules":[{"operations":["ListTables"],"fault":"Delay","delay":"30s"}]}`), 0o644))
	c := startChild(t, "-faults", rules, "-shutdownGrace", "200ms")
	answered := make(chan error, 1)
	go func() { answered <- newClient(c.url).call(context.Background(), "ListTables", `{}`, nil) }()
	// The request is running once the server has read it; the fault's
	// delay holds it far longer than this.
	time.Sleep(time.Second)
	require.NoError(t, c.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case <-c.done:
	case <-time.After(hangBound):
		c.kill()
		t.Fatalf("the server did not stop; its log:\n%s", c.logs.String())
	}
	require.True(t, c.cmd.ProcessState.Success(), "exit %v; its log:\n%s", c.cmd.ProcessState, c.logs.String())
	require.Contains(t, c.logs.String(), "still running after -shutdownGrace")
	require.Contains(t, c.logs.String(), "openConnections=1")
	require.Error(t, <-answered, "the cut request got an answer")
}
