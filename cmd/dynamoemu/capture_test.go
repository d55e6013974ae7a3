package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCaptureCommands: "dynamoemu record ..." and "dynamoemu replay ..."
// run the optional dynamoemu-capture found on PATH with the command and
// the same arguments, its output and exit status passed on (replay's 1
// for departures); without it, they say how to get it.
func TestCaptureCommands(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in command is a shell script")
	}
	dir := t.TempDir()
	script := "#!/bin/sh\necho \"capture: $*\"\nexit 1\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, captureName), []byte(script), 0o755))
	t.Setenv("PATH", dir)
	for _, args := range [][]string{{"replay", "-json", "a b.jsonl"}, {"record", "-upstream", "http://x", "-tablePrefix", "rec1-", "-out", "c"}} {
		var out bytes.Buffer
		err := run(args, &out, io.Discard, nil)
		require.Equal(t, captureExit(1), err)
		require.Equal(t, 1, exitStatus(err, io.Discard))
		require.Equal(t, "capture: "+joinArgs(args)+"\n", out.String())
	}

	t.Setenv("PATH", t.TempDir())
	err := run([]string{"replay", "x.jsonl"}, io.Discard, io.Discard, nil)
	require.ErrorIs(t, err, errCaptureMissing)
	require.Contains(t, err.Error(), "go install ./cmd/dynamoemu-capture")
	require.Equal(t, exitImportMissing, exitStatus(err, io.Discard))
}

func joinArgs(a []string) string {
	var b bytes.Buffer
	for i, s := range a {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	return b.String()
}
