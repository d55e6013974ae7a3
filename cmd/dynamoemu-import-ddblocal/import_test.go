package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/internal/ddblocal"
	"github.com/dynamoemu/dynamoemu/internal/ddblocal/ddblocaltest"
)

// TestImport: a DynamoDB Local file's tables come out in -dbPath as a
// server started on it serves them; a second import of the same tables,
// and a file that is not DynamoDB Local's, are refused and change nothing.
func TestImport(t *testing.T) {
	from, dbPath := t.TempDir(), t.TempDir()
	ddblocaltest.WriteFile(t, filepath.Join(from, "local_ap-northeast-1.db"))
	var out bytes.Buffer
	require.NoError(t, run([]string{"-from", from, "-dbPath", dbPath}, &out, &out))
	require.Contains(t, out.String(), "local/ap-northeast-1: Orders: 1 items, 1 LSI, 1 GSI, TTL on ttl, stream NEW_AND_OLD_IMAGES")
	require.Contains(t, out.String(), "local/ap-northeast-1: Plain: 1 items, deletion protection")

	emu, err := emulator.New(emulator.Options{DataDir: dbPath})
	require.NoError(t, err)
	c := client{h: emu.Handler(), ns: ddblocal.Namespace{AccessKey: "local", Region: "ap-northeast-1"}}
	var d struct{ Table map[string]any }
	require.NoError(t, c.call("DescribeTable", map[string]any{"TableName": "Orders"}, &d))
	require.Equal(t, "PAY_PER_REQUEST", d.Table["BillingModeSummary"].(map[string]any)["BillingMode"])
	require.Len(t, d.Table["GlobalSecondaryIndexes"], 1)
	require.Len(t, d.Table["LocalSecondaryIndexes"], 1)
	require.Equal(t, map[string]any{"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"}, d.Table["StreamSpecification"])
	var ttl struct{ TimeToLiveDescription map[string]any }
	require.NoError(t, c.call("DescribeTimeToLive", map[string]any{"TableName": "Orders"}, &ttl))
	require.Equal(t, "ttl", ttl.TimeToLiveDescription["AttributeName"])
	var got struct{ Item json.RawMessage }
	require.NoError(t, c.call("GetItem", map[string]any{"TableName": "Orders", "Key": map[string]any{"pk": map[string]string{"S": "a"}, "sk": map[string]string{"N": "1.5"}}}, &got))
	require.JSONEq(t, ddblocaltest.OrdersItem, string(got.Item))
	require.NoError(t, c.call("DescribeTable", map[string]any{"TableName": "Plain"}, &d))
	require.Equal(t, true, d.Table["DeletionProtectionEnabled"])
	require.Equal(t, float64(3), d.Table["ProvisionedThroughput"].(map[string]any)["ReadCapacityUnits"])
	require.NoError(t, emu.Close())

	err = run([]string{"-from", from, "-dbPath", dbPath}, &out, &out)
	require.ErrorContains(t, err, "table Orders already exists in local/ap-northeast-1's database")
	require.ErrorContains(t, err, "nothing was imported")

	foreign := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(foreign, "shared-local-instance.db"), []byte("{}"), 0o644))
	fresh := filepath.Join(t.TempDir(), "data")
	err = run([]string{"-from", foreign, "-dbPath", fresh}, &out, &out)
	require.ErrorIs(t, err, ddblocal.ErrNotSQLite)
	_, statErr := os.Stat(fresh)
	require.True(t, os.IsNotExist(statErr), "a refused import made -dbPath")
}

func TestFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		msg  string
	}{
		{"nothing", nil, "give -from and -dbPath"},
		{"no dbPath", []string{"-from", "x"}, "give -from and -dbPath"},
		{"extra", []string{"-from", "x", "-dbPath", "y", "z"}, "give -from and -dbPath"},
		{"missing from", []string{"-from", filepath.Join(t.TempDir(), "none"), "-dbPath", t.TempDir()}, "no such file"},
		{"no files", []string{"-from", t.TempDir(), "-dbPath", t.TempDir()}, "holds no DynamoDB Local files"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			require.ErrorContains(t, run(tc.args, &out, &out), tc.msg)
		})
	}
}

// TestImportShared: -sharedDb's file goes into the shared database, which
// a server started with -sharedDb serves to any access key.
func TestImportShared(t *testing.T) {
	from, dbPath := t.TempDir(), t.TempDir()
	ddblocaltest.WriteFile(t, filepath.Join(from, ddblocal.SharedFileName))
	var out bytes.Buffer
	require.NoError(t, run([]string{"-from", filepath.Join(from, ddblocal.SharedFileName), "-dbPath", dbPath}, &out, &out))
	require.Contains(t, out.String(), "shared: Orders: 1 items")

	emu, err := emulator.New(emulator.Options{DataDir: dbPath, SharedDB: true})
	require.NoError(t, err)
	defer emu.Close()
	c := client{h: emu.Handler(), ns: ddblocal.Namespace{AccessKey: "anyone", Region: "eu-west-1"}}
	var lt struct{ TableNames []string }
	require.NoError(t, c.call("ListTables", map[string]any{}, &lt))
	require.Equal(t, []string{"Orders", "Plain"}, lt.TableNames)
}
