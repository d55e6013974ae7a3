package tools

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLookPath: lookPath finds an executable file on PATH, as a shell
// does, and not a file no one may execute, a directory or a missing
// name; a name with a slash is taken as it is. run reports a program that
// does not start as an error, not an exit status.
func TestLookPath(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "prog"), []byte("#!/bin/sh\n"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "data"), []byte("x"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	t.Setenv("PATH", filepath.Join(dir, "none")+string(os.PathListSeparator)+dir)
	p, err := lookPath("prog")
	require.NoError(t, err)
	require.Equal(t, filepath.Join(dir, "prog"), p)
	for _, name := range []string{"data", "sub", "missing", filepath.Join(dir, "data")} {
		_, err := lookPath(name)
		require.Error(t, err, name)
	}
	p, err = lookPath(filepath.Join(dir, "prog"))
	require.NoError(t, err)
	require.Equal(t, filepath.Join(dir, "prog"), p)
	_, err = run(filepath.Join(dir, "missing"), nil, os.Stdout, os.Stderr)
	require.Error(t, err)
}
