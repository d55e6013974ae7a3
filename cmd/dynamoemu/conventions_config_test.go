package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/internal/conventionscheck"
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

// TestConventionsCommand: "dynamoemu conventions check ..." runs the
// check found on PATH (next to dynamoemu in the npm package and the
// image), with its output and exit status; the container's "-host
// 0.0.0.0 conventions ..." too; without one it says how to get it. The
// check on PATH is this test binary under the checker's name, which runs
// the check (runConventionsChild) with childEnv=conventions: nothing is
// built while the tests run.
func TestConventionsCommand(t *testing.T) {
	dir := t.TempDir()
	self, err := os.Executable()
	require.NoError(t, err)
	require.NoError(t, os.Symlink(self, filepath.Join(dir, checkerName())))
	t.Setenv(childEnv, "conventions")
	url, _, db := emulatortest.NewServerWith(t, emulator.Options{SharedDB: true})
	createBadCommandTable(t, db)
	cfg := filepath.Join(dir, "conventions.json")
	require.NoError(t, os.WriteFile(cfg, []byte(`{"tables":[{"match":"*-command","role":"command"}]}`), 0o600))

	t.Setenv("PATH", dir)
	for _, args := range [][]string{
		{"conventions", "check", "--endpoint", url, "--config", cfg},
		{"-host", "0.0.0.0", "conventions", "check", "--endpoint", url, "--config", cfg},
	} {
		var out, errOut bytes.Buffer
		err := run(args, &out, &errOut, nil)
		var code checkerExit
		require.ErrorAs(t, err, &code, "%v: stderr %s", args, errOut.String())
		require.Equal(t, checkerExit(1), code, "a violation of error severity")
		require.Contains(t, out.String(), "A3\terror")
		require.Contains(t, out.String(), "1 violations in 1 tables: 1 errors, 0 warnings")
	}

	t.Setenv("PATH", t.TempDir())
	err = run([]string{"conventions", "check", "--endpoint", url}, io.Discard, io.Discard, nil)
	require.ErrorIs(t, err, errConventionsMissing)
	require.Contains(t, err.Error(), "npx dynamoemu conventions check")
	require.Contains(t, err.Error(), "go build -o")
}

// createBadCommandTable makes a command table holding one row without a
// version suffix (rule A3).
func createBadCommandTable(t *testing.T, db *dynamodb.Client) {
	t.Helper()
	str := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	_, err := db.CreateTable(t.Context(), &dynamodb.CreateTableInput{TableName: aws.String("app-order-command"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}}})
	require.NoError(t, err)
	_, err = db.PutItem(t.Context(), &dynamodb.PutItemInput{TableName: aws.String("app-order-command"),
		Item: map[string]types.AttributeValue{"pk": str("ORDER#t1"), "sk": str("ORDER#1")}})
	require.NoError(t, err)
}

// runConventionsChild is the test binary as dynamoemu-conventions (its
// main, with the check's package): TestMain runs it with
// childEnv=conventions; it exits.
func runConventionsChild() {
	err := conventionscheck.Run(context.Background(), os.Args[1:], os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dynamoemu-conventions:", err)
	}
	os.Exit(conventionscheck.ExitCode(err))
}
