package main

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDDBLocalFiles(t *testing.T) {
	sqlite := append([]byte(sqliteMagic), make([]byte, 84)...)
	tests := []struct {
		name  string
		files map[string][]byte // nil content: a directory
		want  []string
	}{
		{"empty", nil, nil},
		{"shared", map[string][]byte{"shared-local-instance.db": sqlite}, []string{"shared-local-instance.db"}},
		{"keyed and other files", map[string][]byte{"local_us-east-1.db": sqlite, "notes.txt": []byte("x"), "empty.db": nil}, []string{"local_us-east-1.db"}},
		{"a .db that is not SQLite", map[string][]byte{"local_us-east-1.db": []byte("not sqlite")}, nil},
		{"dynamoemu's data beside it", map[string][]byte{"shared-local-instance.db": sqlite, "shared-local-instance/": nil}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, b := range tc.files {
				if name[len(name)-1] == '/' {
					require.NoError(t, os.Mkdir(filepath.Join(dir, name), 0o755))
					continue
				}
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), b, 0o644))
			}
			require.Equal(t, tc.want, ddbLocalFiles(dir))
		})
	}
}

func TestWarnDDBLocalFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "docker data")
	require.NoError(t, os.Mkdir(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "shared-local-instance.db"), []byte(sqliteMagic+"rest"), 0o644))
	before, err := os.ReadFile(filepath.Join(dir, "shared-local-instance.db"))
	require.NoError(t, err)
	var buf bytes.Buffer
	warnDDBLocalFiles(dir, slog.New(slog.NewTextHandler(&buf, nil)))
	require.Contains(t, buf.String(), "dynamoemu-import-ddblocal -from '"+dir+"' -dbPath '"+dir+"'")
	require.Contains(t, buf.String(), "files=shared-local-instance.db")
	after, err := os.ReadFile(filepath.Join(dir, "shared-local-instance.db"))
	require.NoError(t, err)
	require.Equal(t, before, after)

	buf.Reset()
	warnDDBLocalFiles("", slog.New(slog.NewTextHandler(&buf, nil)))
	require.Empty(t, buf.String())
}
