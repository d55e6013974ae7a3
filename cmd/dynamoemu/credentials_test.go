package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

const credentialsJSON = `{
  "credentials": [
    {"accessKeyId": "AKIATEAM1", "secretAccessKey": "team-secret-1", "namespace": "team"},
    {"accessKeyId": "AKIAME", "secretAccessKey": "my-secret"}
  ],
  "adminTokens": ["admin-token-0123456789"]
}`

// TestParseCredentials: the file's JSON, and the files refused.
func TestParseCredentials(t *testing.T) {
	creds, tokens, err := parseCredentials([]byte(credentialsJSON))
	require.NoError(t, err)
	require.Equal(t, []emulator.Credential{
		{AccessKeyID: "AKIATEAM1", SecretAccessKey: "team-secret-1", Namespace: "team"},
		{AccessKeyID: "AKIAME", SecretAccessKey: "my-secret"},
	}, creds)
	require.Equal(t, []string{"admin-token-0123456789"}, tokens)

	bad := []struct{ name, file, want string }{
		{"not JSON", `credentials`, "not the JSON"},
		{"no keys", `{"credentials": []}`, "at least one"},
		{"unknown field", `{"credentials": [{"accessKeyId": "a", "secretKey": "s"}]}`, "unknown field"},
		{"two objects", `{"credentials": [{"accessKeyId": "a", "secretAccessKey": "s"}]} {}`, "more after"},
		{"no secret", `{"credentials": [{"accessKeyId": "a"}]}`, "secret"},
		{"bad id", `{"credentials": [{"accessKeyId": "a b", "secretAccessKey": "s"}]}`, "access key id"},
		{"short token", `{"credentials": [{"accessKeyId": "a", "secretAccessKey": "s"}], "adminTokens": ["x"]}`, "admin token"},
	}
	for _, tt := range bad {
		_, _, err := parseCredentials([]byte(tt.file))
		require.ErrorContains(t, err, tt.want, tt.name)
	}
}

// FuzzParseCredentials: any file gives keys emulator.New takes, or an
// error, never a panic.
func FuzzParseCredentials(f *testing.F) {
	f.Add([]byte(credentialsJSON))
	f.Add([]byte(`{"credentials": [{"accessKeyId": "a", "secretAccessKey": "s"}]}`))
	f.Add([]byte(`{"credentials": null, "adminTokens": [""]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		creds, tokens, err := parseCredentials(data)
		if err != nil {
			return
		}
		e, err := emulator.New(emulator.Options{Credentials: creds, AdminTokens: tokens})
		if err != nil {
			t.Fatalf("parsed a file New refuses: %v", err)
		}
		e.Close()
	})
}

// TestRunCredentials: dynamoemu -credentials FILE takes only requests
// signed by the file's keys, its admin endpoints the file's token; its
// -healthcheck still reports it up.
func TestRunCredentials(t *testing.T) {
	file := filepath.Join(t.TempDir(), "credentials.json")
	require.NoError(t, os.WriteFile(file, []byte(credentialsJSON), 0o600))
	var logs syncBuffer
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- run([]string{"-port", "0", "-credentials", file, "-console=false"}, io.Discard, &logs, ready)
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("run: %v", err)
	case <-time.After(hangBound):
		t.Fatal("server did not start")
	}
	base := "http://" + addr
	call := func(key, secret string) int {
		body := []byte(`{}`)
		req, err := http.NewRequest(http.MethodPost, base+"/", bytes.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
		if key != "" {
			sum := sha256.Sum256(body)
			require.NoError(t, v4.NewSigner().SignHTTP(context.Background(), aws.Credentials{AccessKeyID: key, SecretAccessKey: secret},
				req, hex.EncodeToString(sum[:]), "dynamodb", "us-east-1", time.Now()))
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		return res.StatusCode
	}
	require.Equal(t, 200, call("AKIATEAM1", "team-secret-1"))
	require.Equal(t, 200, call("AKIAME", "my-secret"))
	require.Equal(t, 400, call("AKIAME", "team-secret-1"))
	require.Equal(t, 400, call("AKIAOTHER", "x"))
	require.Equal(t, 400, call("", ""))

	admin := func(token string) int {
		req, err := http.NewRequest(http.MethodGet, base+adminpath.Clock, nil)
		require.NoError(t, err)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		return res.StatusCode
	}
	require.Equal(t, 200, admin("admin-token-0123456789"))
	require.Equal(t, 400, admin(""))

	// Lambda's event source mapping API: signed for lambda, as the AWS
	// CLI's lambda commands sign, or refused with Lambda's 403.
	mapping := func(key, secret, service string) (int, string) {
		body := []byte(`{"TableName":"orders","FunctionName":"fn","StartingPosition":"LATEST"}`)
		req, err := http.NewRequest(http.MethodPost, base+"/2015-03-31/event-source-mappings/", bytes.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		if key != "" {
			sum := sha256.Sum256(body)
			require.NoError(t, v4.NewSigner().SignHTTP(context.Background(), aws.Credentials{AccessKeyID: key, SecretAccessKey: secret},
				req, hex.EncodeToString(sum[:]), service, "us-east-1", time.Now()))
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		return res.StatusCode, res.Header.Get("X-Amzn-ErrorType")
	}
	for _, tc := range []struct {
		key, secret, service string
		status               int
		typ                  string
	}{
		{"", "", "", 403, "MissingAuthenticationTokenException"},
		{"AKIAME", "team-secret-1", "lambda", 403, "InvalidSignatureException"},
		{"AKIAME", "my-secret", "dynamodb", 403, "InvalidSignatureException"},
		{"AKIAME", "my-secret", "lambda", 202, ""},
	} {
		status, typ := mapping(tc.key, tc.secret, tc.service)
		require.Equal(t, tc.status, status, tc)
		require.Equal(t, tc.typ, typ, tc)
	}

	port := addr[strings.LastIndexByte(addr, ':')+1:]
	require.NoError(t, run([]string{"-healthcheck", "-port", port}, io.Discard, io.Discard, nil), "a server with -credentials is healthy")
	require.Contains(t, logs.String(), "signatures=true")

	require.NoError(t, syscall.Kill(syscall.Getpid(), syscall.SIGTERM))
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(hangBound):
		t.Fatal("server did not stop on SIGTERM")
	}
}

// TestRunCredentialsRefused: a missing or bad file stops the server
// before it listens.
func TestRunCredentialsRefused(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"credentials": []}`), 0o600))
	for _, file := range []string{filepath.Join(dir, "missing.json"), bad} {
		err := run([]string{"-port", "0", "-credentials", file}, io.Discard, io.Discard, nil)
		require.ErrorContains(t, err, "-credentials", file)
	}
}
