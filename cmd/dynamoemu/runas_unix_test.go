//go:build unix

package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDataOwnerPlan(t *testing.T) {
	for _, tc := range []struct {
		name        string
		owner       runAs
		empty       bool
		to          runAs
		chown, stay bool
	}{
		{"a host user's directory", runAs{1000, 1001}, false, runAs{1000, 1001}, false, false},
		{"a host user's empty directory", runAs{1000, 1001}, true, runAs{1000, 1001}, false, false},
		{"made by the engine", runAs{0, 0}, true, runAs{imageUser, imageUser}, true, false},
		{"root's data", runAs{0, 0}, false, runAs{}, false, true},
	} {
		to, chown, stay := dataOwnerPlan(tc.owner, tc.empty)
		require.Equal(t, tc.to, to, tc.name)
		require.Equal(t, tc.chown, chown, tc.name)
		require.Equal(t, tc.stay, stay, tc.name)
	}
}

// TestRunAsDataOwner starts the server as the image does (as root, with
// runAsDataOwnerEnv, DynamoDB Local's command line) on a data directory
// owned by a host user, one the engine made (root's, empty) and one
// holding root's files, and checks whom it runs as and who owns what it
// writes. It needs root, as the image's start has.
func TestRunAsDataOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root: the container image's start drops root (CI runs as root)")
	}
	t.Setenv(runAsDataOwnerEnv, "1")
	for _, tc := range []struct {
		name      string
		owner     int // of the directory; -1: root's, with a file in it
		wantUID   int
		wantFiles int // owner of the files the server writes
	}{
		{"host user", 1000, 1000, 1000},
		{"made by the engine", 0, imageUser, imageUser},
		{"root's data", -1, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Not t.TempDir: its parent is root's alone (0700), and the
			// server must reach the directory once it is not root.
			parent, err := os.MkdirTemp("", "dynamoemu-runas-")
			require.NoError(t, err)
			t.Cleanup(func() { os.RemoveAll(parent) })
			require.NoError(t, os.Chmod(parent, 0o755))
			dir := filepath.Join(parent, "data")
			require.NoError(t, os.Mkdir(dir, 0o755))
			if tc.owner > 0 {
				require.NoError(t, os.Chown(dir, tc.owner, tc.owner))
			}
			if tc.owner < 0 {
				require.NoError(t, os.WriteFile(filepath.Join(dir, "left-by-root"), nil, 0o644))
			}
			c := startChild(t, "-jar", "DynamoDBLocal.jar", "-sharedDb", "-dbPath", dir)
			defer c.stop(t)
			require.Equal(t, tc.wantUID, processUID(t, c.cmd.Process.Pid), c.logs.String())
			require.NoError(t, newClient(c.url).call(context.Background(), "CreateTable", `{"TableName":"owned","BillingMode":"PAY_PER_REQUEST",
				"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`, nil))
			n := 0
			require.NoError(t, filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
				if err != nil || path == dir || info.Name() == "left-by-root" {
					return err
				}
				n++
				require.Equal(t, uint32(tc.wantFiles), info.Sys().(*syscall.Stat_t).Uid, path)
				return nil
			}))
			require.Positive(t, n, "the server wrote nothing in -dbPath")
			if tc.owner < 0 {
				require.Contains(t, c.logs.String(), "running as root")
			}
		})
	}
	// No -dbPath (every container without one): the image's user, and
	// nothing said about it at info, the level the image logs at.
	c := startChild(t, "-jar", "DynamoDBLocal.jar", "-inMemory")
	defer c.stop(t)
	require.Equal(t, imageUser, processUID(t, c.cmd.Process.Pid), c.logs.String())
	require.NotContains(t, c.logs.String(), "running as", "a line about the user nobody asked about")
}

var uidRE = regexp.MustCompile(`(?m)^Uid:\s+(\d+)`)

// processUID is the real uid of process pid.
func processUID(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	require.NoError(t, err)
	m := uidRE.FindSubmatch(b)
	require.NotNil(t, m)
	uid, err := strconv.Atoi(string(m[1]))
	require.NoError(t, err)
	return uid
}
