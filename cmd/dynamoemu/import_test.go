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

// TestImportCommand: "dynamoemu import-ddblocal ..." runs the optional
// dynamoemu-import-ddblocal found on PATH with the same arguments, its
// output and exit status passed on; without it, it says how to get it.
func TestImportCommand(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in import is a shell script")
	}
	dir := t.TempDir()
	script := "#!/bin/sh\necho \"import: $*\"\nexit 3\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, importName), []byte(script), 0o755))
	t.Setenv("PATH", dir)
	var out bytes.Buffer
	err := run([]string{"import-ddblocal", "-from", "a b", "-dbPath", "c"}, &out, io.Discard, nil)
	require.Equal(t, importExit(3), err)
	require.Equal(t, "import: -from a b -dbPath c\n", out.String())

	t.Setenv("PATH", t.TempDir())
	err = run([]string{"import-ddblocal", "-from", "x", "-dbPath", "y"}, io.Discard, io.Discard, nil)
	require.ErrorIs(t, err, errImportMissing)
	require.Contains(t, err.Error(), "go install ./cmd/dynamoemu-import-ddblocal")
	require.NotContains(t, err.Error(), "@latest", "the module is not on the Go module proxy")
}
