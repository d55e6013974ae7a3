package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/cmd/internal/conventionscheck"
	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
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

// TestConventionsCommand: the conventions check is a command of the
// server's binary ("check", "conventions check", the container's "-host
// 0.0.0.0 conventions check"), with its output and exit status. Its old
// command name, dynamoemu-conventions, is the tools' (cmd/internal/tools).
func TestConventionsCommand(t *testing.T) {
	dir := t.TempDir()
	url, _, db := emulatortest.NewServerWith(t, emulator.Options{SharedDB: true})
	createBadCommandTable(t, db)
	cfg := filepath.Join(dir, "conventions.json")
	require.NoError(t, os.WriteFile(cfg, []byte(`{"tables":[{"match":"*-command","role":"command"}]}`), 0o600))

	check := []string{"check", "--endpoint", url, "--config", cfg}
	for _, args := range [][]string{
		check,
		append([]string{"conventions"}, check...),
		append([]string{"-host", "0.0.0.0", "conventions"}, check...),
		append([]string{"-host", "0.0.0.0"}, check...),
	} {
		var out, errOut bytes.Buffer
		err := run(args, &out, &errOut, nil)
		var code checkerExit
		require.ErrorAs(t, err, &code, "%v: stderr %s", args, errOut.String())
		require.Equal(t, checkerExit(conventionscheck.ExitViolations), code, "a violation of error severity")
		require.Contains(t, out.String(), "A3\terror")
		require.Contains(t, out.String(), "1 violations in 1 tables: 1 errors, 0 warnings")
	}

	// A check that cannot run: exit status 2, the reason on stderr.
	var errOut bytes.Buffer
	err := run([]string{"check", "--endpoint", "ftp://x", "--config", cfg}, io.Discard, &errOut, nil)
	require.Equal(t, checkerExit(conventionscheck.ExitError), err)
	require.Contains(t, errOut.String(), "want an http:// or https:// URL")
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
