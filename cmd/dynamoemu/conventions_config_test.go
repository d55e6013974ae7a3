package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/dynamoemu/dynamoemu/conventions"
)

func TestLoadConventions(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	bad := filepath.Join(dir, "bad.json")
	_ = os.WriteFile(good, []byte(`{"tables":[{"match":"*-command","role":"command"}]}`), 0o600)
	_ = os.WriteFile(bad, []byte(`{"tables":[{"match":"*-command","role":"commando"}]}`), 0o600)
	tests := []struct {
		file    string
		tables  int
		wantErr error
	}{
		{"", 0, nil},
		{good, 1, nil},
		{bad, 0, conventions.ErrConfig},
		{filepath.Join(dir, "missing.json"), 0, os.ErrNotExist},
	}
	for _, tt := range tests {
		cfg, err := loadConventions(tt.file)
		if !errors.Is(err, tt.wantErr) || (tt.wantErr != nil) != (err != nil) {
			t.Errorf("loadConventions(%q): got error %v, want %v", tt.file, err, tt.wantErr)
			continue
		}
		if got := 0; cfg != nil {
			if got = len(cfg.Tables); got != tt.tables {
				t.Errorf("loadConventions(%q): got %d tables, want %d", tt.file, got, tt.tables)
			}
		}
	}
}

// TestConventionsMoved: "dynamoemu conventions ..." says where the check
// went, and fails.
func TestConventionsMoved(t *testing.T) {
	err := run([]string{"conventions", "check", "--endpoint", "http://localhost:1"}, io.Discard, io.Discard, nil)
	if !errors.Is(err, errConventionsMoved) {
		t.Errorf("got %v, want errConventionsMoved", err)
	}
}
