package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestCaptureChildEndsWithItsParent: "dynamoemu record" killed by
// SIGKILL (no handler runs) takes its dynamoemu-capture with it, which
// would otherwise keep serving the recorder's port.
func TestCaptureChildEndsWithItsParent(t *testing.T) {
	dir := t.TempDir()
	// The stand-in recorder says its pid and waits; exec keeps the pid
	// and the parent-death signal.
	script := "#!/bin/sh\necho $$\nexec /bin/sleep 300\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, captureName), []byte(script), 0o755))
	cmd := exec.Command(serverBinary(t), "record", "-upstream", "http://127.0.0.1:1", "-tablePrefix", "rec1-", "-out", filepath.Join(dir, "c.jsonl"))
	cmd.Env = append(os.Environ(), childEnv+"=server", "PATH="+dir)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	require.NoError(t, err)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })

	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	deadline := time.Now().Add(scaled(30 * time.Second))
	for !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		require.True(t, time.Now().Before(deadline), "dynamoemu-capture (pid %d) outlived dynamoemu record killed by SIGKILL", pid)
		time.Sleep(20 * time.Millisecond)
	}
}
