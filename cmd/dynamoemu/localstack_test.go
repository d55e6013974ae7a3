package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestLocalstackEnv(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	c, err := parseFlagsAs(nil, io.Discard, false, env("SERVICES", "s3, dynamodb", "DYNAMODB_SHARE_DB", "1", "DEBUG", "1"))
	require.NoError(t, err)
	require.True(t, c.localstack.on)
	require.Equal(t, 4566, c.port)
	require.True(t, c.sharedDB)
	require.Equal(t, "debug", c.logLevel)
	require.Empty(t, c.dbPath)

	c, err = parseFlagsAs([]string{"-port", "9000"}, io.Discard, false, env("SERVICES", "dynamodbstreams", "GATEWAY_LISTEN", "0.0.0.0:4510,0.0.0.0:443", "PERSISTENCE", "1"))
	require.NoError(t, err)
	require.Equal(t, 9000, c.port, "-port wins")
	require.Equal(t, "0.0.0.0", c.host)
	require.Equal(t, localstackPersistDir, c.dbPath)

	c, err = parseFlagsAs(nil, io.Discard, false, env("LOCALSTACK_AUTH_TOKEN", "x", "GATEWAY_LISTEN", "4600", "PERSISTENCE", "1", "DYNAMODB_IN_MEMORY", "1"))
	require.NoError(t, err)
	require.True(t, c.localstack.on)
	require.Equal(t, 4600, c.port)
	require.Equal(t, "127.0.0.1", c.host)
	require.Empty(t, c.dbPath)

	c, err = parseFlagsAs(nil, io.Discard, false, env("SERVICES", "s3,sqs"))
	require.NoError(t, err)
	require.False(t, c.localstack.on, "no DynamoDB asked for")
	require.Equal(t, 8000, c.port)

	_, err = parseFlagsAs(nil, io.Discard, false, env("SERVICES", "dynamodb", "GATEWAY_LISTEN", "host:"))
	require.Error(t, err)
}

// TestLocalstackShape: -localstack answers LocalStack's health and init
// endpoints, runs the ready.d scripts with AWS_ENDPOINT_URL naming the
// server, then prints "Ready.".
func TestLocalstackShape(t *testing.T) {
	dir := t.TempDir()
	got := filepath.Join(dir, "endpoint")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "01-first.sh"), []byte("echo \"$AWS_ENDPOINT_URL $AWS_ACCESS_KEY_ID\" > "+got+"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "02-fails.sh"), []byte("#!/bin/sh\nexit 3\n"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a script"), 0o644))

	addr, stdout, _ := startServerOut(t, "-localstack", "-localstackInit", dir)
	base := "http://" + addr
	getJSON := func(path string, out any) {
		res, err := http.Get(base + path)
		require.NoError(t, err)
		defer res.Body.Close()
		require.Equal(t, http.StatusOK, res.StatusCode, path)
		require.NoError(t, json.NewDecoder(res.Body).Decode(out))
	}
	var health struct{ Services map[string]string }
	getJSON("/_localstack/health", &health)
	require.Equal(t, map[string]string{"dynamodb": "running", "dynamodbstreams": "running"}, health.Services)

	deadline := time.Now().Add(hangBound)
	for !strings.Contains(stdout.String(), "Ready.") {
		require.True(t, time.Now().Before(deadline), "no Ready.")
		time.Sleep(10 * time.Millisecond)
	}
	var init struct {
		Completed map[string]bool
		Scripts   []initScript
	}
	getJSON("/_localstack/init", &init)
	require.True(t, init.Completed["READY"])
	require.Equal(t, []initScript{{"READY", "01-first.sh", "SUCCESSFUL"}, {"READY", "02-fails.sh", "ERROR"}}, init.Scripts)
	var readyStage struct {
		Completed bool
		Scripts   []initScript
	}
	getJSON("/_localstack/init/ready", &readyStage)
	require.True(t, readyStage.Completed)
	require.Len(t, readyStage.Scripts, 2)

	b, err := os.ReadFile(got)
	require.NoError(t, err)
	require.Equal(t, "http://"+addr+" test\n", string(b))

	res, err := http.Get(base + "/")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, "the rest is AWS's")
}
