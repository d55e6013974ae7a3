//go:build unix

package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestParentPidKilled: a server started with -parentPid of its parent
// stops once the parent is SIGKILLed. The parent is this test binary run
// as childEnv=parent (runParentChild): it starts the server and prints
// its pid.
func TestParentPidKilled(t *testing.T) {
	self, err := os.Executable()
	require.NoError(t, err)
	parent := exec.Command(self)
	parent.Env = append(os.Environ(), childEnv+"=parent")
	parent.Stderr = os.Stderr
	out, err := parent.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, parent.Start())
	t.Cleanup(func() { parent.Process.Kill(); parent.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err, "the parent printed no server pid")
	server, err := strconv.Atoi(strings.TrimSpace(line))
	require.NoError(t, err, "the parent's line %q", line)
	require.False(t, processGone(server), "the server runs")

	require.NoError(t, parent.Process.Signal(syscall.SIGKILL))
	parent.Wait()
	waitGone(t, server)
}

// TestParentPidOther: -parentPid of a process other than the parent (a
// sleep here): the server stops once that one has exited.
func TestParentPidOther(t *testing.T) {
	sleep := exec.Command("sleep", "600")
	require.NoError(t, sleep.Start())
	t.Cleanup(func() { sleep.Process.Kill(); sleep.Wait() })
	c := startChild(t, "-parentPid", strconv.Itoa(sleep.Process.Pid))
	require.NoError(t, newClient(c.url).call(t.Context(), "ListTables", `{}`, nil))

	require.NoError(t, sleep.Process.Kill())
	sleep.Wait()
	select {
	case <-c.done:
	case <-time.After(hangBound):
		t.Fatalf("the server still runs %v after its -parentPid exited; its log:\n%s", hangBound, c.logs.String())
	}
	require.True(t, c.cmd.ProcessState.Success(), "a clean stop: %v; its log:\n%s", c.cmd.ProcessState, c.logs.String())
	require.Contains(t, c.logs.String(), "the parent process is gone")
}

// processGone reports whether process pid has exited: no such process,
// or a zombie nobody has reaped yet (where init does not reap).
func processGone(pid int) bool {
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false // no /proc: alive, as signal 0 says
	}
	// pid (comm) state ...: the state follows the last ')'.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && strings.HasPrefix(s[i+1:], " Z")
}

// waitGone waits for process pid to exit, up to hangBound.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(hangBound)
	for !processGone(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("server %d still runs %v after its parent was killed", pid, hangBound)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
